// End-to-end harness for the CLI: the real bin (dist/cli.js as `npm run build` ships it; npm test builds
// first) spawned as a process against the sandbox served on node:http on a random loopback port, with a
// clock the test owns.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY, type Sandbox, type SandboxOptions } from '../../src/sandbox';
import { toNodeListener } from '../../src/server/node';

/**
 * Whether a tool the tests need is installed. Missing: a loud warning and the tests skip; with
 * CI=true a missing tool is a failure (the file fails to load).
 */
export function toolAvailable(command: string, args: string[], what: string, aptPackage: string, tests: string): boolean {
  if (spawnSync(command, args, { stdio: 'ignore' }).status === 0) return true;
  const message = `${what} is not installed: ${tests} cannot run.`;
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`${message} (CI=true: failing)`);
  console.warn(`\n!!! ${message} They are SKIPPED. Install ${aptPackage} (apt-get install -y ${aptPackage}). !!!\n`);
  return false;
}

/** util-linux `script` gives the CLI a pseudo-terminal, so the terminal behaviour is tested for real. */
export const HAS_PTY = toolAvailable('script', ['--version'], 'util-linux `script`', 'util-linux', "the CLI's terminal tests");

const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** The built bin; a clear failure when the build has not run. */
export async function cliFile(): Promise<{ file: string }> {
  if (!existsSync(BIN)) throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does).');
  return { file: BIN };
}

export interface Clock {
  now: () => Date;
  advance(ms: number): void;
}

export function manualClock(iso = '2026-11-23T15:00:00Z'): Clock {
  let t = Date.parse(iso);
  return { now: () => new Date(t), advance: (ms) => void (t += ms) };
}

export interface Served {
  baseUrl: string;
  sandbox: Sandbox;
  /** Method and path (without the base path) of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

export interface ServeOptions extends SandboxOptions {
  /** Runs after each request has been answered (e.g. to advance the clock one stage per poll). */
  afterRequest?: (method: string, path: string) => void;
  /** Answers instead of the sandbox when it returns a Response (e.g. a service that misbehaves). */
  override?: (request: Request) => Response | undefined;
}

export async function serveSandbox(options: ServeOptions = {}): Promise<Served> {
  const { afterRequest, override, ...sandboxOptions } = options;
  const sandbox = createSandbox({ basePath: '/sandbox', seed: 7, ...sandboxOptions });
  const requests: string[] = [];
  const listener = toNodeListener(async (request) => {
    const path = new URL(request.url).pathname.replace(/^\/sandbox/, '');
    requests.push(`${request.method} ${path}`);
    const response = override?.(request) ?? (await sandbox.handle(request));
    afterRequest?.(request.method, path);
    return response;
  });
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/sandbox`,
    sandbox,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  /** Run inside a pseudo-terminal (util-linux `script`), so stdin, stdout and stderr are TTYs. */
  tty?: boolean;
  /** Leave stdin open for `write` (without a pseudo-terminal). */
  keepStdinOpen?: boolean;
}

/** The environment a user would set for the sandbox, without CI/colour variables of the test runner. */
export function sandboxEnv(served: Served): Record<string, string> {
  return { AGENT_BASE_URL: served.baseUrl, AGENT_API_KEY: DEMO_API_KEY, AGENT_ID: DEMO_AGENT_ID };
}

export interface RunningCli {
  /** Resolves once stderr matches `pattern` (progress lines go there). */
  stderrMatches(pattern: RegExp): Promise<void>;
  /** Resolves once stdout matches `pattern` (in a pseudo-terminal everything the CLI writes comes there). */
  stdoutMatches(pattern: RegExp): Promise<void>;
  /** Types `text` on stdin (keep stdin open with `keepStdinOpen`, or `tty`). */
  write(text: string): void;
  /** Everything written on stdout so far. */
  output(): string;
  /** Sends a signal to the CLI process. */
  kill(signal: NodeJS.Signals): void;
  done: Promise<CliResult>;
}

let runs = 0;

export async function startCli(args: string[], options: RunOptions = {}): Promise<RunningCli> {
  const { file } = await cliFile();
  // A config directory of its own for each run, that does not exist, so no stored login of the machine's
  // user is read, and no run sees what another noted there (the record of uploaded names); removed after.
  const configDirectory = join(tmpdir(), `agent-widget-cli-test-${process.pid}-${++runs}-none`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'xterm-256color',
    AGENT_WIDGET_CONFIG_DIR: configDirectory,
  };
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
  const quoted = [process.execPath, file, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = options.tty
    ? spawn('script', ['-qefc', `stty cols 100 rows 40 2>/dev/null; ${quoted}`, '/dev/null'], { env })
    : spawn(process.execPath, [file, ...args], { env });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; text: () => string; resolve: () => void }[] = [];
  const wake = (): void => {
    for (const w of waiters.filter((w) => w.pattern.test(w.text()))) w.resolve();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    wake();
  });
  if (options.input !== undefined) child.stdin.end(options.input);
  else if (!options.tty && !options.keepStdinOpen) child.stdin.end();
  const matches = (text: () => string) => (pattern: RegExp) =>
    pattern.test(text()) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ pattern, text, resolve }));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      if (options.tty) child.stdin.end();
      rmSync(configDirectory, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    }),
  );
  return {
    stderrMatches: matches(() => stderr),
    stdoutMatches: matches(() => stdout),
    write: (text) => void child.stdin.write(text),
    output: () => stdout,
    kill: (signal) => void child.kill(signal),
    done,
  };
}

export async function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return (await startCli(args, options)).done;
}

export { DEMO_AGENT_ID, DEMO_API_KEY };

/** The asynchronous stage length the CLI tests give the sandbox. */
export const STAGE_MS = 2000;

/** A sandbox whose clock moves one stage on every request `isPoll` recognises (a status poll). */
export function sandboxAdvancingOn(isPoll: (method: string, path: string) => boolean): Promise<Served> {
  const clock = manualClock();
  return serveSandbox({
    now: clock.now,
    stageMs: STAGE_MS,
    afterRequest: (method, path) => {
      if (isPoll(method, path)) clock.advance(STAGE_MS);
    },
  });
}
