// The `agent-widget` bin (built to dist/cli.js with a shebang by src/cli/build.mjs).
import { run } from './main';

declare const __CLI_VERSION__: string;

const controller = new AbortController();
// First Ctrl-C stops waiting (the command says what goes on on the service); a second one exits at once.
process.once('SIGINT', () => {
  controller.abort();
  process.once('SIGINT', () => process.exit(130));
});

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  signal: controller.signal,
  version: typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'dev',
});
