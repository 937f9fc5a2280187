// Chromium for the bench: Debian's /usr/bin/chromium driven by playwright-core (started as
// test/e2e/support/chromium.mjs does), one fresh context per run, the CPU throttled through CDP, and a small
// in-page probe installed before any page script runs.
import { CHROMIUM_PATH, launchBrowser } from '../e2e/support/chromium.mjs';

export { CHROMIUM_PATH, launchBrowser };

// A visitor outside the demo agent's zone (America/New_York), so times are shown in both zones.
const VISITOR_ZONE = 'Europe/London';

/**
 * Runs in the page before its own scripts. Records long tasks, storage reads, the shadow roots the widget
 * creates, when its launcher is first on screen, and the time of the latest trusted click or key press; `arm`
 * measures from that input to the first frame in which a condition holds.
 */
function probe({ launcher }) {
  const bench = { longTasks: [], roots: [], storageReads: [], launcherAt: undefined, inputAt: undefined };
  // Shadow roots by host, closed ones too, for selectors that cross them ('host >>> inner').
  const shadowOf = new WeakMap();
  window.__bench = bench;
  const getItem = Storage.prototype.getItem;
  Storage.prototype.getItem = function (key) {
    const value = getItem.call(this, key);
    bench.storageReads.push({ key, chars: value?.length ?? 0 });
    return value;
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });

  // Observing costs the page a little, so only while something waits on a condition.
  const watchers = new Set();
  const changed = () => {
    for (const check of watchers) check();
  };
  const observer = new MutationObserver(changed);
  const observe = (root) => observer.observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    bench.roots.push(root);
    shadowOf.set(this, root);
    if (watchers.size > 0) observe(root);
    changed();
    return root;
  };
  document.addEventListener('focusin', changed, true);
  for (const type of ['click', 'keydown']) {
    addEventListener(type, (e) => e.isTrusted && (bench.inputAt = e.timeStamp), true);
  }

  /**
   * Resolves with performance.now() at the start of the first frame after `ready()` holds and
   * `onScreen()` (checked inside that frame, where style and layout are computed anyway) is true.
   */
  const when = (ready, onScreen = () => true) =>
    new Promise((resolve) => {
      let frames = 0;
      const frame = () =>
        requestAnimationFrame(() => (onScreen() ? resolve(performance.now()) : ++frames < 600 && frame()));
      const check = () => {
        if (!ready()) return;
        watchers.delete(check);
        if (watchers.size === 0) observer.disconnect();
        frame();
      };
      if (watchers.size === 0) [document, ...bench.roots].forEach(observe);
      watchers.add(check);
      check();
    });

  /** Matches in the page and every shadow root; 'a >>> b' is b inside the shadow root of an a. */
  const deep = (selector) => {
    const [first, ...inner] = selector.split(' >>> ');
    let found = [document, ...bench.roots].flatMap((root) => [...root.querySelectorAll(first)]);
    for (const part of inner) found = found.flatMap((el) => [...(shadowOf.get(el)?.querySelectorAll(part) ?? [])]);
    return found;
  };
  const visible = (selector) => deep(selector).some((el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
  const launchers = () => deep(launcher);
  when(
    () => launchers().length > 0,
    () => visible(launcher),
  ).then((t) => (bench.launcherAt = t));

  const activeTextbox = () => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.matches('textarea, input[type=text], input:not([type]), [contenteditable=""], [contenteditable=true], [role=textbox]') ?? false;
  };
  const text = () => bench.roots.map((root) => root.textContent).join('\n');
  // The month grid as a visitor perceives it: its name and every day's label; '' while loading.
  const labelOf = (el) => el.getAttribute('aria-label') ?? el.querySelector('[aria-label]')?.getAttribute('aria-label') ?? el.textContent;
  const grid = () => {
    const g = deep('[role=grid]')[0];
    if (!g || g.getAttribute('aria-busy') === 'true') return '';
    const labelledBy = g.getAttribute('aria-labelledby');
    const name = labelledBy ? (g.getRootNode().getElementById(labelledBy)?.textContent ?? '') : (g.getAttribute('aria-label') ?? '');
    return `${name}|${[...g.querySelectorAll('[role=gridcell]')].map(labelOf).join(',')}`;
  };
  const conditions = {
    focusedTextbox: () => activeTextbox(),
    visible: (selector) => deep(selector).length > 0,
    text: (marker) => text().includes(marker),
    gridChanged: (before) => {
      const now = grid();
      return now !== '' && now !== before;
    },
  };

  bench.grid = grid;
  const inRoots = (selector) => bench.roots.reduce((n, root) => n + root.querySelectorAll(selector).length, 0);
  bench.counts = () => ({
    elements: bench.roots.reduce((n, root) => n + root.querySelectorAll('*').length, 0),
    dialogs: inRoots('[role=dialog], dialog'),
    textboxes: inRoots('textarea, input'),
    grids: inRoots('[role=grid]'),
  });
  bench.arm = (name, arg) => {
    bench.inputAt = undefined;
    const armedAt = performance.now();
    bench.result = when(
      () => bench.inputAt !== undefined && bench.inputAt >= armedAt - 1 && conditions[name](arg),
      () => (name === 'visible' ? visible(arg) : true),
    ).then((t) => t - bench.inputAt);
  };
}

/**
 * Network URLs to anything but loopback (data: and blob: never touch the network). A RegExp rather than a
 * function: Playwright's driver then continues loopback requests itself, without a round trip to this
 * process, and every widget pays the same small interception cost.
 */
const REMOTE = /^(?:https?|wss?|ftp):\/\/(?!(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?(?:[/?#]|$))/i;

/**
 * A page in a fresh context (no storage, no cache), CPU throttled, with the probe and request tracking.
 * Every request to anything but loopback, the page's or a frame's, HTTP or WebSocket, is aborted and
 * listed in `blocked`. `launcher`: selector of what the visitor first sees (default: our launcher).
 */
export async function openRun(browser, { throttle, init, launcher = 'button[aria-expanded]' }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: VISITOR_ZONE });
  const blocked = [];
  await context.route(REMOTE, (route) => {
    blocked.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(REMOTE, (ws) => {
    blocked.push(ws.url());
    return ws.close();
  });
  if (init) await context.addInitScript(init.script, init.arg);
  await context.addInitScript(probe, { launcher });
  // Every wait is bounded: a widget that never shows what we wait for fails the bench, it does not hang it.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const inflight = new Set();
  const requests = [];
  const loopbackRequests = [];
  page.on('request', (r) => {
    inflight.add(r);
    requests.push(new URL(r.url()).pathname);
    if (!REMOTE.test(r.url())) loopbackRequests.push(new URL(r.url()).pathname);
  });
  for (const done of ['requestfinished', 'requestfailed']) page.on(done, (r) => inflight.delete(r));
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  await cdp.send('Performance.enable');

  return {
    page,
    cdp,
    requests,
    loopbackRequests,
    blocked,
    errors,
    /** Until no request is in flight and the main thread has been idle twice (bounded). */
    async settle() {
      for (let round = 0; round < 20; round++) {
        for (let i = 0; i < 250 && inflight.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
        await page.evaluate(
          () => new Promise((r) => requestIdleCallback(() => requestIdleCallback(r, { timeout: 2000 }), { timeout: 2000 })),
        );
        if (inflight.size === 0) return;
      }
      throw new Error(`requests still in flight: ${[...inflight].map((r) => r.url()).join(', ')}`);
    },
    /** Main-thread totals since navigation (ms) and the JS heap after a full GC (bytes). */
    async metrics() {
      const read = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
      const before = await read();
      await cdp.send('HeapProfiler.collectGarbage');
      const after = await read();
      return {
        taskMs: before.TaskDuration * 1000,
        scriptMs: before.ScriptDuration * 1000,
        layoutMs: (before.LayoutDuration + before.RecalcStyleDuration) * 1000,
        heapBytes: after.JSHeapUsedSize,
        nodes: after.Nodes,
      };
    },
    /** Time from the next trusted click/key to the first frame in which the condition holds. */
    async interaction(condition, arg, act) {
      await page.evaluate(([c, a]) => window.__bench.arm(c, a), [condition, arg]);
      await act();
      return page.evaluate(
        () => Promise.race([window.__bench.result, new Promise((_, fail) => setTimeout(() => fail(new Error('timed out')), 15_000))]),
      );
    },
    probe: (fn, arg) => page.evaluate(fn, arg),
    close: () => context.close(),
  };
}

export function stats(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}
