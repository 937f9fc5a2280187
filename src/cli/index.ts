// The `agent-widget` bin (built to dist/cli.js with a shebang by vite.config.ts).
// First, so it runs before the modules below load.
import './no-color-flag';
import { run } from './main';

declare const __CLI_VERSION__: string;

const controller = new AbortController();
// Ctrl-C, or SIGTERM (what `timeout`, `kill` and a cancelled CI job send), stops waiting: the command says
// what goes on on the service, and --json still writes its document. A second signal exits at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    controller.abort();
    process.once(signal, () => process.exit(130));
  });
}

// A reader that stops early (`agent-widget usage | head -1`) closes the pipe: the CLI ends quietly, as
// when it had written everything, instead of dying on EPIPE with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  signal: controller.signal,
  version: typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : 'dev',
});
