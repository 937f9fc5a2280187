// The script tag speaks the page's language in real Chromium: a German page gets German, fetched from
// next to widget.js; an Arabic page gets Arabic laid out right to left (axe clean); Japanese too. Phone
// screenshots in ar and ja go to test-results/ for a person to look at. A language file that cannot load
// leaves the widget in English with one console message.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { suite, useDemo } from './support/demo';
import type { Strings } from '../../src/widget/i18n';
import ar from '../../src/widget/i18n/locales/ar';
import de from '../../src/widget/i18n/locales/de';
import ja from '../../src/widget/i18n/locales/ja';

const NOW = '2026-11-23T14:00:00Z';
const demo = useDemo({ now: NOW });
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, reducedMotion: 'reduce' } as const;

/** A plain page in `lang`, as an owner's site serves it: the widget is told nothing of the language. */
const pageIn = (lang: string): string => `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Harbor Physio (${lang})</title></head>
<body>
  <main><h1>Harbor Physio</h1><p>A page in the language "${lang}": the widget speaks it without being told.</p></main>
  <script src="/widget.js" async data-agent-id="demo-agent" data-api-base="/api" data-chat-url="/api/chat"
    data-title="Harbor Physio" data-color="#0f766e" data-persist="none"></script>
</body>
</html>`;

interface Opened {
  page: Page;
  /** Paths of the language files requested. */
  fetched: string[];
  /** The widget's console messages. */
  messages: string[];
}

/** A language's file next to widget.js: chunks/<code>.<hash>.js. */
const LANGUAGE_FILE = /^\/chunks\/[a-z]{2}\.[\w-]{8}\.js$/;

async function openPage(lang: string, options: { phone?: boolean; block?: boolean } = {}): Promise<Opened> {
  // In the demo agent's zone, so the calendar's days are the agent's and carry their counts of free times.
  const device = options.phone ? PHONE : { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' as const };
  const context = await demo.browser.newContext({ ...device, timezoneId: 'America/New_York' });
  const page = await context.newPage();
  // The sandbox's day, whatever day the test runs on.
  await demo.freezeClock(page);
  const fetched: string[] = [];
  const messages: string[] = [];
  page.on('console', (m) => m.text().startsWith('[AgentWidget]') && messages.push(m.text()));
  page.on('request', (r) => LANGUAGE_FILE.test(new URL(r.url()).pathname) && fetched.push(new URL(r.url()).pathname));
  if (options.block) await page.route(/\/chunks\/de\.[\w-]{8}\.js$/, (route) => route.fulfill({ status: 404, body: 'not here' }));
  const url = `${demo.server.url}page-in-${lang}.html`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: pageIn(lang) }));
  await page.goto(url);
  return { page, fetched, messages };
}

/**
 * From the list of times to a cancelled booking, in the language of `t`: the first time, the owner's form
 * (the sandbox's labels are English), review, confirm, the code; then My booking finds it by its code
 * and cancels it. Returns the code.
 */
async function bookThrough(page: Page, t: Strings, lang: string): Promise<string> {
  await page.locator('.slot').first().click();
  await page.getByRole('heading', { name: t.formHeading }).waitFor();
  await page.getByRole('textbox', { name: 'Your name' }).fill('Ines Müller');
  await page.getByRole('textbox', { name: 'Email' }).fill('ines@example.com');
  await page.getByRole('button', { name: t.next, exact: true }).click();
  await page.getByRole('heading', { name: t.reviewHeading }).waitFor();
  await page.getByRole('button', { name: t.confirm, exact: true }).click();
  await page.getByRole('heading', { name: t.doneHeading }).waitFor();
  const code = (await page.locator('.code').first().textContent()) ?? '';
  expect(code).toMatch(/^BK-[A-Z0-9]{6}$/);
  await page.getByRole('link', { name: new RegExp(`^${t.google}`) }).waitFor();
  await page.getByRole('link', { name: t.ics }).waitFor();
  await page.screenshot({ path: `test-results/i18n-${lang}-booked.png` });
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('tab', { name: t.tabLookup, exact: true }).click();
  await page.getByRole('textbox', { name: t.code }).fill(code);
  await page.getByRole('button', { name: t.find, exact: true }).click();
  await page.getByRole('button', { name: t.cancelBooking, exact: true }).click();
  await page.getByRole('heading', { name: t.cancelAsk }).waitFor();
  await page.getByRole('button', { name: t.cancelYes, exact: true }).click();
  // Confirmed in the visitor's language, not in the service's (its message goes to the page's event).
  await page.getByRole('status').filter({ hasText: t.cancelledHeading }).waitFor();
  await page
    .getByRole('definition')
    .filter({ hasText: new RegExp(`^${t.cancelled}$`) })
    .waitFor();
  await page.screenshot({ path: `test-results/i18n-${lang}-cancelled.png` });
  return code;
}

/** The widget's root element inside its shadow root: lang and dir. */
const root = (page: Page) => page.locator('[data-agent-widget] .aw');

suite('languages in Chromium', () => {
  test('<html lang="de">: the launcher, tabs and booking speak German, fetched from next to widget.js', async () => {
    const { page, fetched, messages } = await openPage('de');
    await page.getByRole('button', { name: 'Chat mit Harbor Physio' }).click();
    expect(await root(page).getAttribute('lang')).toBe('de');
    expect(await root(page).getAttribute('dir')).toBe('ltr');
    expect(fetched).toEqual([expect.stringMatching(/^\/chunks\/de\./)]);
    await expect.poll(() => page.getByRole('textbox', { name: 'Nachricht' }).isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Buchen', exact: true }).click();
    await page.getByRole('heading', { name: 'Wie viel Zeit benötigen Sie?' }).waitFor();
    await page.locator('.choice').first().click();
    // Days are named in German, with the count of free times in German plural.
    await page.getByRole('button', { name: /^Dienstag, 24\. November 2026, \d+ Termine frei$/ }).waitFor();
    await page.getByRole('button', { name: 'Sonntag, 22. November 2026, nicht verfügbar' }).waitFor();
    // Beyond the demo's 24 hours of cancellation notice, so My booking can cancel it.
    await page.getByRole('button', { name: /^Mittwoch, 25\. November 2026, / }).click();
    await bookThrough(page, de, 'de');
    expect(messages).toEqual([]);
    await page.context().close();
  });

  test('Arabic: lang=ar dir=rtl on the root, booking in Arabic, axe clean; phone screenshots', async () => {
    const { page, messages } = await openPage('ar', { phone: true });
    await page.getByRole('button', { name: 'الدردشة مع Harbor Physio' }).click();
    expect(await root(page).getAttribute('lang')).toBe('ar');
    expect(await root(page).getAttribute('dir')).toBe('rtl');
    await page.getByRole('textbox').waitFor();
    await page.screenshot({ path: 'test-results/i18n-ar-phone-chat.png' });
    await page.getByRole('tab', { name: 'حجز', exact: true }).click();
    // The sandbox's duration labels are English: isolated, they read left to right inside the RTL list.
    const duration = page.locator('.choice').first();
    await duration.waitFor();
    await page.screenshot({ path: 'test-results/i18n-ar-phone-durations.png' });
    await duration.click();
    // The month's last free day: beyond the demo's 24 hours of cancellation notice.
    const day = page.locator('.day:not([aria-disabled])').last();
    await day.waitFor();
    await page.screenshot({ path: 'test-results/i18n-ar-phone-calendar.png' });
    expect(await axeViolations(page)).toEqual([]);
    await day.click();
    await page.locator('.slot').first().waitFor();
    await page.screenshot({ path: 'test-results/i18n-ar-phone-times.png' });
    expect(await axeViolations(page)).toEqual([]);
    await bookThrough(page, ar, 'ar-phone');
    expect(messages).toEqual([]);
    await page.context().close();
  });

  test('Japanese: the panel speaks Japanese through a whole booking and its cancelling; phone screenshots', async () => {
    const { page } = await openPage('ja', { phone: true });
    await page.getByRole('button', { name: 'Harbor Physioとチャット' }).click();
    expect(await root(page).getAttribute('lang')).toBe('ja');
    await page.getByRole('textbox').waitFor();
    await page.screenshot({ path: 'test-results/i18n-ja-phone-chat.png' });
    await page.getByRole('tab', { name: '予約', exact: true }).click();
    await page.locator('.choice').first().click();
    const day = page.locator('.day:not([aria-disabled])').last();
    await day.waitFor();
    await page.screenshot({ path: 'test-results/i18n-ja-phone-calendar.png' });
    await day.click();
    await bookThrough(page, ja, 'ja-phone');
    await page.context().close();
  });

  test('the iframe page fetches its language from next to embed.js, and takes strings from its URL', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 400, height: 700 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const strings = encodeURIComponent(JSON.stringify({ tabLookup: 'Termin ändern' }));
    await page.goto(`${demo.server.url}embed.html?agentId=demo-agent&apiBase=/api&chatUrl=/api/chat&locale=de-AT&strings=${strings}`);
    await page.getByRole('tab', { name: 'Buchen', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Termin ändern', exact: true }).waitFor();
    expect(await page.locator('.aw').getAttribute('lang')).toBe('de');
    await context.close();
  });

  test("without locale in its URL, the iframe page speaks the browser's language", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 400, height: 700 }, reducedMotion: 'reduce', locale: 'ja-JP' });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}embed.html?agentId=demo-agent&apiBase=/api&chatUrl=/api/chat`);
    await page.getByRole('tab', { name: ja.tabBook, exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja-JP');
    await context.close();
  });

  test('a language file that cannot load: English, lang=en, one console message', async () => {
    const { page, fetched, messages } = await openPage('de', { block: true });
    await expect.poll(() => messages.length).toBe(1);
    expect(messages[0]).toMatch(/\[AgentWidget\] Speaking English: .*\/chunks\/de\.[\w-]{8}\.js could not be loaded: /);
    expect(fetched).toEqual([expect.stringMatching(/^\/chunks\/de\./)]);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    await page.getByRole('tab', { name: 'Book', exact: true }).waitFor();
    expect(await root(page).getAttribute('lang')).toBe('en');
    expect(messages).toHaveLength(1);
    await page.context().close();
  });
});
