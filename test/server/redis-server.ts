// A real redis-server for the tests: on a free loopback port, no persistence, stopped afterwards.
// Missing binary: a loud skip on a developer's machine, a failure under CI=true.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/** The redis-server binary: $REDIS_SERVER, else the first on PATH, else Debian's. */
export function findRedisServer(): string | undefined {
  const candidates = [
    process.env.REDIS_SERVER,
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'redis-server')),
    '/usr/bin/redis-server',
  ];
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === '') continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

export const REDIS_MISSING =
  'redis-server was not found (PATH, /usr/bin, $REDIS_SERVER): the tests against a real Redis are SKIPPED. ' +
  'Install it (Debian: apt-get install -y redis-server). Under CI=true this is a failure.';

/** Whether the Redis tests run; prints the loud notice when they cannot. */
export function redisServerOrNotice(): string | undefined {
  const binary = findRedisServer();
  if (binary === undefined) console.warn(`\n${'!'.repeat(100)}\n!!! ${REDIS_MISSING}\n${'!'.repeat(100)}\n`);
  return binary;
}

export const isCi = process.env.CI === 'true' || process.env.CI === '1';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** SIGSTOP: the socket stays open, nothing answers (a hung Redis). */
  pause(): void;
  resume(): void;
  /** SIGKILL, and resolves once the process is gone. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function startOnce(binary: string): Promise<RedisServer | undefined> {
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = await new Promise<boolean>((resolve) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve(true);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => resolve(false));
    child.once('error', () => resolve(false));
  });
  if (!ready) return undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}

/** Starts redis-server; a port taken between choosing and binding is retried on another. */
export async function startRedisServer(binary: string): Promise<RedisServer> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const server = await startOnce(binary);
    if (server !== undefined) return server;
  }
  throw new Error(`${binary} did not start.`);
}

export async function stopRedisServer(server: RedisServer | undefined): Promise<void> {
  if (server === undefined) return;
  server.resume();
  server.process.kill('SIGTERM');
  await exited(server.process);
}
