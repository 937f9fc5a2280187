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
    // Focus moving inside one shadow root fires no focusin on the document (target and relatedTarget are
    // both the host there): listen in the root too.
    root.addEventListener('focusin', changed, true);
    if (watchers.size > 0) observe(root);
    changed();
    return root;
  };
  document.addEventListener('focusin', changed, true);
  for (const type of ['click', 'keydown']) {
    addEventListener(
      type,
      (e) => {
        if (!e.isTrusted) return;
        bench.inputAt = e.timeStamp;
        if (type === 'click') bench.onClick?.(e.timeStamp);
      },
      true,
    );
  }

  /**
   * Resolves with performance.now() at the start of the first frame after `ready()` holds and
   * `onScreen()` (checked inside that frame, where style and layout are computed anyway) is true.
   */
  const when = (ready, onScreen = () => true) =>
    new Promise((resolve) => {
      let frames = 0;
      const frame = () => requestAnimationFrame(() => (onScreen() ? resolve(performance.now()) : ++frames < 600 && frame()));
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
    return (
      active?.matches('textarea, input[type=text], input:not([type]), [contenteditable=""], [contenteditable=true], [role=textbox]') ??
      false
    );
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
  /** The focused element's accessible name as far as the widget gives one: aria-label, or its label. */
  const activeName = () => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.getAttribute('aria-label') ?? active?.labels?.[0]?.textContent ?? '';
  };
  const conditions = {
    focusedTextbox: () => activeTextbox(),
    // A focused textbox whose name is `name` (any case): the composer, "Message".
    focusedNamed: (name) => activeTextbox() && activeName().trim().toLowerCase() === name.toLowerCase(),
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
  /**
   * On the next trusted click, looks for `selector` in each frame after it (frame 1: the first frame the
   * click's task leads to). `bench.frames` resolves with `drawn`: the first frame in which it is rendered
   * (in the DOM, displayed, not visibility:hidden, with a box), the time from the click to that frame's
   * rAF callback, and its text; and `opaque`: the same once its computed opacity (and its ancestors') is above
   * zero too. An entrance animation from opacity 0 runs on the compositor, whose start the main thread
   * learns a few frames late: `opaque` is an upper bound of when pixels show. undefined: not in 120 frames.
   */
  bench.armFrames = (selector) => {
    bench.frames = new Promise((resolve) => {
      bench.onClick = (at) => {
        bench.onClick = undefined;
        let frame = 0;
        let drawn;
        const next = () =>
          requestAnimationFrame(() => {
            // Not the callback's argument: that is when the frame began, which can be before the click
            // was dispatched in it.
            const now = performance.now();
            frame++;
            const found = deep(selector).filter((el) => el.checkVisibility({ visibilityProperty: true }) && el.getClientRects().length > 0);
            if (found.length > 0 && !drawn) drawn = { frames: frame, ms: now - at, text: found[0].textContent };
            const opaque = found.find((el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
            if (opaque) resolve({ drawn, opaque: { frames: frame, ms: now - at } });
            else if (frame < 120) next();
            else resolve({ drawn, opaque: undefined });
          });
        next();
      };
    });
  };
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
  /** URLs whose answers hold() keeps back on purpose: settle() does not wait for them. */
  const held = new Set();
  /** Paths of the requests that finished, and who waits for one. */
  const finished = [];
  const finishWaiters = new Set();
  page.on('request', (r) => {
    inflight.add(r);
    requests.push(new URL(r.url()).pathname);
    if (!REMOTE.test(r.url())) loopbackRequests.push(new URL(r.url()).pathname);
  });
  for (const done of ['requestfinished', 'requestfailed']) page.on(done, (r) => inflight.delete(r));
  page.on('requestfinished', (r) => {
    finished.push(new URL(r.url()).pathname);
    for (const waiter of finishWaiters) waiter();
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const cdp = await context.newCDPSession(page);
  /** Main-thread time of the full GCs metrics() asked for so far. */
  let benchGcMs = 0;
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
      const pending = () => [...inflight].filter((r) => !held.has(r.url()));
      for (let round = 0; round < 20; round++) {
        for (let i = 0; i < 250 && pending().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
        await page.evaluate(
          () => new Promise((r) => requestIdleCallback(() => requestIdleCallback(r, { timeout: 2000 }), { timeout: 2000 })),
        );
        if (pending().length === 0) return;
      }
      throw new Error(
        `requests still in flight: ${pending()
          .map((r) => r.url())
          .join(', ')}`,
      );
    },
    /**
     * Delays the answers to the page's requests whose URL matches `pattern` (a RegExp): each is sent on to
     * the server `delayMs` after it was made, or with `held`, `delayMs` after release() (the page has asked,
     * and nothing arrives until then). Playwright's route pauses the request in the browser (CDP Fetch);
     * nothing else about the page changes. `requested` resolves when the first matching request is made.
     */
    async hold(pattern, { held: holding = false, delayMs = 0 } = {}) {
      let release;
      const released = holding ? new Promise((r) => (release = r)) : Promise.resolve();
      let requested;
      const first = new Promise((r) => (requested = r));
      await page.route(pattern, async (route) => {
        const url = route.request().url();
        if (holding) held.add(url);
        requested(url);
        await released;
        await new Promise((r) => setTimeout(r, delayMs));
        held.delete(url);
        await route.continue().catch(() => {});
      });
      return {
        requested: (timeoutMs = 10_000) => within(first, timeoutMs, `no request matching ${pattern} within ${timeoutMs} ms`),
        release: () => release?.(),
      };
    },
    /** Until a request whose path matches `pattern` has finished (bounded). */
    finished(pattern, timeoutMs = 15_000) {
      let check;
      const done = new Promise((resolve) => {
        check = () => finished.some((path) => pattern.test(path)) && resolve();
        finishWaiters.add(check);
        check();
      });
      return within(done, timeoutMs, `no request matching ${pattern} finished within ${timeoutMs} ms`).finally(() =>
        finishWaiters.delete(check),
      );
    },
    /**
     * Main-thread totals since navigation (ms) and the JS heap after a full GC (bytes). The full GCs this
     * asks for are main-thread tasks too: their time is left out of later readings' task time.
     */
    async metrics() {
      const read = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
      const before = await read();
      await cdp.send('HeapProfiler.collectGarbage');
      const after = await read();
      const taskMs = before.TaskDuration * 1000 - benchGcMs;
      benchGcMs += (after.TaskDuration - before.TaskDuration) * 1000;
      return {
        taskMs,
        benchGcMs,
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
      return page.evaluate(() =>
        Promise.race([window.__bench.result, new Promise((_, fail) => setTimeout(() => fail(new Error('timed out')), 15_000))]),
      );
    },
    probe: (fn, arg) => page.evaluate(fn, arg),
    close: () => context.close(),
  };
}

/** `promise`, or a failure saying `message` after `ms`. */
function within(promise, ms, message) {
  let timer;
  const late = new Promise((_, fail) => (timer = setTimeout(() => fail(new Error(message)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export function stats(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}
