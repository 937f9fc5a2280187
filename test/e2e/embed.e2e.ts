// The iframe page (dist/embed.html) framed by a page of ANOTHER origin (localhost frames 127.0.0.1),
// in real Chromium: it sizes itself through the documented parent snippet so neither frame nor page
// shows a scrollbar, posts every event with its payload to parentOrigin only (cut down without it),
// takes commands only from that parent, opens reply links in a new tab, runs under a strict CSP, and
// takes prefill (from the fragment) and UTM parameters into the booking, and copies to the clipboard.
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { addProbe, violations } from './fixtures/host-probes';
import { hasChromium } from './support/chromium.mjs';
import { suite, useDemo } from './support/demo';

/** Monday 23 November 2026, 9:00 in New York: Tuesday has free times. */
const NOW = '2026-11-23T14:00:00Z';
/** Stricter than the brief's: no style-src (nor img-src) at all, so 'none' applies to styles. */
const STRICT_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'";

const demo = useDemo({ now: NOW, fixtures: true });
let parentOrigin: string;
let frameOrigin: string;

beforeAll(async () => {
  if (!hasChromium()) return;
  parentOrigin = new URL(demo.server.url).origin;
  frameOrigin = parentOrigin.replace('//localhost:', '//127.0.0.1:');
});

interface Received {
  origin: string;
  data: { source?: string; type?: string; payload?: Record<string, unknown> } | string;
}

interface Framed {
  context: BrowserContext;
  page: Page;
  frame: Frame;
}

/** The parent fixture framing embed.html with `params` (and a fragment), in a fresh context. */
async function framed(params: Record<string, string>, fragment = '', csp?: string): Promise<Framed> {
  const context = await demo.browser.newContext({
    viewport: { width: 800, height: 700 },
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'America/New_York',
  });
  // The visitor's clock is the sandbox's: the calendar opens on NOW's month whatever day the test runs.
  await demo.freezeClock(context);
  await addProbe(context);
  if (csp)
    await context.route('**/embed.html*', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
    });
  const query = new URLSearchParams({
    agentId: 'demo-agent',
    apiBase: '/api',
    chatUrl: '/api/chat',
    title: 'Harbor Physio',
    persist: 'none',
    ...params,
  });
  const src = `${frameOrigin}/embed.html?${query}${fragment}`;
  const page = await context.newPage();
  await page.goto(`${demo.server.url}fixtures/embed-parent.html?src=${encodeURIComponent(src)}`);
  const frame = page.frame({ url: (url) => url.pathname === '/embed.html' });
  if (!frame) throw new Error('the iframe did not load embed.html');
  await frame.getByRole('region', { name: 'Harbor Physio' }).waitFor();
  return { context, page, frame };
}

const received = (page: Page): Promise<Received[]> => page.evaluate(() => (window as unknown as { received: Received[] }).received);

/** Every message the frame has posted so far, proven complete by a marker the frame posts last. */
async function allReceived(page: Page, frame: Frame): Promise<Received[]> {
  await frame.evaluate(() => parent.postMessage('marker', '*'));
  await expect.poll(async () => (await received(page)).some((m) => m.data === 'marker')).toBe(true);
  return (await received(page)).filter((m) => m.data !== 'marker');
}

const ofType = async (page: Page, type: string) =>
  (await received(page))
    .filter((m) => typeof m.data === 'object' && m.data.type === type)
    .map((m) => (m.data as { payload?: unknown }).payload);

/**
 * Sends a command from the parent and waits until the frame has handled (or ignored) it: a listener
 * added after the widget's runs after it, so its firing means the widget's has run.
 */
async function command(page: Page, frame: Frame, message: unknown): Promise<void> {
  type Waiting = { awNextMessage?: Promise<void> };
  await frame.evaluate(() => {
    (window as Waiting).awNextMessage = new Promise<void>((resolve) => addEventListener('message', () => resolve(), { once: true }));
  });
  await page.evaluate(
    (data) => (document.getElementById('agent-frame') as HTMLIFrameElement).contentWindow?.postMessage(data, '*'),
    message,
  );
  await frame.evaluate(() => (window as Waiting).awNextMessage);
}

const selectedTab = (frame: Frame) => frame.getByRole('tab', { selected: true }).textContent();

/** The iframe element's height in the parent, and whether the frame's document can scroll. */
function sizes(page: Page, frame: Frame) {
  return Promise.all([
    page.evaluate(() => document.getElementById('agent-frame')?.getBoundingClientRect().height),
    frame.evaluate(() => {
      const root = document.documentElement;
      return {
        content: Math.ceil(document.body.getBoundingClientRect().height),
        scrolls: root.scrollHeight > root.clientHeight || root.scrollWidth > root.clientWidth,
      };
    }),
  ]).then(([frameHeight, inside]) => ({ frameHeight, ...inside }));
}

async function send(frame: Frame, text: string): Promise<void> {
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

async function toSlotForm(frame: Frame): Promise<void> {
  await frame.getByRole('tab', { name: 'Book', exact: true }).click();
  await frame.getByRole('button', { name: '30 min consultation' }).click();
  await frame.getByRole('button', { name: /^Tuesday, November 24, 2026, \d+ times available$/ }).click();
  await frame
    .getByRole('button', { name: /^9:00 AM/ })
    .first()
    .click();
  await frame.getByRole('heading', { name: 'Your details' }).waitFor();
}

suite('the iframe page in Chromium', () => {
  test('the parent snippet sizes the frame to its content: no scrollbar inside, in chat and in booking', async () => {
    const { context, page, frame } = await framed({ parentOrigin });
    await expect.poll(() => sizes(page, frame)).toMatchObject({ frameHeight: 420, content: 420, scrolls: false });

    await frame.getByRole('tab', { name: 'Book', exact: true }).click();
    await frame.getByRole('button', { name: '30 min consultation' }).click();
    await frame.getByRole('grid', { name: 'November 2026' }).waitFor();
    await expect
      .poll(async () => {
        const now = await sizes(page, frame);
        return now.content > 420 && now.frameHeight === now.content && !now.scrolls;
      })
      .toBe(true);
    // The whole calendar is visible in the parent page without scrolling the frame.
    const grid = await frame.getByRole('grid', { name: 'November 2026' }).boundingBox();
    const box = await page.locator('#agent-frame').boundingBox();
    expect(grid && box && grid.y + grid.height <= box.y + box.height).toBe(true);
    expect((await ofType(page, 'resize')).length).toBeGreaterThanOrEqual(2);
    await context.close();
  });

  test('with parentOrigin every event reaches the parent with its payload, from the frame origin', async () => {
    const { context, page, frame } = await framed({ parentOrigin });
    await send(frame, 'What are your opening hours?');
    await frame.getByRole('log', { name: 'Conversation' }).getByText('Sunday:').waitFor();
    await frame.getByRole('tab', { name: 'Book', exact: true }).click();
    await frame.getByRole('button', { name: '30 min consultation' }).click();
    await frame.getByRole('button', { name: /^Tuesday, November 24, 2026, / }).click();

    const all = await allReceived(page, frame);
    expect(all.every((m) => m.origin === frameOrigin && typeof m.data === 'object' && m.data.source === 'agent-widget')).toBe(true);
    expect(await ofType(page, 'ready')).toEqual([{ agentId: 'demo-agent', version: '0.1.0' }]);
    expect(await ofType(page, 'message:sent')).toEqual([
      expect.objectContaining({ agentId: 'demo-agent', text: 'What are your opening hours?' }),
    ]);
    expect(await ofType(page, 'message:received')).toEqual([
      expect.objectContaining({ agentId: 'demo-agent', text: expect.stringContaining('Sunday:'), sources: expect.any(Array) }),
    ]);
    expect(await ofType(page, 'booking:date-selected')).toEqual([
      { agentId: 'demo-agent', date: '2026-11-24', timezone: 'America/New_York', durationMinutes: 30 },
    ]);
    await context.close();
  });

  test('without parentOrigin the payloads are cut down to the agent id and commands are refused', async () => {
    const { context, page, frame } = await framed({});
    await send(frame, 'My email is ada@example.com');
    await frame.getByRole('log', { name: 'Conversation' }).getByText('ada@example.com').waitFor();
    await expect.poll(() => ofType(page, 'message:received')).toHaveLength(1);

    const all = await allReceived(page, frame);
    expect(JSON.stringify(all)).not.toContain('ada@example.com');
    expect(await ofType(page, 'message:sent')).toEqual([{ agentId: 'demo-agent' }]);
    expect((await ofType(page, 'resize'))[0]).toEqual({ height: 420 });

    await command(page, frame, { source: 'agent-widget', type: 'setView', payload: { view: 'booking' } });
    expect(await selectedTab(frame)).toBe('Chat');
    await context.close();
  });

  test('commands are taken from the parent at parentOrigin only', async () => {
    const { context, page, frame } = await framed({ parentOrigin });
    // From the frame itself (another origin, not the parent window): ignored.
    await frame.evaluate(
      () =>
        new Promise<void>((resolve) => {
          addEventListener('message', () => resolve(), { once: true });
          postMessage({ source: 'agent-widget', type: 'setView', payload: { view: 'lookup' } }, '*');
        }),
    );
    expect(await selectedTab(frame)).toBe('Chat');
    // Not ours, or not a view: ignored.
    await command(page, frame, { type: 'setView', payload: { view: 'booking' } });
    await command(page, frame, { source: 'agent-widget', type: 'setView', payload: { view: 'admin' } });
    expect(await selectedTab(frame)).toBe('Chat');

    await command(page, frame, { source: 'agent-widget', type: 'setView', payload: { view: 'booking' } });
    expect(await selectedTab(frame)).toBe('Book');
    await command(page, frame, { source: 'agent-widget', type: 'open', payload: { view: 'lookup' } });
    expect(await selectedTab(frame)).toBe('My booking');
    await context.close();

    // A parent at another origin than parentOrigin hears nothing and commands nothing.
    const other = await framed({ parentOrigin: 'https://elsewhere.example' });
    await command(other.page, other.frame, { source: 'agent-widget', type: 'setView', payload: { view: 'booking' } });
    expect(await selectedTab(other.frame)).toBe('Chat');
    expect(await allReceived(other.page, other.frame)).toEqual([]);
    await other.context.close();
  });

  test('a link in a reply opens in a new tab; the frame stays on the chat', async () => {
    const { context, page, frame } = await framed({ parentOrigin });
    await context.route('https://example.com/**', (route) => route.fulfill({ body: 'Harbor Physio', contentType: 'text/plain' }));
    await send(frame, 'Where are you located?');
    const link = frame.getByRole('link', { name: /Finding us/ });
    const popup = context.waitForEvent('page');
    await link.click();
    expect((await popup).url()).toBe('https://example.com/harbor-physio/location');
    expect(frame.url()).toContain(`${frameOrigin}/embed.html?`);
    expect(page.url()).toContain('/fixtures/embed-parent.html');
    await frame.getByRole('log', { name: 'Conversation' }).waitFor();
    await context.close();
  });

  test('Copy reaches the clipboard from the frame, with the README\'s allow="clipboard-write"', async () => {
    const { context, page, frame } = await framed({ parentOrigin });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await send(frame, 'What are your opening hours?');
    const log = frame.getByRole('log', { name: 'Conversation' });
    await log.getByText('Sunday:').waitFor();
    await log.getByRole('button', { name: 'Copy', exact: true }).click();
    await log.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Sunday:');
    await context.close();
  });

  test('works under a strict CSP without any style source, with no violation: chat and booking', async () => {
    const { context, page, frame } = await framed({ parentOrigin }, '', STRICT_CSP);
    await send(frame, 'What are your opening hours?');
    await frame.getByRole('log', { name: 'Conversation' }).getByText('Sunday:').waitFor();
    await toSlotForm(frame);
    expect(await violations(frame)).toEqual([]);
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  test('prefill in the fragment fills the booking form, never reaching a server; UTM rides on booking:created', async () => {
    const urls: string[] = [];
    const { context, page, frame } = await framed(
      { parentOrigin, utm: 'true', utm_source: 'newsletter', utm_campaign: 'spring' },
      '#prefill-name=Ada%20Lovelace&prefill-email=ada%40example.com',
    );
    context.on('request', (request) => urls.push(`${request.url()} ${request.headers().referer ?? ''}`));
    await toSlotForm(frame);
    expect(await frame.getByRole('textbox', { name: 'Your name' }).inputValue()).toBe('Ada Lovelace');
    expect(await frame.getByRole('textbox', { name: 'Email' }).inputValue()).toBe('ada@example.com');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByRole('button', { name: 'Confirm booking' }).click();
    await frame.getByRole('heading', { name: 'You are booked' }).waitFor();

    await expect.poll(() => ofType(page, 'booking:created')).toHaveLength(1);
    const [created] = (await ofType(page, 'booking:created')) as { utm?: unknown; booking: { form_data: unknown } }[];
    expect(created?.utm).toEqual({ utm_source: 'newsletter', utm_campaign: 'spring' });
    expect(created?.booking.form_data).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((u) => /ada(%40|@)example/i.test(u))).toEqual([]);
    await context.close();
  });
});
