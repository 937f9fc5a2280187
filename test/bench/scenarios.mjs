// What the bench does in the browser. Each function is one run in a fresh context on the throttled CPU
// and returns plain numbers; run.mjs repeats them and takes medians. The widget is found by role and
// accessible name, the way a visitor (or a screen reader) finds it. The widget is a loader (widget.js) that
// asks for the panel's file (chunks/panel.<hash>.js) on the visitor's first intent or when the browser is
// idle after load: unless a scenario says otherwise, the first open comes after that file has arrived.
import { openRun } from './browser.mjs';
import { analyzeTrace, TRACE_CATEGORIES } from './trace.mjs';

const QUESTION = 'When are you open?';
/** The panel's file and the language files, as the loader and the panel name them (from / or /debug/). */
const PANEL_FILE = /\/chunks\/panel\.[^/]+\.js$/;
const LANGUAGE_FILE = /\/chunks\/(?!panel\.)[^/]+\.js$/;
const LONG_MARKER = 'End of the long conversation';

const launcher = (page) =>
  page
    .getByRole('button', { name: /harbor physio/i })
    .or(page.locator('button[aria-expanded]'))
    .first();
const dialog = (page) => page.getByRole('dialog');
const composer = (page) =>
  dialog(page)
    .getByRole('textbox', { name: /message/i })
    .or(dialog(page).getByRole('textbox'))
    .first();
const bookTab = (page) =>
  dialog(page)
    .getByRole('tab', { name: /^book/i })
    .or(dialog(page).getByRole('button', { name: /^book/i }))
    .first();
const monthButton = (page, which) => dialog(page).getByRole('button', { name: new RegExp(`${which} month`, 'i') });

/** A line of the reply as the visitor reads it: the first line, markdown marks removed. */
function visibleMarker(markdown) {
  const line = markdown.split('\n').find((l) => l.trim() !== '') ?? '';
  return line
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>]/g, '')
    .replace(/^\s*(?:[-+]|\d+\.)\s+/, '')
    .trim()
    .slice(0, 40);
}

async function pageTimes(run) {
  return run.probe(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const b = window.__bench;
    return {
      loadEventMs: nav?.loadEventEnd,
      launcherMs: b.launcherAt,
      longTasks: b.longTasks.splice(0),
      storageReads: b.storageReads.splice(0),
      counts: b.counts(),
    };
  });
}

const longest = (tasks) => tasks.reduce((max, t) => Math.max(max, t.duration), 0);

/** Wait for the ongoing phase (a load, an interaction) to finish, then read the totals and its long tasks. */
async function phase(run) {
  await run.settle();
  const times = await pageTimes(run);
  return { ...(await run.metrics()), ...times, longestTaskMs: longest(times.longTasks) };
}

async function load(run, url) {
  await run.page.goto(url);
  return phase(run);
}

/**
 * Clicks the launcher as a visitor does (pointer over it, down, up) and calls `atClick` as the button goes
 * up, the moment the click is dispatched (within the time one CDP message takes).
 */
async function clickLauncher(run, atClick) {
  const box = await launcher(run.page).boundingBox();
  if (!box) throw new Error('the launcher is not on screen');
  await run.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await run.page.mouse.down();
  const up = run.page.mouse.up();
  atClick();
  await up;
}

/** After a load: until the panel's file has arrived (asked for on idle) and run, then the totals. */
async function prefetch(run) {
  await run.finished(PANEL_FILE);
  return phase(run);
}

/** The plain page without the widget: the baseline of every ratio. */
export async function hostBaseline(browser, server, throttle) {
  const run = await openRun(browser, { throttle });
  try {
    return await load(run, `${server.origin}/?widget=none`);
  } finally {
    await run.close();
  }
}

/**
 * The Book tab, then (when the agent offers several lengths) the first appointment length: the time
 * from that choice to the month grid with its availability, or undefined when the grid came at once.
 */
async function openCalendar(run) {
  await bookTab(run.page).click();
  await run.settle();
  if ((await dialog(run.page).getByRole('grid').count()) > 0) return undefined;
  const firstLength = dialog(run.page).getByRole('tabpanel').getByRole('listitem').getByRole('button').first();
  return run.interaction('gridChanged', '', () => firstLength.click());
}

/**
 * The plain page with the widget: after load, after the first open (chat), after opening the booking
 * calendar, and the month switch with both months' data already fetched.
 */
export async function widgetFlow(browser, server, throttle, switches = 4) {
  const run = await openRun(browser, { throttle });
  try {
    // The panel's file is held back until the load is measured: `loaded` is the loader's cost alone, with
    // the page idle and the panel asked for; `prefetched` adds its file arriving and running on idle.
    const panel = await run.hold(PANEL_FILE, { held: true });
    const loaded = await load(run, `${server.origin}/`);
    await panel.requested();
    panel.release();
    const prefetched = await prefetch(run);
    const requestsBeforeOpen = run.requests.filter((p) => p !== '/' && p !== '/widget.js');

    const openMs = await run.interaction('focusedTextbox', undefined, () => launcher(run.page).click());
    const opened = { ...(await phase(run)), latencyMs: openMs };

    const bookMs = await openCalendar(run);
    const booking = { ...(await phase(run)), latencyMs: bookMs };

    // Forward first when possible (the next month is prefetched), then back and forth: all cached.
    let direction = (await monthButton(run.page, 'next').isEnabled()) ? 'next' : 'previous';
    const monthSwitch = [];
    for (let i = 0; i < switches; i++) {
      const before = await run.probe(() => window.__bench.grid());
      const requestsBefore = run.requests.length;
      const ms = await run.interaction('gridChanged', before, () => monthButton(run.page, direction).click());
      const fetched = run.requests.slice(requestsBefore).filter((p) => p.includes('/booking/public/'));
      monthSwitch.push({ ms, fetched: fetched.length });
      await run.settle();
      direction = direction === 'next' ? 'previous' : 'next';
    }
    return { loaded, prefetched, requestsBeforeOpen, opened, booking, monthSwitch, errors: run.errors };
  } finally {
    await run.close();
  }
}

/** Open, type a question, send it: time to the reply on screen (the sandbox answers in-process). */
export async function sendToReply(browser, server, throttle) {
  const marker = visibleMarker(await server.replyTo(QUESTION));
  const run = await openRun(browser, { throttle });
  try {
    await load(run, `${server.origin}/`);
    await prefetch(run);
    await launcher(run.page).click();
    await composer(run.page).fill(QUESTION);
    await run.settle();
    const ms = await run.interaction('text', marker, () => composer(run.page).press('Enter'));
    return { ms, errors: run.errors };
  } finally {
    await run.close();
  }
}

/**
 * A stored conversation of `count` messages in the widget's storage format (src/widget/platform/storage.ts:
 * key `agent-widget:<agentId>:chat`, `{ at, value }`; messages as in src/widget/chat/store.ts), made of
 * real sandbox answers so the markdown is what visitors get.
 */
export async function longConversation(server, count) {
  const questions = ['When are you open?', 'How much is a session?', 'Where are you?', 'What do you treat?', 'How do I cancel?'];
  const replies = await Promise.all(questions.map((q) => server.replyTo(q)));
  const now = Date.now();
  const messages = Array.from({ length: count }, (_, i) => {
    const pair = Math.floor(i / 2) % questions.length;
    const last = i === count - 1;
    return {
      id: `bench-${i}`,
      role: i % 2 === 0 ? 'user' : 'agent',
      text: last ? `${LONG_MARKER}, message ${count}.` : (i % 2 === 0 ? questions : replies)[pair],
      at: now - (count - i) * 60_000,
    };
  });
  return {
    key: `agent-widget:${server.agentId}:chat`,
    value: JSON.stringify({ at: now, value: { conversationId: 'bench-long-conversation', messages } }),
  };
}

/** Puts the stored conversation in place before the page's scripts run. */
const seeded = (seed) => ({
  script: ({ key, value }) => {
    try {
      if (location.protocol.startsWith('http')) localStorage.setItem(key, value);
    } catch {
      // about:blank has no storage; the real page does.
    }
  },
  arg: seed,
});

/** Load with a long stored conversation, the panel's file prefetched, then open: time to the last message on screen. */
export async function restoreLong(browser, server, throttle, seed) {
  const run = await openRun(browser, { throttle, init: seeded(seed) });
  try {
    // As in widgetFlow: the load measured before the panel's file arrives, then with it.
    const panel = await run.hold(PANEL_FILE, { held: true });
    const loaded = await load(run, `${server.origin}/`);
    await panel.requested();
    panel.release();
    const prefetched = await prefetch(run);
    const openMs = await run.interaction('text', LONG_MARKER, () => launcher(run.page).click());
    const opened = await phase(run);
    return { loaded, prefetched, opened: { ...opened, latencyMs: openMs }, errors: run.errors };
  } finally {
    await run.close();
  }
}

/**
 * One traced run, analysed per phase: load (the panel's file held back, as in widgetFlow), the panel's
 * file arriving on idle (`bench:prefetch`), the first open (`bench:open`) and the booking calendar
 * (`bench:book`); with `seed`, the long conversation's open instead of the calendar; with `cold`, no
 * prefetch: the open with the panel's file let through `cold` ms after the click (as coldOpen).
 * `files`: the widget's files ({ path in its folder, name, moduleOf?, code? }, see analyzeTrace); `debug`
 * loads them from /debug/, the unminified builds, so functions, modules and lines have names.
 */
export async function tracedFlow(browser, server, throttle, { files, debug = false, seed, cold } = {}) {
  const run = await openRun(browser, { throttle, init: seed ? seeded(seed) : undefined });
  const mark = (name) => run.probe((n) => performance.mark(n), name);
  try {
    const panel = await run.hold(PANEL_FILE, { held: true, delayMs: cold ?? 0 });
    await browser.startTracing(run.page, { categories: TRACE_CATEGORIES });
    let trace;
    try {
      await run.page.goto(`${server.origin}/${debug ? '?debug=1' : ''}`);
      await run.settle();
      await panel.requested();
      if (cold === undefined) {
        await mark('bench:prefetch');
        panel.release();
        await prefetch(run);
      }
      await mark('bench:open');
      await run.interaction(seed ? 'text' : 'focusedTextbox', LONG_MARKER, () => clickLauncher(run, panel.release));
      await run.settle();
      if (!seed && cold === undefined) {
        await mark('bench:book');
        await openCalendar(run);
        await run.settle();
      }
    } finally {
      trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
    }
    const scripts = files.map(({ path, ...file }) => ({ ...file, url: `${server.origin}/${debug ? 'debug/' : ''}${path}` }));
    const marks = ['bench:prefetch', 'bench:open', 'bench:book'].filter(
      (mark) => (mark !== 'bench:prefetch' || cold === undefined) && (mark !== 'bench:book' || (cold === undefined && !seed)),
    );
    return { phases: analyzeTrace(trace, { scripts, marks }), errors: run.errors };
  } finally {
    await run.close();
  }
}

/**
 * The first open before the panel's file has arrived, with `latencyMs` added to that file and to the
 * language's. How: Playwright routes (CDP Fetch) pause the page's requests for those files in the browser,
 * nothing else about the page changes. The loader asks for the panel's file on idle after load, as always;
 * its answer is held back until the launcher is clicked, and sent on to the server `latencyMs` after the
 * click is dispatched (clickLauncher): it arrives about `latencyMs` after the click, as if asked for at the
 * click over a link that slow (when it arrived is read from the page's resource timing, `panelInMs`). A
 * language file (`locale`, none for English) is sent on `latencyMs` after it is asked for, which the loader
 * does once the panel's file is in (the panel's file names the language files).
 * Measured from the click: the first frame drawing the stand-in panel (a dialog, aria-busy="true"), and
 * the first frame with the composer focused (the textbox named "Message" in English).
 */
export async function coldOpen(browser, server, throttle, { latencyMs, locale }) {
  const run = await openRun(browser, { throttle });
  try {
    const panel = await run.hold(PANEL_FILE, { held: true, delayMs: latencyMs });
    await run.hold(LANGUAGE_FILE, { delayMs: latencyMs });
    const loaded = await load(run, `${server.origin}/${locale ? `?locale=${encodeURIComponent(locale)}` : ''}`);
    await panel.requested();
    await run.probe(() => window.__bench.armFrames('[role=dialog][aria-busy=true]'));
    const composerMs = await run.interaction(locale ? 'focusedTextbox' : 'focusedNamed', 'Message', () =>
      clickLauncher(run, panel.release),
    );
    const { standIn, panelInMs, languageInMs } = await run.probe(
      async ([panelFile, languageFile]) => {
        const b = window.__bench;
        const inAt = (pattern) => {
          const entry = performance.getEntriesByType('resource').find((e) => new RegExp(pattern).test(new URL(e.name).pathname));
          return entry ? entry.responseEnd - b.inputAt : undefined;
        };
        return { standIn: await b.frames, panelInMs: inAt(panelFile), languageInMs: inAt(languageFile) };
      },
      [PANEL_FILE.source, LANGUAGE_FILE.source],
    );
    const opened = await phase(run);
    return { loaded, standIn, composerMs, panelInMs, languageInMs, opened, errors: run.errors };
  } finally {
    await run.close();
  }
}

/** The script tag in <head>, at the end of <body>, and injected after load: the launcher must appear. */
export async function asyncSafety(browser, server, throttle) {
  const results = [];
  for (const where of ['head', 'body', 'late']) {
    const run = await openRun(browser, { throttle });
    try {
      await run.page.goto(`${server.origin}/?widget=${where}`);
      await run.settle();
      await launcher(run.page).waitFor({ state: 'visible', timeout: 10_000 });
      const { launcherMs } = await pageTimes(run);
      results.push({ where, ok: run.errors.length === 0, launcherMs, errors: run.errors });
    } catch (error) {
      results.push({ where, ok: false, errors: [...run.errors, String(error)] });
    } finally {
      await run.close();
    }
  }
  return results;
}

/**
 * A peer (peers.mjs) on the same host page, measured as ours is in widgetFlow: after load (with the time
 * its first visible part is on screen) and, where it has one, after its comparable open action.
 */
export async function peerFlow(browser, server, throttle, peer) {
  const run = await openRun(browser, { throttle, launcher: peer.launcher });
  try {
    const loaded = await load(run, `${server.origin}/?widget=peer:${encodeURIComponent(peer.name)}`);
    if (loaded.launcherMs === undefined) throw new Error(`${peer.name}: ${peer.launcher} never came on screen`);
    let opened;
    if (peer.open) {
      const target = run.page.locator(peer.open.click.replace(' >>> ', ' ')).first();
      const openMs = await run.interaction('visible', peer.open.shows, () => target.click());
      opened = { ...(await phase(run)), latencyMs: openMs };
    }
    return { loaded, opened, requests: run.loopbackRequests, blocked: run.blocked, errors: run.errors };
  } finally {
    await run.close();
  }
}
