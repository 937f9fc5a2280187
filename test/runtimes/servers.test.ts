// The README's Deno, Bun, node:http and Express recipes, each run as its own process on its own runtime
// against a loopback stand-in for the service: a message goes through with the key, a booking call
// without it, and a visitor who goes away cancels the upstream call.
import { existsSync } from 'node:fs';
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
  startProcess,
} from './support';

interface Runtime {
  name: string;
  present: () => boolean;
  start: (env: Record<string, string>) => ReturnType<typeof startProcess>;
}

const has = (name: string) => available(name, existsSync(bin(name)), 'Install the dev dependencies: npm ci');

const RUNTIMES: Runtime[] = [
  {
    name: 'Deno',
    present: () => has('deno'),
    start: (env) =>
      startProcess(
        bin('deno'),
        [
          'run',
          '--allow-net',
          '--allow-env',
          '--allow-read',
          '--no-lock',
          '--no-config',
          '--import-map',
          fixture('./deno/import-map.json'),
          fixture('./deno/server.mjs'),
        ],
        { ...env, NO_COLOR: '1' },
      ),
  },
  {
    name: 'Bun',
    present: () => has('bun'),
    start: (env) => startProcess(bin('bun'), [fixture('./bun/server.mjs')], env),
  },
  {
    name: 'Node (node:http)',
    present: () => true,
    start: (env) => startProcess(process.execPath, [fixture('./node/server.mjs')], env),
  },
  {
    name: 'Express',
    present: () => available('express', existsSync(fixture('../../node_modules/express/package.json')), 'npm ci'),
    start: (env) => startProcess(process.execPath, [fixture('./express/server.mjs')], env),
  },
];

for (const runtime of RUNTIMES) {
  const present = runtime.present() && builtServerPresent();
  describe.skipIf(!present)(`${runtime.name} recipe`, () => {
    const start = async () => {
      const service = await fakeService();
      const server = await runtime.start({ PORT: '0', AGENT_API_KEY: API_KEY, AGENT_BASE_URL: service.baseUrl });
      return { service, url: `${server.url}/api/agent-chat`, output: server.output };
    };

    test('a chat message goes through with the key; a booking call goes through without it', async () => {
      const { service, url, output } = await start();
      const res = await fetch(url, chatInit(`Hello from ${runtime.name}`));
      const text = await res.text();
      expect(res.status, output()).toBe(200);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
      expect(JSON.parse(text)).toMatchObject({ success: true, conversationId: 'conv_1' });
      expect(text).not.toContain(API_KEY);
      expect(service.calls[0]).toMatchObject({ path: '/api/chat', authorization: `Bearer ${API_KEY}` });
      expect(JSON.parse(service.calls[0]?.body ?? '')).toEqual({ agentId: AGENT, message: `Hello from ${runtime.name}` });

      const booking = await fetch(`${url}/booking/public/config?agentId=${AGENT}`);
      expect(booking.status).toBe(200);
      expect(service.calls[1]).toMatchObject({ path: `/api/booking/public/config?agentId=${AGENT}`, authorization: undefined });
      expect(output()).not.toContain(API_KEY);
    });

    test('a visitor who closes the connection cancels the upstream call', async () => {
      const { service, url } = await start();
      await disconnectCancelsUpstream(url, service, 'close');
    });
  });
}
