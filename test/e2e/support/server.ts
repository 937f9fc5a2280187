// Starts `scripts/serve.mjs` (what `npm start` runs after building) on a free port for one test file.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface DemoServer {
  /** Origin plus trailing slash, e.g. http://localhost:40123/ */
  url: string;
  /** The chat proxy's log entries printed so far (with `log: true`). */
  logEntries(): Record<string, unknown>[];
  close(): Promise<void>;
}

export interface DemoServerOptions {
  /** Freezes the sandbox clock (ISO 8601), so availability does not depend on the day the test runs. */
  now?: string;
  /** Also serve test/e2e/fixtures under /fixtures/. */
  fixtures?: boolean;
  /** The sandbox in strict-spec mode. */
  strict?: boolean;
  /** Sandbox faults, as AGENT_SANDBOX_FAULTS writes them. */
  faults?: string;
  /** Other pages allowed to use the chat, as ALLOWED_ORIGINS writes them. */
  allowedOrigins?: string;
  /** The proxy prints its log entries (AGENT_LOG=1), for logEntries(). */
  log?: boolean;
}

const root = fileURLToPath(new URL('../../..', import.meta.url));

export function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      AGENT_BASE_URL: '',
      ...(options.now ? { AGENT_SANDBOX_NOW: options.now } : {}),
      ...(options.fixtures ? { AGENT_FIXTURES: '1' } : {}),
      ...(options.strict ? { AGENT_SANDBOX_STRICT: '1' } : {}),
      ...(options.faults ? { AGENT_SANDBOX_FAULTS: options.faults } : {}),
      ...(options.log ? { AGENT_LOG: '1' } : {}),
      ALLOWED_ORIGINS: options.allowedOrigins ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string) => reject(new Error(`demo server did not start: ${why}\n${output}`));
    child.once('exit', (code) => fail(`exited with ${code}`));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/\S+\/)/.exec(output);
      if (!match?.[1]) return;
      child.removeAllListeners('exit');
      resolve({
        url: match[1],
        logEntries: () =>
          output
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as Record<string, unknown>),
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
