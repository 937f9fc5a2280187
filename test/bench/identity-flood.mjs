// The memory store under a flood of new identities: the proxy's in-process throughput (no HTTP;
// stub upstream) for one steady visitor, then with the store full (maxKeys, 100 000 by default) and a
// new client address on every request. Before O(1) eviction each new key scanned every key.
// Run after `npm run build`: node test/bench/identity-flood.mjs [path/to/server.js]
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serverJs = process.argv[2] ?? join(root, 'dist/server.js');
const { createChatProxy, createMemoryStore } = await import(pathToFileURL(serverJs).href);

const REPLY = JSON.stringify({ success: true, reply: 'ok', credits: { used: 1, remaining: 9 } });
const ORIGIN = 'http://shop.test';
const store = createMemoryStore();
const generous = { limit: 1e9, windowMs: 600_000 };
const handler = createChatProxy({
  apiKey: 'sk_live_bench_0000000000000000000000',
  baseUrl: 'http://upstream.test',
  agentId: 'agent',
  allowedOrigins: [ORIGIN],
  fetch: async () => new Response(REPLY, { status: 200, headers: { 'Content-Type': 'application/json' } }),
  store,
  rateLimit: { perIp: generous, perIpDaily: { limit: 1e9 }, perConversation: generous, dailyCap: { limit: 1e9 } },
});
const request = () =>
  new Request(`${ORIGIN}/api/chat`, {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
    body: '{"agentId":"agent","message":"hi"}',
  });

let n = 0;
const nextAddress = () => {
  n += 1;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

async function perSecond(count, address) {
  const start = performance.now();
  for (let i = 0; i < count; i++) await (await handler(request(), { ip: address() })).arrayBuffer();
  return Math.round(count / ((performance.now() - start) / 1000));
}

await perSecond(2000, () => '198.51.100.1');
const steady = await perSecond(5000, () => '198.51.100.1');
for (let i = 0; i < 100_000; i++) await store.hit(`fill-${i}`, 600_000, Date.now());
const flood = await perSecond(5000, nextAddress);
console.log(
  JSON.stringify({
    steadyRequestsPerSecond: steady,
    floodRequestsPerSecond: flood,
    floodShare: +(flood / steady).toFixed(2),
    keys: store.size,
  }),
);
