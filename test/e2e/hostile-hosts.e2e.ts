// The widget on pages that fight it, in real Chromium: Bootstrap 5, Tailwind preflight, a
// `* { … !important }` stylesheet, a strict CSP header, and a max-z-index sticky header with
// `html { overflow: hidden }` on a phone. On each: the launcher and the open panel look the same as on
// a plain page (pixels compared), chat and booking work, no CSP violation, and the host's own layout
// is untouched after open and close. Then, on the plain page, the widget's side effects: one global,
// no prototype patched, no listener left after destroy(), no storage before first use, no request
// before the first open.
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { addProbe, comparePngs, gotoHeld, holdWidget, hostSnapshot, liveListeners, violations } from './fixtures/host-probes';
import { suite, useDemo } from './support/demo';

/** Monday 23 November 2026, 9:00 in New York: Tuesday has free times. */
const NOW = '2026-11-23T14:00:00Z';
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const PHONE: BrowserContextOptions = { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true };

/**
 * At most this share of pixels may differ (by more than 24 of 255 in a channel) from the plain page,
 * for antialiasing where the host's background shows through the rounded corners. Measured: none
 * differ on any of these hosts; a host font leaking into the title alone changes thousands.
 */
const PIXEL_TOLERANCE = 0.0005;

const demo = useDemo({ now: NOW, fixtures: true });

async function newContext(options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await demo.browser.newContext({ ...options, reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'America/New_York' });
  // The visitor's clock is the sandbox's: the calendar opens on NOW's month whatever day the test runs.
  await demo.freezeClock(context);
  await addProbe(context);
  return context;
}

const launcher = (page: Page) => page.getByRole('button', { name: 'Chat with Harbor Physio' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Harbor Physio' });

/** Nothing focused inside the widget: no caret or focus ring in the screenshots. */
async function blurWidget(page: Page): Promise<void> {
  await page.evaluate(() => {
    const inner = document.activeElement?.shadowRoot?.activeElement;
    if (inner instanceof HTMLElement) inner.blur();
  });
}

interface Shots {
  launcher: Buffer;
  panel: Buffer;
}

/** The closed launcher and the just-opened panel, screenshotted in the same state on every host. */
async function shoot(page: Page): Promise<Shots> {
  await launcher(page).waitFor();
  const closed = await launcher(page).screenshot({ caret: 'initial' });
  await launcher(page).click();
  await dialog(page).getByRole('tablist').waitFor();
  await page.getByRole('log', { name: 'Conversation' }).getByText('Hi! How can we help?').waitFor();
  await blurWidget(page);
  return { launcher: closed, panel: await dialog(page).screenshot({ caret: 'initial' }) };
}

const plainShots = new Map<string, Promise<Shots>>();

/** The plain page's screenshots at the same viewport, taken once per viewport. */
function plain(options: BrowserContextOptions): Promise<Shots> {
  const key = JSON.stringify(options);
  let shots = plainShots.get(key);
  if (!shots) {
    shots = (async () => {
      const context = await newContext(options);
      const page = await context.newPage();
      await page.goto(`${demo.server.url}fixtures/plain.html`);
      const taken = await shoot(page);
      await context.close();
      return taken;
    })();
    plainShots.set(key, shots);
  }
  return shots;
}

async function expectSameLook(context: BrowserContext, host: Buffer, reference: Buffer, what: string): Promise<void> {
  const diff = await comparePngs(context, host, reference);
  expect(diff.sizeMatches, `${what}: screenshot sizes differ`).toBe(true);
  expect(diff.differing / (diff.width * diff.height), `${what}: ${diff.differing} pixels differ`).toBeLessThanOrEqual(PIXEL_TOLERANCE);
}

async function chatWorks(page: Page): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('What are your opening hours?');
  await box.press('Enter');
  await page.getByRole('log', { name: 'Conversation' }).getByText('Sunday:').waitFor();
}

async function bookingWorks(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Book', exact: true }).click();
  await page.getByRole('button', { name: '30 min consultation' }).click();
  await page.getByRole('grid', { name: 'November 2026' }).waitFor();
  await page.getByRole('button', { name: /^Tuesday, November 24, 2026, \d+ times available$/ }).click();
  const heading = page.getByRole('heading', { name: 'Choose a time' });
  await heading.waitFor();
  // The booking views' sizes are the widget's own, whatever the page's root font size (rem would follow it).
  expect(await heading.evaluate((el) => getComputedStyle(el).fontSize)).toBe('18px');
  const slot = page.getByRole('button', { name: /^9:00 AM/ }).first();
  expect(await slot.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThanOrEqual(44);
  await slot.click();
  await page.getByRole('heading', { name: 'Your details' }).waitFor();
}

const HOSTS = [
  { name: 'Bootstrap 5', page: 'bootstrap', options: DESKTOP },
  { name: 'Tailwind preflight', page: 'tailwind', options: DESKTOP },
  { name: '* { font: 30px serif !important; color: red !important; … }', page: 'important', options: DESKTOP },
  { name: "a strict CSP (default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self')", page: 'csp', options: DESKTOP },
  // The docs say an owner's CSP needs no style-src at all: this is that claim.
  {
    name: "a CSP with no style source at all (default-src 'none'; script-src 'self'; connect-src 'self')",
    page: 'csp-nostyle',
    options: DESKTOP,
  },
  { name: 'a max-z-index sticky header and html { overflow: hidden }, on a phone', page: 'sticky', options: PHONE },
];

suite('hostile host pages in Chromium', () => {
  for (const host of HOSTS) {
    test(`${host.name}: same look, chat and booking work, no CSP violation, host layout untouched`, async () => {
      const reference = await plain(host.options);
      const context = await newContext(host.options);
      const page = await context.newPage();
      const release = await holdWidget(page);
      await gotoHeld(page, `${demo.server.url}fixtures/${host.page}.html`);
      const before = await hostSnapshot(page);
      release();

      const shots = await shoot(page);
      await expectSameLook(context, shots.launcher, reference.launcher, 'launcher');
      await expectSameLook(context, shots.panel, reference.panel, 'open panel');

      await chatWorks(page);
      await bookingWorks(page);
      await page.getByRole('button', { name: 'Close' }).click();
      await dialog(page).waitFor({ state: 'hidden' });

      // The scroll lock is lifted in an effect after the panel hides: poll, a leftover lock fails.
      await expect.poll(() => hostSnapshot(page)).toEqual(before);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });
  }
});

suite('side effects on the host page', () => {
  test("one global, no prototype patched, no storage or request but the widget's own files before first use, no listener left after destroy()", async () => {
    const context = await newContext(DESKTOP);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() !== 'document') requests.push(new URL(request.url()).pathname);
    });
    const release = await holdWidget(page);
    await gotoHeld(page, `${demo.server.url}fixtures/plain.html`);

    // Before the widget: the page's globals, a few prototypes (names and values), its listeners.
    await page.evaluate(() => {
      const protos: Record<string, object> = {
        Object: Object.prototype,
        Array: Array.prototype,
        Function: Function.prototype,
        String: String.prototype,
        Promise: Promise.prototype,
        EventTarget: EventTarget.prototype,
        Node: Node.prototype,
        Element: Element.prototype,
        HTMLElement: HTMLElement.prototype,
        Document: Document.prototype,
        Window: Window.prototype,
      };
      const snapshot = (proto: object) => new Map(Reflect.ownKeys(proto).map((k) => [k, Object.getOwnPropertyDescriptor(proto, k)]));
      (window as unknown as { awBefore: unknown }).awBefore = {
        protos: Object.fromEntries(Object.entries(protos).map(([name, proto]) => [name, { proto, props: snapshot(proto) }])),
      };
    });
    const globalsBefore = await page.evaluate(() => Object.getOwnPropertyNames(window));
    const listenersBefore = await liveListeners(page);
    release();

    await launcher(page).waitFor();
    // widget.js, and (when the browser is idle) the panel's file next to it: nothing reaches the chat or the API.
    expect(requests[0]).toBe('/widget.js');
    expect(requests.filter((path) => path !== '/widget.js' && !/^\/chunks\/panel\.[\w-]{8}\.js$/.test(path))).toEqual([]);

    const globalsAfter = await page.evaluate(() => Object.getOwnPropertyNames(window));
    expect(globalsAfter.filter((g) => !globalsBefore.includes(g))).toEqual(['AgentWidget']);

    const patched = await page.evaluate(() => {
      type Snap = Record<string, { proto: object; props: Map<string | symbol, PropertyDescriptor | undefined> }>;
      const { protos } = (window as unknown as { awBefore: { protos: Snap } }).awBefore;
      const changes: string[] = [];
      for (const [name, { proto, props }] of Object.entries(protos)) {
        const now = Reflect.ownKeys(proto);
        if (now.length !== props.size) changes.push(`${name}: ${props.size} own properties before, ${now.length} after`);
        for (const key of now) {
          const was = props.get(key);
          const is = Object.getOwnPropertyDescriptor(proto, key);
          if (!was || was.value !== is?.value || was.get !== is?.get || was.set !== is?.set) changes.push(`${name}.${String(key)}`);
        }
      }
      return changes;
    });
    expect(patched).toEqual([]);

    // Opened and closed without a message: nothing stored, and no cookie.
    await launcher(page).click();
    await dialog(page).waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    const storage = () =>
      page.evaluate(() => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage), cookie: document.cookie }));
    expect(await storage()).toEqual({ local: [], session: [], cookie: '' });

    // First use: the conversation is stored, under this agent's key.
    await launcher(page).click();
    await chatWorks(page);
    await expect.poll(storage).toEqual({ local: ['agent-widget:demo-agent:chat'], session: [], cookie: '' });
    expect(await liveListeners(page)).not.toEqual(listenersBefore);

    await page.evaluate(() => (window as unknown as { AgentWidget: { destroy(): void } }).AgentWidget.destroy());
    expect(await page.evaluate(() => document.querySelector('[data-agent-widget]'))).toBeNull();
    expect(await liveListeners(page)).toEqual(listenersBefore);
    await context.close();
  });
});
