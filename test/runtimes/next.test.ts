// The Next.js recipe, built and started for real: `next build` without the API key in the
// environment (the route module is imported at build time), then `next start`, a chat message,
// a booking call, and a visitor who goes away.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import {
  AGENT,
  API_KEY,
  available,
  bin,
  builtServerPresent,
  chatInit,
  disconnectCancelsUpstream,
  fakeService,
  fixture,
  ORIGIN,
  ROOT,
  watchProcess,
} from './support';

/** Built outside test/ so neither the test runner nor the typecheck wanders into the app or its link. */
const APP = `${ROOT}.tmp/next-app/`;
const present = available('next', existsSync(bin('next')), 'Install the dev dependencies: npm ci') && builtServerPresent();

/** A fresh copy of the fixture app, importing 'agent-widget/server' as an installed package would. */
function prepareApp(): void {
  rmSync(APP, { recursive: true, force: true });
  cpSync(fixture('./next/'), APP, { recursive: true });
  mkdirSync(`${APP}node_modules`, { recursive: true });
  symlinkSync(ROOT, `${APP}node_modules/agent-widget`, 'dir');
}

/** Runs `next <args>` to its end: exit code and output. */
function next(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin('next'), args, { cwd: APP, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address !== null && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

describe.skipIf(!present)('Next.js recipe (app router, next build && next start)', () => {
  test(
    'builds without the key, then serves chat and booking, and a visitor who leaves cancels the upstream call',
    { timeout: 180_000 },
    async () => {
      prepareApp();
      const env = { NEXT_TELEMETRY_DISABLED: '1', AGENT_API_KEY: undefined, AGENT_BASE_URL: undefined };
      const build = await next(['build'], env);
      expect(build.code, build.output).toBe(0);
      expect(build.output).toContain('/api/agent-chat');

      const service = await fakeService();
      const port = await freePort();
      await watchProcess(
        bin('next'),
        ['start', '--hostname', '127.0.0.1', '--port', String(port)],
        { NEXT_TELEMETRY_DISABLED: '1', AGENT_API_KEY: API_KEY, AGENT_BASE_URL: service.baseUrl },
        APP,
        (output) => (/Ready in/.test(output) ? `http://127.0.0.1:${port}` : undefined),
      );
      const url = `http://127.0.0.1:${port}/api/agent-chat`;

      const res = await fetch(url, chatInit('Hello from Next.js'));
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
      expect(JSON.parse(text)).toMatchObject({ success: true, conversationId: 'conv_1' });
      expect(text).not.toContain(API_KEY);
      expect(service.calls[0]).toMatchObject({ path: '/api/chat', authorization: `Bearer ${API_KEY}` });
      expect(JSON.parse(service.calls[0]?.body ?? '')).toEqual({ agentId: AGENT, message: 'Hello from Next.js' });

      const booking = await fetch(`${url}/booking/public/config?agentId=${AGENT}`);
      expect(booking.status).toBe(200);
      expect(service.calls[1]).toMatchObject({ path: `/api/booking/public/config?agentId=${AGENT}`, authorization: undefined });

      await disconnectCancelsUpstream(url, service, 'close');
    },
  );
});
