// `npm run bench` (after `npm run build`): size of dist/widget.js by module, the cost to a host page,
// interaction latency, a long restored conversation, and the chat proxy's overhead (test/bench/proxy.mjs).
// Everything runs on loopback; Chromium is Debian's, driven by playwright-core, CPU throttled through CDP.
// Prints a table and writes bench-results/bench.json. Timings are medians of BENCH_RUNS runs (default 5)
// with min and max; comparisons are ratios of runs made side by side in this one invocation, ours against
// other chat widgets too (test/bench/peers.mjs: same host page, one widget per run).
//   BENCH_RUNS=5  BENCH_CPU_THROTTLE=4  BENCH_LONG_MESSAGES=500  CHROMIUM_PATH=/usr/bin/chromium
//   BENCH_PEERS=deep-chat,cal.com,typebot (default: all; none to leave them out)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH, launchBrowser, stats } from './browser.mjs';
import { PEERS, peerFile } from './peers.mjs';
import {
  asyncSafety,
  hostBaseline,
  longConversation,
  peerFlow,
  restoreLong,
  sendToReply,
  tracedFlow,
  widgetFlow,
} from './scenarios.mjs';
import { startBenchServer } from './server.mjs';
import { buildBrowserFile, compressedSizes, sizeBreakdown } from './size-breakdown.mjs';
import { moduleLines } from './trace.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const positive = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const RUNS = positive('BENCH_RUNS', 5);
const THROTTLE = positive('BENCH_CPU_THROTTLE', 4);
const LONG_MESSAGES = positive('BENCH_LONG_MESSAGES', 500);
const TASK_LIMIT_MS = 50;
const peerNames = (process.env.BENCH_PEERS ?? PEERS.map((p) => p.name).join(',')).split(',').map((n) => n.trim());
const peers = peerNames[0] === 'none' ? [] : peerNames.map((n) => PEERS.find((p) => p.name === n) ?? unknownPeer(n));
function unknownPeer(name) {
  throw new Error(`BENCH_PEERS: no peer named ${name} (known: ${PEERS.map((p) => p.name).join(', ')}, or none)`);
}
const results = join(root, 'bench-results');
const watchdog = setTimeout(() => {
  console.error('bench: gave up after 30 minutes');
  process.exit(1);
}, 30 * 60_000);
watchdog.unref();
mkdirSync(results, { recursive: true });

const widgetPath = join(root, 'dist/widget.js');
if (!existsSync(widgetPath)) throw new Error('dist/widget.js is missing: run npm run build (npm run bench does)');
const widget = readFileSync(widgetPath, 'utf8');

// ---- size ----------------------------------------------------------------------------------------
console.log('size: rebuilding the widget in memory for the per-module breakdown…');
const breakdown = await sizeBreakdown({ root });
const size = {
  file: compressedSizes(widget),
  sameAsBuild: breakdown.code === widget,
  estimated: breakdown.estimated,
  estimateCoverage: breakdown.estimated / breakdown.total.raw,
  groups: breakdown.groups,
  areas: breakdown.areas,
  modules: breakdown.modules,
};

// ---- proxy (its own script, before the browser so they do not share the CPU) ---------------------
let proxy;
const proxyScript = join(root, 'test/bench/proxy.mjs');
if (existsSync(proxyScript)) {
  console.log('proxy: running test/bench/proxy.mjs…');
  const file = join(results, 'proxy.json');
  rmSync(file, { force: true });
  const child = spawnSync(process.execPath, [proxyScript], { cwd: root, stdio: 'inherit', timeout: 10 * 60_000, env: process.env });
  proxy =
    child.status === 0 && existsSync(file)
      ? JSON.parse(readFileSync(file, 'utf8'))
      : { error: `test/bench/proxy.mjs exited with ${child.status ?? child.signal}` };
} else {
  proxy = { error: 'test/bench/proxy.mjs is not there yet' };
}

// ---- browser -------------------------------------------------------------------------------------
/** Names the scenario in a failure (e.g. the widget no longer shows what the bench waits for). */
async function step(name, fn) {
  try {
    return await fn();
  } catch (error) {
    throw new Error(`bench scenario "${name}" failed: ${error instanceof Error ? error.message : error}`, { cause: error });
  }
}

if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`);
const debug = await buildBrowserFile({ root, minify: false, sourcemap: true });
const debugCode = debug.code;
// Map sources are relative to dist/; the table names modules relative to the project.
const moduleOf = moduleLines(debug.map, (source) => relative(root, resolve(root, 'dist', source)).split(sep).join('/'));
const server = await startBenchServer({ root, widget, debugWidget: debugCode });
const browser = await launchBrowser();
const seed = await longConversation(server, LONG_MESSAGES);
const runs = { baseline: [], flow: [], reply: [], long: [], peers: Object.fromEntries(peers.map((p) => [p.name, []])) };
try {
  for (let i = 0; i < RUNS; i++) {
    console.log(`browser: run ${i + 1} of ${RUNS}…`);
    // Side by side in each round, so a noisy neighbour hits both sides of a ratio alike.
    runs.baseline.push(await step('plain page', () => hostBaseline(browser, server, THROTTLE)));
    runs.flow.push(await step('load, open, calendar', () => widgetFlow(browser, server, THROTTLE)));
    runs.reply.push(await step('send and reply', () => sendToReply(browser, server, THROTTLE)));
    runs.long.push(await step('long conversation', () => restoreLong(browser, server, THROTTLE, seed)));
    for (const peer of peers) {
      runs.peers[peer.name].push(await step(`peer ${peer.name}`, () => peerFlow(browser, server, THROTTLE, peer)));
    }
  }
  console.log('browser: checks and traces…');
  runs.async = await step('async safety', () => asyncSafety(browser, server, THROTTLE));
  runs.trace = await step('trace', () => tracedFlow(browser, server, THROTTLE, {}));
  const unminified = { code: debugCode, moduleOf };
  runs.attribution = await step('trace, unminified', () => tracedFlow(browser, server, THROTTLE, { debug: unminified }));
  runs.longAttribution = await step('trace, long conversation', () =>
    tracedFlow(browser, server, THROTTLE, { debug: unminified, seed }),
  );
} finally {
  await browser.close();
  await server.close();
}

// ---- figures -------------------------------------------------------------------------------------
const pick = (list, get) => stats(list.map(get));
/** Per-run comparison of two lists of runs made side by side (index i of each in the same round). */
const compare = (withW, without, get, how) => stats(withW.map((w, i) => how(get(w), get(without[i]))));
const flow = runs.flow;
const stageFigures = (list) => ({
  taskMs: pick(list, (r) => r.taskMs),
  scriptMs: pick(list, (r) => r.scriptMs),
  layoutMs: pick(list, (r) => r.layoutMs),
  heapBytes: pick(list, (r) => r.heapBytes),
  longestTaskMs: pick(list, (r) => r.longestTaskMs),
  shadowElements: pick(list, (r) => r.counts.elements),
});
const loads = flow.map((r) => r.loaded);
const host = {
  without: { ...stageFigures(runs.baseline), loadEventMs: pick(runs.baseline, (r) => r.loadEventMs) },
  loaded: {
    ...stageFigures(loads),
    loadEventMs: pick(loads, (r) => r.loadEventMs),
    launcherMs: pick(loads, (r) => r.launcherMs),
  },
  opened: stageFigures(flow.map((r) => r.opened)),
  booking: stageFigures(flow.map((r) => r.booking)),
  added: Object.fromEntries(
    ['taskMs', 'scriptMs', 'layoutMs', 'heapBytes', 'loadEventMs'].map((k) => [k, compare(loads, runs.baseline, (r) => r[k], (a, b) => a - b)]),
  ),
  ratios: Object.fromEntries(
    // Not script time: the plain page runs almost none, so that ratio is noise.
    ['taskMs', 'heapBytes', 'loadEventMs'].map((k) => [k, compare(loads, runs.baseline, (r) => r[k], (a, b) => a / b)]),
  ),
};
const cachedSwitches = flow.flatMap((r) => r.monthSwitch.slice(1));
const interactions = {
  openToComposerMs: pick(flow, (r) => r.opened.latencyMs),
  sendToReplyMs: pick(runs.reply, (r) => r.ms),
  lengthToGridMs: pick(flow, (r) => r.booking.latencyMs),
  monthSwitchPrefetchedMs: pick(flow, (r) => r.monthSwitch[0]?.ms),
  monthSwitchCachedMs: stats(cachedSwitches.map((s) => s.ms)),
  monthSwitchCachedFetches: cachedSwitches.reduce((n, s) => n + s.fetched, 0),
};
const long = {
  messages: LONG_MESSAGES,
  loaded: stageFigures(runs.long.map((r) => r.loaded)),
  opened: stageFigures(runs.long.map((r) => r.opened)),
  openMs: pick(runs.long, (r) => r.opened.latencyMs),
};

// Side by side with other chat widgets: each figure per widget, and ours / theirs per round.
const ourFigures = {
  name: 'agent-widget',
  version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
  loaded: host.loaded,
  opened: { ...host.opened, latencyMs: interactions.openToComposerMs },
  booking: host.booking,
};
const peerResults = peers.map((peer) => {
  const list = runs.peers[peer.name];
  const opened = list.map((r) => r.opened).filter(Boolean);
  const ratio = (get) => compare(flow, list, get, (a, b) => a / b);
  return {
    name: peer.name,
    package: `${peer.package}@${peer.version}`,
    shows: peer.offline,
    loaded: { ...stageFigures(list.map((r) => r.loaded)), launcherMs: pick(list, (r) => r.loaded.launcherMs) },
    opened: opened.length > 0 ? { ...stageFigures(opened), latencyMs: pick(opened, (r) => r.latencyMs) } : undefined,
    // What the peer fetched from loopback up to the end of its open (the page itself left out).
    requested: [...new Set(list.flatMap((r) => r.requests))].filter((path) => path !== '/'),
    scripts: Object.entries(peer.files).map(([path, file]) => ({ path, file, ...compressedSizes(peerFile(path)) })),
    blocked: [...new Set(list.flatMap((r) => r.blocked))],
    errors: [...new Set(list.flatMap((r) => r.errors))],
    ours: {
      scriptMs: ratio((r) => r.loaded.scriptMs),
      taskMs: ratio((r) => r.loaded.taskMs),
      heapBytes: ratio((r) => r.loaded.heapBytes),
      launcherMs: ratio((r) => r.loaded.launcherMs),
      openMs: peer.open ? ratio((r) => r.opened?.latencyMs) : undefined,
    },
  };
});
const peerOf = (name) => peerResults.find((p) => p.name === name);

// "Keep the host page fast": each check with the evidence behind it.
const phaseOf = (traced, name) => traced.phases.find((p) => p.phase === name);
const stages = [
  ['loaded', 'load', 'load'],
  ['opened', 'first open', 'bench:open'],
  ['booking', 'opening the booking calendar', 'bench:book'],
];
const checks = [
  {
    check: 'async-safe: the launcher appears with the tag in <head>, at the end of <body>, and injected after load',
    ok: runs.async.every((r) => r.ok),
    detail: runs.async.map((r) => `${r.where}: ${r.ok ? `launcher at ${fmtMs(r.launcherMs)}` : r.errors.join('; ')}`).join(', '),
  },
  {
    check: 'no style or layout forced by the widget during load',
    ok: phaseOf(runs.trace, 'load').forced.length === 0,
    detail: describeForced(phaseOf(runs.attribution, 'load').forced),
  },
  {
    check: 'draws only the launcher until first open (no dialog, textbox or grid)',
    ok: loads.every((r) => r.counts.dialogs === 0 && r.counts.textboxes === 0 && r.counts.grids === 0),
    detail: `elements in the widget's shadow DOM after load: ${loads[0]?.counts.elements}`,
  },
  (() => {
    // With a long stored conversation: reading and parsing it before the visitor opens is the chat's work done early.
    const requests = [...new Set(loads.flatMap((r) => r.requestsBeforeOpen))];
    const history = runs.long.flatMap((r) => r.loaded.storageReads).filter((read) => read.key.endsWith(':chat') && read.chars > 0);
    const scriptAtLoad = (list) => fmtMs(pick(list, (r) => r.loaded.scriptMs)?.median);
    const longLoad = phaseOf(runs.longAttribution, 'load');
    const chatStore = longLoad.topModules.filter((m) => /chat\/store|storage/.test(m.name));
    return {
      check: "defers the panel's work to first open (no requests, stored conversation not read before open)",
      ok: requests.length === 0 && history.length === 0,
      detail:
        `requests before open: ${requests.join(', ') || 'none'}; ` +
        (history.length === 0
          ? 'stored conversation not read before open'
          : `reads ${history[0].key} (${history[0].chars} characters, ${LONG_MESSAGES} messages) at load and parses it ` +
            `(traced: ${chatStore.map(describeEntry).join(', ') || 'not sampled'}); script at load ` +
            `${scriptAtLoad(runs.long)} with it, ${scriptAtLoad(flow)} without (medians)`) +
        `; widget JS at load ${fmtMs(phaseOf(runs.attribution, 'load').widgetJsMs)}, at first open ` +
        `${fmtMs(phaseOf(runs.attribution, 'bench:open').widgetJsMs)} (traced, unminified)`,
    };
  })(),
  ...stages.map(([stage, label, traced]) => {
    const tasks = flow.flatMap((r) => r[stage].longTasks.map((t) => t.duration));
    return {
      check: `no task over ${TASK_LIMIT_MS} ms during ${label} (${THROTTLE}x CPU)`,
      ok: tasks.length === 0,
      detail:
        tasks.length === 0
          ? 'none'
          : `${tasks.length} in ${RUNS} runs, longest ${fmtMs(Math.max(...tasks))}. ` +
            `Traced (unminified): ${describeTasks(phaseOf(runs.attribution, traced))}`,
    };
  }),
  ...peerChecks(),
];
// Not a rule of the design, but where the time goes when the panel is used.
const notes = [
  ...stages.slice(1).map(([, label, traced]) => `forced style/layout during ${label}: ${describeForced(phaseOf(runs.attribution, traced).forced)}`),
  ...stages.flatMap(([, label, traced]) => {
    const phase = phaseOf(runs.attribution, traced);
    return [
      `widget JS by module during ${label}: ${describeFunctions(phase, phase.topModules)}`,
      `widget JS by function during ${label}: ${describeFunctions(phase)}`,
    ];
  }),
  `long conversation, first open: longest traced task ${describeTasks(phaseOf(runs.longAttribution, 'bench:open'))}`,
  `long conversation, forced style/layout on open: ${describeForced(phaseOf(runs.longAttribution, 'bench:open').forced)}`,
];

/** The goals against the peers (issue 17), where the peer was measured in this run. */
function peerChecks() {
  const goal = (name, key, limit, check, what) => {
    const ratio = peerOf(name)?.ours[key];
    if (!ratio) return [];
    const ours = key === 'openMs' ? ourFigures.opened.latencyMs : ourFigures.loaded[key];
    const theirs = key === 'openMs' ? peerOf(name).opened?.latencyMs : peerOf(name).loaded[key];
    return [
      {
        check,
        ok: ratio.median <= limit,
        detail: `${what}: ours ${fmtMs(ours?.median)}, ${name} ${fmtMs(theirs?.median)}; ours / theirs per round ${fmtX(ratio.median)} (${fmtX(ratio.min)}–${fmtX(ratio.max)}), goal <= ${fmtX(limit)}`,
      },
    ];
  };
  return [
    ...goal('deep-chat', 'scriptMs', 0.3, 'script time on load at most 0.3x deep-chat\'s', 'script time on load'),
    ...goal('deep-chat', 'launcherMs', 0.6, 'launcher on screen in at most 0.6x deep-chat\'s time to its chat box', 'on screen'),
    ...goal('cal.com', 'openMs', 1, "click -> composer focused no slower than Cal.com's loader opening its modal", 'click to next frame'),
  ];
}

const report = {
  date: new Date().toISOString(),
  settings: { runs: RUNS, cpuThrottle: THROTTLE, longMessages: LONG_MESSAGES, chromium: CHROMIUM_PATH },
  size,
  host,
  interactions,
  long,
  proxy,
  peers: peerResults,
  checks,
  notes,
  traces: { minified: runs.trace.phases, unminified: runs.attribution.phases, longConversation: runs.longAttribution.phases },
  errors: [...new Set([...flow, ...runs.reply, ...runs.long].flatMap((r) => r.errors))],
  raw: { baseline: runs.baseline, flow, reply: runs.reply, long: runs.long, async: runs.async, peers: runs.peers },
};
writeFileSync(join(results, 'bench.json'), JSON.stringify(report, null, 2) + '\n');
writeFileSync(join(results, 'widget.debug.js'), debugCode);
console.log('\n' + table(report));
console.log('\nwrote bench-results/bench.json (and widget.debug.js, the unminified build the function names refer to)');

// ---- formatting ----------------------------------------------------------------------------------
function fmtMs(v) {
  return v === undefined ? '–' : `${v < 1 ? v.toFixed(2) : v < 10 ? v.toFixed(1) : Math.round(v)} ms`;
}
function fmtKB(v) {
  return `${(v / 1024).toFixed(1)} KB`;
}
function fmtX(v) {
  return `${v.toFixed(2)}x`;
}
/** The longtask observer only sees tasks of 50 ms or more. */
function fmtLongest(v) {
  return v < TASK_LIMIT_MS ? `<${TASK_LIMIT_MS} ms` : fmtMs(v);
}
function describeForced(forced) {
  if (forced.length === 0) return 'none';
  const counts = new Map();
  for (const f of forced) counts.set(`${f.kind} by ${f.by}`, (counts.get(`${f.kind} by ${f.by}`) ?? 0) + 1);
  return [...counts].map(([w, n]) => `${n}x ${w}`).join('; ');
}
/** "name 12 ms", and where most of that went when one line of the unminified build took half of it. */
function describeEntry(f) {
  return `${f.name} ${fmtMs(f.ms)}${f.hotLine ? ` (mostly widget.debug.js:${f.hotLine.line} \`${f.hotLine.text}\`)` : ''}`;
}
function describeFunctions(phase, list = phase.topFunctions) {
  if (list.length === 0) return 'none sampled';
  return `${fmtMs(phase.widgetJsMs)}: ${list.map(describeEntry).join(', ')}`;
}
function describeTasks(phase) {
  if (phase.longestTasks.length === 0) return `no task of ${TASK_LIMIT_MS} ms or more`;
  return phase.longestTasks
    .map((t) => {
      const parts = t.parts.map((p) => `${p.what} ${fmtMs(p.ms)}`).join(', ');
      const js = t.top.map(describeEntry).join(', ');
      return `${fmtMs(t.ms)} at ${fmtMs(t.atMs)} [${parts}; compiling ${fmtMs(t.compileMs)}]${js ? ` widget JS: ${js}` : ''}`;
    })
    .join('; ');
}

function table(r) {
  const lines = [];
  const row = (label, ...cells) => lines.push(`${label.padEnd(56)}${cells.map((c) => ` ${String(c).padStart(11)}`).join('')}`);
  const statRow = (label, s, unit = fmtMs) => (s ? row(label, unit(s.median), unit(s.min), unit(s.max)) : row(label, '–'));
  const head = (title, ...cols) => {
    lines.push('');
    row(title, ...cols);
  };
  const stage = (label, s) => {
    statRow(`${label}: main-thread task time`, s.taskMs);
    statRow(`${label}: script time`, s.scriptMs);
    statRow(`${label}: style + layout time`, s.layoutMs);
    statRow(`${label}: longest task`, s.longestTaskMs, fmtLongest);
    statRow(`${label}: JS heap (after GC)`, s.heapBytes, fmtKB);
  };

  lines.push(
    `agent-widget bench: medians of ${r.settings.runs} runs (min, max), Chromium with the CPU ${r.settings.cpuThrottle}x throttled, loopback`,
  );
  head('Size of dist/widget.js', 'raw', 'gzip -9', 'brotli');
  row('  whole file', fmtKB(r.size.file.raw), fmtKB(r.size.file.gzip), fmtKB(r.size.file.brotli));
  if (!r.size.sameAsBuild) lines.push('  (!) dist/widget.js differs from a fresh build of the sources: run npm run build');
  head(`  by group (estimates cover ${(r.size.estimateCoverage * 100).toFixed(1)}%)`, 'minified', 'share', 'gzip if cut');
  for (const g of r.size.groups) row(`    ${g.name}`, fmtKB(g.minified), `${(g.share * 100).toFixed(1)}%`, fmtKB(g.gzipSaved));
  head('  largest modules', 'minified', 'share', 'rendered');
  for (const m of r.size.modules.slice(0, 12)) {
    row(`    ${m.id.replace(/^node_modules\//, '')}`, fmtKB(m.minified), `${((m.minified / r.size.estimated) * 100).toFixed(1)}%`, fmtKB(m.rendered));
  }
  head('  budgeted areas', 'minified', 'share', 'limit');
  for (const a of r.size.areas) row(`    ${a.name}`, fmtKB(a.minified), `${(a.share * 100).toFixed(1)}%`, `${Math.round(a.limit * 100)}%`);

  head('Host page (plain page)', 'median', 'min', 'max');
  stage('without widget', r.host.without);
  statRow('without widget: load event', r.host.without.loadEventMs);
  stage('with widget, after load', r.host.loaded);
  statRow('with widget, after load: load event', r.host.loaded.loadEventMs);
  statRow('with widget, after load: launcher on screen', r.host.loaded.launcherMs);
  statRow('added by the widget: task time', r.host.added.taskMs);
  statRow('added by the widget: script time', r.host.added.scriptMs);
  statRow('added by the widget: style + layout time', r.host.added.layoutMs);
  statRow('added by the widget: JS heap', r.host.added.heapBytes, fmtKB);
  statRow('added by the widget: load event delay', r.host.added.loadEventMs);
  statRow('with / without: task time', r.host.ratios.taskMs, fmtX);
  statRow('with / without: JS heap', r.host.ratios.heapBytes, fmtX);
  statRow('with / without: load event', r.host.ratios.loadEventMs, fmtX);
  stage('after first open (chat)', r.host.opened);
  stage('after opening the calendar', r.host.booking);

  head('Interaction latency (input to next frame)', 'median', 'min', 'max');
  statRow('open launcher -> composer focused', r.interactions.openToComposerMs);
  statRow('send -> reply on screen (zero-latency sandbox)', r.interactions.sendToReplyMs);
  statRow('pick a length -> month grid (dates fetched)', r.interactions.lengthToGridMs);
  statRow('month switch to the prefetched month', r.interactions.monthSwitchPrefetchedMs);
  statRow(`month switch, cached (${r.interactions.monthSwitchCachedFetches} fetches)`, r.interactions.monthSwitchCachedMs);

  head(`Long conversation (${r.long.messages} stored messages)`, 'median', 'min', 'max');
  stage('page load', r.long.loaded);
  statRow('open -> last message on screen', r.long.openMs);
  stage('after open', r.long.opened);
  statRow('after open: elements in the shadow DOM', r.long.opened.shadowElements, (v) => String(Math.round(v)));

  if (r.peers.length > 0) peerTable(r, row, head, lines);

  head('Chat proxy (test/bench/proxy.mjs)', 'median', 'min', 'max');
  for (const [label, value] of proxyRows(r.proxy)) {
    if (typeof value === 'object') statRow(label, value, (v) => fmtNumber(v, label));
    else row(label, typeof value === 'number' ? fmtNumber(value, label) : value);
  }

  lines.push('', 'Keep the host page fast');
  for (const c of r.checks) lines.push(`  [${c.ok ? 'ok' : 'FAIL'}] ${c.check}`, `         ${c.detail}`);
  lines.push('', 'Where the time goes (traced once; names from the unminified build)');
  for (const n of r.notes) lines.push(`  - ${n}`);
  return lines.join('\n');
}

/** One column per widget (medians), then ours / theirs per round, and what each peer loaded and tried. */
function peerTable(r, row, head, lines) {
  const all = [ourFigures, ...r.peers];
  head('Side by side (same host page, medians)', ...all.map((w) => w.name));
  row('  script (gzip -9)', fmtKB(r.size.file.gzip), ...r.peers.map((p) => fmtKB(p.scripts.reduce((n, f) => n + f.gzip, 0))));
  const each = (label, get, unit = fmtMs) => row(`  ${label}`, ...all.map((w) => (get(w) === undefined ? '–' : unit(get(w)))));
  each('load: script time', (w) => w.loaded.scriptMs?.median);
  each('load: main-thread task time', (w) => w.loaded.taskMs?.median);
  each('load: longest task', (w) => w.loaded.longestTaskMs?.median, fmtLongest);
  each('load: longest task, worst run', (w) => w.loaded.longestTaskMs?.max, fmtLongest);
  each('load: JS heap (after GC)', (w) => w.loaded.heapBytes?.median, fmtKB);
  each('first part on screen (launcher, chat box)', (w) => w.loaded.launcherMs?.median);
  each('open: click -> next frame showing it', (w) => w.opened?.latencyMs?.median);
  each('open: longest task', (w) => w.opened?.longestTaskMs?.median, fmtLongest);
  each('open: longest task, worst run', (w) => w.opened?.longestTaskMs?.max, fmtLongest);
  each('calendar: longest task', (w) => w.booking?.longestTaskMs?.median, fmtLongest);
  head('  ours / theirs (per round)', 'median', 'min', 'max');
  const ratioRow = (label, s) => (s ? row(label, fmtX(s.median), fmtX(s.min), fmtX(s.max)) : undefined);
  for (const p of r.peers) {
    ratioRow(`    ${p.name}: script time on load`, p.ours.scriptMs);
    ratioRow(`    ${p.name}: main-thread task time on load`, p.ours.taskMs);
    ratioRow(`    ${p.name}: JS heap after load`, p.ours.heapBytes);
    ratioRow(`    ${p.name}: on screen`, p.ours.launcherMs);
    ratioRow(`    ${p.name}: open (ours: click -> composer focused)`, p.ours.openMs);
  }
  lines.push('');
  for (const p of r.peers) {
    lines.push(`  ${p.package}: ${p.shows}`);
    lines.push(`    loads: ${p.scripts.map((f) => `${f.file} (${fmtKB(f.raw)}, ${fmtKB(f.gzip)} gzip)`).join(', ')}`);
    lines.push(`    requested on loopback: ${p.requested.join(', ')}`);
    lines.push(`    blocked (not loopback): ${p.blocked.join(', ') || 'nothing'}`);
    if (p.errors.length > 0) lines.push(`    page errors: ${p.errors.join('; ')}`);
  }
}

function fmtNumber(v, label) {
  if (/bytes/i.test(label)) return fmtKB(v);
  if (/share|ratio/i.test(label)) return fmtX(v);
  if (/ms\b|Ms$|latency|time/i.test(label)) return fmtMs(v);
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

/** The proxy's figures whatever their nesting: objects with a median become rows, numbers and text values. */
function proxyRows(value, path = '') {
  if (typeof value === 'number' || typeof value === 'string') return [[`  ${path || 'note'}`, value]];
  if (value === null || typeof value !== 'object') return [];
  if (typeof value.median === 'number') return [[`  ${path}`, value]];
  return Object.entries(value).flatMap(([k, v]) => {
    const name = typeof v?.name === 'string' ? v.name : typeof v?.label === 'string' ? v.label : k;
    return proxyRows(v, path && !Array.isArray(value) ? `${path}.${name}` : name);
  });
}
