// Shared by the runtime tests: the built server module they import, a loopback stand-in for the
// service, spawning a runtime and reading the address it listens on, and the LOUD skip (a failure
// under CI=true) when a runtime is missing.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { listen } from '../server/loopback';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const fixture = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
export const bin = (name: string): string => `${ROOT}node_modules/.bin/${name}`;

export const API_KEY = 'sk_live_RUNTIME_5e1d7c3b9a2f4e6d8c0b1a3f5e7d9c1b';
export const AGENT = 'demo-agent';
export const ORIGIN = 'https://www.example.com';
export const SERVER_MODULE = `${ROOT}dist/server.js`;

const CI = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Whether `what` is here. When it is not, says so loudly and the suite skips it, except under
 * CI=true, where a runtime test that cannot run is a failure.
 */
export function available(what: string, present: boolean, howToGet: string): boolean {
  if (present) return true;
  const banner = ['', '!'.repeat(78), `!! ${what} is missing: its runtime test DID NOT RUN.`, `!! ${howToGet}`, '!'.repeat(78), ''].join(
    '\n',
  );
  if (CI) throw new Error(banner);
  console.warn(banner);
  return false;
}

/** The runtime tests run the shipped module, which `npm test` builds first. */
export function builtServerPresent(): boolean {
  return available('dist/server.js', existsSync(SERVER_MODULE), 'Build it first: npm run build');
}

export interface ServiceCall {
  path: string;
  authorization: string | undefined;
  body: string;
}

/**
 * The service on loopback. /chat answers with the message echoed, except "hold", which is never
 * answered: `closed` then resolves when the caller drops the connection (its call was cancelled).
 */
export async function fakeService() {
  const calls: ServiceCall[] = [];
  let heldClosed: () => void = () => undefined;
  let heldArrived: () => void = () => undefined;
  const held = {
    arrived: new Promise<void>((resolve) => (heldArrived = resolve)),
    closed: new Promise<void>((resolve) => (heldClosed = resolve)),
  };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      if (body.includes('"hold"')) {
        res.on('close', () => heldClosed());
        heldArrived();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.url?.includes('/booking/public/config'))
        res.end(JSON.stringify({ success: true, config: { booking_title: 'Consultation' } }));
      else res.end(JSON.stringify({ success: true, reply: `echo: ${body}`, conversationId: 'conv_1', credits: { used: 1, remaining: 9 } }));
    });
  });
  const origin = await listen(server);
  return { baseUrl: `${origin}/api`, calls, held };
}

export interface Started {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/** Spawns a server process and resolves with the URL it prints ("listening on <url>"); killed after the test. */
export function startProcess(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Promise<Started> {
  return watchProcess(command, args, env, cwd, (output) => /listening on (http:\/\/[^\s/]+)/i.exec(output)?.[1]);
}

/** Spawns a process and resolves once `ready(output so far)` names its URL; killed after the test. */
export function watchProcess(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
  ready: (output: string) => string | undefined,
): Promise<Started> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = ready(output);
      if (url !== undefined) resolve({ url, child, output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code} before listening:\n${output}`)));
    child.on('error', reject);
  });
}

/** A browser-like chat POST from ORIGIN. */
export function chatInit(message: string, signal?: AbortSignal): RequestInit {
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
    body: JSON.stringify({ agentId: AGENT, message }),
    signal,
  };
}

/**
 * A visitor on a raw socket sends "hold", then goes away once the service has the call: `close` ends
 * the connection gracefully (FIN), `reset` aborts it (RST). Resolves when the service saw its call
 * cancelled; never resolves (the test times out) when the runtime lets the call run on.
 */
export async function disconnectCancelsUpstream(
  url: string,
  service: Awaited<ReturnType<typeof fakeService>>,
  how: 'close' | 'reset',
): Promise<void> {
  const target = new URL(url);
  const body = JSON.stringify({ agentId: AGENT, message: 'hold' });
  const socket = connect(Number(target.port), target.hostname);
  socket.on('error', () => undefined);
  socket.write(
    `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nOrigin: ${ORIGIN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  await service.held.arrived;
  if (how === 'reset') socket.resetAndDestroy();
  else socket.destroy();
  await service.held.closed;
}
