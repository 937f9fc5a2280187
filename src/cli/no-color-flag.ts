// `--no-color` is NO_COLOR for this process, set before any other module of the bin loads: the spinner's
// colour library reads the environment once, as it loads (run() reads the flag itself as well).
if (process.argv.includes('--no-color')) process.env.NO_COLOR = '1';
