// The chat proxy's cost on loopback: latency (p50/p99, sequential) and throughput (fixed
// concurrency, fixed request count) of POST /chat sent straight to a stub upstream, through a bare
// forwarder (node:http + fetch: the same two HTTP exchanges, no checks), and through the proxy
// (dist/server.js behind dist/server-node.js's toNodeListener). The forwarder is the fair baseline: what any proxy in Node
// pays before doing anything. Upstream, forwarder and proxy run in their own worker threads so
// their CPU is not shared with the load generator's.
// Run after `npm run build`: node test/bench/proxy.mjs. Prints a table, writes bench-results/proxy.json.
//   BENCH_PROXY_ROUNDS=3 BENCH_PROXY_SEQUENTIAL=2000 BENCH_PROXY_REQUESTS=6000 BENCH_PROXY_CONCURRENCY=32
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ORIGIN = 'http://bench.localhost';
const AGENT_ID = 'bench-agent';
const REPLY = JSON.stringify({
  success: true,
  reply: 'We are open Monday to Friday, 8:00 to 18:00.',
  conversationId: 'conv_bench',
  sources: [{ title: 'Opening hours', url: 'https://clinic.example/hours' }],
  credits: { used: 1, remaining: 999 },
});
const BODY = JSON.stringify({ agentId: AGENT_ID, message: 'When are you open?', conversationId: 'conv_bench' });

// ---- workers: the stub upstream and the proxy ----------------------------------------------------

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

async function startUpstream() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(REPLY) });
      res.end(REPLY);
    });
  });
  server.keepAliveTimeout = 60_000;
  return listen(server);
}

async function startProxy(upstreamPort) {
  const { createChatProxy } = await import(join(root, 'dist/server.js'));
  const { toNodeListener } = await import(join(root, 'dist/server-node.js'));
  const generous = { limit: 1_000_000_000, windowMs: 60_000 };
  const handler = createChatProxy({
    apiKey: 'sk_live_bench_0000000000000000000000',
    baseUrl: `http://127.0.0.1:${upstreamPort}`,
    agentId: AGENT_ID,
    allowedOrigins: [ORIGIN],
    rateLimit: { perIp: generous, perIpDaily: { limit: 1_000_000_000 }, perConversation: generous, dailyCap: { limit: 1_000_000_000 } },
  });
  const server = createServer(toNodeListener(handler));
  server.keepAliveTimeout = 60_000;
  return listen(server);
}

/** The least a Node proxy can do: read the body, fetch the upstream with it, pass the answer on. */
async function startForwarder(upstreamPort) {
  const target = `http://127.0.0.1:${upstreamPort}/chat`;
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const upstream = await fetch(target, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_live_bench', 'Content-Type': 'application/json', Accept: 'application/json' },
      body: Buffer.concat(chunks),
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'Content-Type': 'application/json', 'Content-Length': body.byteLength });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  return listen(server);
}

// ---- main thread: the load generator ------------------------------------------------------------

function positive(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
}

function startWorker(data) {
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: data });
  return new Promise((resolve, reject) => {
    worker.once('message', (port) => resolve({ worker, port, busyMs: () => busyMs(worker) }));
    worker.once('error', reject);
  });
}

/** The worker's event-loop busy time so far, in ms: its CPU cost, which a loaded machine skews less than req/s. */
function busyMs(worker) {
  return new Promise((resolve) => {
    worker.once('message', resolve);
    worker.postMessage('busy');
  });
}

/** Throughput, and the server's busy time per request (µs) during it. */
async function measuredThroughput(target, server, total, concurrency) {
  const before = await server.busyMs();
  const rps = await throughput(target, total, concurrency);
  return { rps, busyUs: (((await server.busyMs()) - before) * 1000) / total };
}

/** One POST /chat over a keep-alive agent; resolves with the status once the body is read. */
function post(agent, port, path) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(BODY), Origin: ORIGIN },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path} answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(BODY);
  });
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function sequential(target, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await post(target.agent, target.port, target.path);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

async function throughput(target, total, concurrency) {
  let next = 0;
  const start = performance.now();
  const lane = async () => {
    while (next < total) {
      next += 1;
      await post(target.agent, target.port, target.path);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return total / ((performance.now() - start) / 1000);
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), min: sorted[0], max: sorted[sorted.length - 1] };
}

async function main() {
  if (!existsSync(join(root, 'dist/server.js'))) {
    console.error('dist/server.js is missing: run `npm run build` first.');
    process.exit(1);
  }
  const rounds = positive('BENCH_PROXY_ROUNDS', 3);
  const sequentialCount = positive('BENCH_PROXY_SEQUENTIAL', 2000);
  const total = positive('BENCH_PROXY_REQUESTS', 6000);
  const concurrency = positive('BENCH_PROXY_CONCURRENCY', 32);
  const warmup = Math.min(500, sequentialCount);
  // Bounded in time as well as in count: a hung run fails loudly instead of hanging CI.
  const guard = setTimeout(() => {
    console.error('proxy bench: did not finish within 5 minutes');
    process.exit(1);
  }, 5 * 60_000);
  guard.unref();

  const upstream = await startWorker({ role: 'upstream' });
  const forwarder = await startWorker({ role: 'forwarder', upstreamPort: upstream.port });
  const proxy = await startWorker({ role: 'proxy', upstreamPort: upstream.port });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const direct = { agent, port: upstream.port, path: '/chat' };
  const viaForwarder = { agent, port: forwarder.port, path: '/chat' };
  const viaProxy = { agent, port: proxy.port, path: '/api/agent-chat' };

  for (const target of [direct, viaForwarder, viaProxy]) {
    await sequential(target, warmup);
    await throughput(target, warmup * 2, concurrency);
  }

  const names = ['directP50', 'forwarderP50', 'proxyP50', 'directP99', 'forwarderP99', 'proxyP99', 'overheadP50', 'overheadP99VsForwarder'];
  const more = ['directRps', 'forwarderRps', 'proxyRps', 'ratio', 'ratioVsForwarder', 'forwarderBusyUs', 'proxyBusyUs', 'busyRatio'];
  const rows = Object.fromEntries([...names, ...more].map((n) => [n, []]));
  // Side by side in each round, so drift in machine load hits all three alike.
  for (let round = 0; round < rounds; round++) {
    const d = await sequential(direct, sequentialCount);
    const f = await sequential(viaForwarder, sequentialCount);
    const p = await sequential(viaProxy, sequentialCount);
    const dRps = await throughput(direct, total, concurrency);
    const f2 = await measuredThroughput(viaForwarder, forwarder, total, concurrency);
    const p2 = await measuredThroughput(viaProxy, proxy, total, concurrency);
    const fRps = f2.rps;
    const pRps = p2.rps;
    rows.forwarderBusyUs.push(f2.busyUs);
    rows.proxyBusyUs.push(p2.busyUs);
    rows.busyRatio.push(f2.busyUs / p2.busyUs);
    rows.directP50.push(d.p50);
    rows.forwarderP50.push(f.p50);
    rows.proxyP50.push(p.p50);
    rows.directP99.push(d.p99);
    rows.forwarderP99.push(f.p99);
    rows.proxyP99.push(p.p99);
    rows.overheadP50.push(p.p50 - d.p50);
    rows.overheadP99VsForwarder.push(p.p99 - f.p99);
    rows.directRps.push(dRps);
    rows.forwarderRps.push(fRps);
    rows.proxyRps.push(pRps);
    rows.ratio.push(pRps / dRps);
    rows.ratioVsForwarder.push(pRps / fRps);
  }

  const result = {
    config: { rounds, sequentialRequests: sequentialCount, throughputRequests: total, concurrency, node: process.version },
    latency: {
      directP50Ms: summary(rows.directP50),
      forwarderP50Ms: summary(rows.forwarderP50),
      proxyP50Ms: summary(rows.proxyP50),
      directP99Ms: summary(rows.directP99),
      forwarderP99Ms: summary(rows.forwarderP99),
      proxyP99Ms: summary(rows.proxyP99),
      overheadP50Ms: summary(rows.overheadP50),
      p99AddedOverForwarderMs: summary(rows.overheadP99VsForwarder),
    },
    throughput: {
      directRequestsPerSecond: summary(rows.directRps),
      forwarderRequestsPerSecond: summary(rows.forwarderRps),
      proxyRequestsPerSecond: summary(rows.proxyRps),
      proxyShareOfDirect: summary(rows.ratio),
      proxyShareOfForwarder: summary(rows.ratioVsForwarder),
    },
    cpu: {
      forwarderBusyMicrosecondsPerRequest: summary(rows.forwarderBusyUs),
      proxyBusyMicrosecondsPerRequest: summary(rows.proxyBusyUs),
      forwarderShareOfProxyCost: summary(rows.busyRatio),
    },
  };
  result.targets = {
    'p50 overhead < 1 ms': result.latency.overheadP50Ms.median < 1 ? 'met' : 'missed',
    'throughput >= 80% of the bare forwarder': result.throughput.proxyShareOfForwarder.median >= 0.8 ? 'met' : 'missed',
    'p99 added over the bare forwarder < 2 ms': result.latency.p99AddedOverForwarderMs.median < 2 ? 'met' : 'missed',
  };

  const ms = (v) => `${v.toFixed(3)} ms`;
  const rps = (v) => `${Math.round(v)} req/s`;
  const pct = (v) => `${(v * 100).toFixed(1)} %`;
  const line = (label, s, f) =>
    console.log(`  ${label.padEnd(34)}${f(s.median).padStart(14)}${f(s.min).padStart(14)}${f(s.max).padStart(14)}`);
  console.log(`\nChat proxy on loopback (${rounds} rounds; ${sequentialCount} sequential, ${total} at concurrency ${concurrency})`);
  console.log(`  ${''.padEnd(34)}${'median'.padStart(14)}${'min'.padStart(14)}${'max'.padStart(14)}`);
  line('p50 direct', result.latency.directP50Ms, ms);
  line('p50 through bare forwarder', result.latency.forwarderP50Ms, ms);
  line('p50 through proxy', result.latency.proxyP50Ms, ms);
  line('p50 overhead (proxy - direct)', result.latency.overheadP50Ms, ms);
  line('p99 direct', result.latency.directP99Ms, ms);
  line('p99 through bare forwarder', result.latency.forwarderP99Ms, ms);
  line('p99 through proxy', result.latency.proxyP99Ms, ms);
  line('p99 added (proxy - forwarder)', result.latency.p99AddedOverForwarderMs, ms);
  line('throughput direct', result.throughput.directRequestsPerSecond, rps);
  line('throughput bare forwarder', result.throughput.forwarderRequestsPerSecond, rps);
  line('throughput through proxy', result.throughput.proxyRequestsPerSecond, rps);
  line('throughput proxy / direct', result.throughput.proxyShareOfDirect, pct);
  line('throughput proxy / forwarder', result.throughput.proxyShareOfForwarder, pct);
  const us = (v) => `${Math.round(v)} µs`;
  line('server busy per request: forwarder', result.cpu.forwarderBusyMicrosecondsPerRequest, us);
  line('server busy per request: proxy', result.cpu.proxyBusyMicrosecondsPerRequest, us);
  line('forwarder cost / proxy cost', result.cpu.forwarderShareOfProxyCost, pct);
  for (const [target, verdict] of Object.entries(result.targets)) console.log(`  [${verdict}] ${target}`);

  const out = join(root, 'bench-results/proxy.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(`\nwrote ${out}`);

  agent.destroy();
  await Promise.all([upstream.worker.terminate(), forwarder.worker.terminate(), proxy.worker.terminate()]);
  clearTimeout(guard);
}

// Last, so every declaration above is initialised before either side runs.
if (isMainThread) await main();
else {
  const start = { upstream: startUpstream, forwarder: startForwarder, proxy: startProxy }[workerData.role];
  parentPort.postMessage(await start(workerData.upstreamPort));
  parentPort.on('message', () => parentPort.postMessage(performance.eventLoopUtilization().active));
}
