// How widget.js brings in the rest, in real Chromium: the panel and the language as classic scripts
// from widget.js's folder, on a CDN without CORS headers; the stand-in panel that answers a click
// before the panel's file is there; a tampered or unreachable file met calmly, with Try again; strict
// CSP with Trusted Types.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { expect, test } from 'vitest';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z', fixtures: true });

const PANEL_FILE = /\/chunks\/panel\.[\w-]{8}\.js$/;
const DESKTOP = { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' as const };

/** The demo's origin under its other loopback name: another origin, served without any CORS header. */
function otherOrigin(url: string): string {
  const other = new URL(url);
  other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return other.href;
}

interface HostPage {
  page: Page;
  /** The widget's console lines. */
  messages: string[];
  /** Uncaught errors on the page. */
  errors: string[];
}

/** A host page at the demo's origin with `headers` and the widget's script tag. */
async function hostPage(context: BrowserContext, { lang = 'en', headers = {} } = {}): Promise<HostPage> {
  const page = await context.newPage();
  const messages: string[] = [];
  const errors: string[] = [];
  page.on('console', (m) => m.text().startsWith('[AgentWidget]') && messages.push(m.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  const url = `${demo.server.url}host-${lang}.html`;
  const body = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Host</title></head><body><h1>Host</h1>
<script src="${demo.server.url}widget.js" async data-agent-id="demo-agent" data-api-base="${demo.server.url}api"
  data-chat-url="${demo.server.url}api/chat" data-title="Harbor Physio" data-persist="none"></script></body></html>`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', headers, body }));
  await page.goto(url);
  return { page, messages, errors };
}

/** Holds every request for the panel's file until `release()`, then serves it as `answer` says. */
async function holdPanel(page: Page, answer: (route: Route) => Promise<void> = (route) => route.continue()) {
  const held: Route[] = [];
  let open = false;
  await page.route(PANEL_FILE, (route) => (open ? answer(route) : void held.push(route)));
  return {
    release: async () => {
      open = true;
      for (const route of held.splice(0)) await answer(route);
    },
  };
}

const launcher = (page: Page, name = 'Chat with Harbor Physio') => page.getByRole('button', { name });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Harbor Physio' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const active = document.querySelector('[data-agent-widget]')?.shadowRoot?.activeElement;
    return active?.getAttribute('aria-label') ?? active?.tagName ?? null;
  });

suite('loading the panel in Chromium', () => {
  test('widget.js from another origin without CORS headers: the panel and the German language load as classic scripts', async () => {
    const context = await demo.browser.newContext(DESKTOP);
    const scriptOrigin = otherOrigin(demo.server.url);
    const chunks: { url: string; cors: string | undefined }[] = [];
    context.on('response', (response) => {
      if (response.url().includes('/chunks/'))
        chunks.push({ url: response.url(), cors: response.headers()['access-control-allow-origin'] });
    });
    // A page the demo server serves itself (a page answered by page.route() would not count as on loopback,
    // and Chromium's local network access rules would refuse it any loopback script).
    const page = await context.newPage();
    const messages: string[] = [];
    const errors: string[] = [];
    page.on('console', (m) => m.text().startsWith('[AgentWidget]') && messages.push(m.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    // Its own tag for the same-origin widget.js goes unanswered: the copy from the other origin is the one.
    await page.route(`${demo.server.url}widget.js`, (route) => route.abort());
    await page.goto(`${demo.server.url}fixtures/plain.html`);
    await page.evaluate(
      ({ src, base }) => {
        const script = document.createElement('script');
        const attributes = {
          'data-agent-id': 'demo-agent',
          'data-api-base': `${base}api`,
          'data-chat-url': `${base}api/chat`,
          'data-title': 'Harbor Physio',
          'data-locale': 'de',
          'data-persist': 'none',
        };
        for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
        script.src = src;
        document.body.append(script);
      },
      { src: `${scriptOrigin}widget.js`, base: demo.server.url },
    );
    // The language arrives with the panel's file, when the browser is idle: the launcher's name says it.
    await launcher(page, 'Chat mit Harbor Physio').waitFor();
    await launcher(page, 'Chat mit Harbor Physio').click();
    await page.getByRole('tab', { name: 'Buchen', exact: true }).waitFor();
    const box = page.getByRole('textbox', { name: 'Nachricht' });
    await box.fill('What are your opening hours?');
    await box.press('Enter');
    await page.getByText('Monday to Friday:').first().waitFor();
    expect(chunks.map(({ url }) => new URL(url).origin)).toEqual([new URL(scriptOrigin).origin, new URL(scriptOrigin).origin]);
    expect(chunks.map(({ url }) => new URL(url).pathname)).toEqual([
      expect.stringMatching(PANEL_FILE),
      expect.stringMatching(/^\/chunks\/de\./),
    ]);
    expect(chunks.every(({ cors }) => cors === undefined)).toBe(true);
    expect(messages).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('before the panel has arrived, a click shows the stand-in at once, focused; the panel replaces it and takes focus', async () => {
    const context = await demo.browser.newContext(DESKTOP);
    const page = await context.newPage();
    const held = await holdPanel(page);
    await page.goto(demo.server.url);
    await launcher(page).click();
    // Drawn by widget.js in the click's own task: a dialog with the title, busy, saying it is loading.
    await dialog(page).waitFor();
    expect(await dialog(page).getAttribute('aria-busy')).toBe('true');
    expect(await launcher(page).getAttribute('aria-expanded')).toBe('true');
    expect(await focusedLabel(page)).toBe('Harbor Physio');
    await page.getByText('Loading…').waitFor();
    await page.screenshot({ path: 'test-results/loading-stand-in.png' });
    await held.release();
    await expect.poll(() => focusedLabel(page)).toBe('Message');
    expect(await dialog(page).getAttribute('aria-busy')).toBeNull();
    await context.close();
  });

  test('a panel file that cannot be fetched: a calm message with Try again, one console line naming it, an error event; Try again loads it', async () => {
    const context = await demo.browser.newContext(DESKTOP);
    const page = await context.newPage();
    const messages: string[] = [];
    const errors: string[] = [];
    page.on('console', (m) => m.text().startsWith('[AgentWidget]') && messages.push(m.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    let reachable = false;
    await page.route(PANEL_FILE, (route) => (reachable ? route.continue() : route.abort('connectionrefused')));
    await page.goto(demo.server.url);
    await page.evaluate(() => {
      const api = (window as unknown as { AgentWidget: { on(type: string, handler: (payload: unknown) => void): void } }).AgentWidget;
      api.on('error', (payload) => ((window as unknown as { panelErrors: unknown[] }).panelErrors ??= []).push(payload));
    });
    await launcher(page).click();
    await page.getByText('The chat could not be loaded. Please check your connection and try again.').waitFor();
    expect(await dialog(page).getAttribute('aria-busy')).toBe('false');
    await page.screenshot({ path: 'test-results/loading-failed.png' });
    // One line for each attempt that failed (the idle one may have come first), each naming the file.
    expect(messages.length).toBeGreaterThanOrEqual(1);
    for (const message of messages)
      expect(message).toMatch(
        /^\[AgentWidget\] The panel could not be loaded: http:\/\/\S+\/chunks\/panel\.[\w-]{8}\.js could not be loaded: /,
      );
    const events = await page.evaluate(() => (window as unknown as { panelErrors: { scope: string; retry: string }[] }).panelErrors);
    expect(events.at(-1)).toMatchObject({ agentId: 'demo-agent', scope: 'panel', status: 0, retry: 'manual' });
    reachable = true;
    await page.getByRole('button', { name: 'Try again' }).click();
    await composer(page).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a panel file changed on the server is refused by its integrity hash (same origin), and said so', async () => {
    const context = await demo.browser.newContext(DESKTOP);
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (m) => m.text().startsWith('[AgentWidget]') && messages.push(m.text()));
    await page.route(PANEL_FILE, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: `${await response.text()}\nwindow.tampered = true;` });
    });
    await page.goto(demo.server.url);
    await launcher(page).click();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { tampered?: boolean }).tampered)).toBeUndefined();
    expect(messages.at(-1)).toMatch(/integrity/);
    await context.close();
  });

  test('under a strict CSP that requires Trusted Types, the panel loads through the policy named agent-widget, with no violation', async () => {
    const context = await demo.browser.newContext(DESKTOP);
    const csp =
      "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; require-trusted-types-for 'script'; trusted-types agent-widget";
    const violations: string[] = [];
    const { page, messages, errors } = await hostPage(context, { headers: { 'Content-Security-Policy': csp } });
    page.on('console', (m) => m.type() === 'error' && violations.push(m.text()));
    await launcher(page).click();
    await composer(page).fill('What are your opening hours?');
    await composer(page).press('Enter');
    await page.getByText('Monday to Friday:').first().waitFor();
    expect(violations.filter((v) => /Content Security Policy|Trusted Type/i.test(v))).toEqual([]);
    expect(messages).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
