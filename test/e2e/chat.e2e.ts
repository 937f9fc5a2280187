// The chat in real Chromium: a round trip through the demo's chat proxy to the sandbox, Markdown
// as elements, the conversation kept across a reload, axe on a conversation, screenshots.
import type { BrowserContext } from 'playwright-core';
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { ask, chatLog, openChat } from './support/chat';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z' });

const open = (context: BrowserContext) => openChat(context, demo.server.url);

suite('chat in Chromium', () => {
  test('a question goes through the proxy to the sandbox and the answer renders with its source', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await open(context);
    await ask(page, 'What are your opening hours?');
    await chatLog(page).getByText('Sunday:').waitFor();
    expect(await chatLog(page).locator('li').count()).toBeGreaterThanOrEqual(3);
    const source = chatLog(page).getByRole('link', { name: /Opening hours/ });
    expect(await source.getAttribute('target')).toBe('_blank');
    expect(await source.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    await page.screenshot({ path: 'test-results/chat-desktop-answer.png' });
    await context.close();
  });

  test('Markdown arrives as elements; axe finds nothing in the conversation', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await open(context);
    await ask(page, '/markdown-test');
    await chatLog(page).getByText('Heading one').waitFor();
    expect(await chatLog(page).locator('strong', { hasText: 'Heading one' }).count()).toBe(1);
    expect(await chatLog(page).locator('em', { hasText: 'italic' }).count()).toBe(1);
    expect(await chatLog(page).locator('pre code').textContent()).toBe('const code = "block";');
    expect(await chatLog(page).getByRole('link', { name: /email/ }).getAttribute('href')).toBe('mailto:hello@example.com');
    // Bare URLs, addresses and numbers are links; an image is a link named by its alt text, never loaded.
    const bare = chatLog(page).getByRole('link', {
      name: /^(https:\/\/example\.com\/harbor-physio\/prices|front-desk@|\+1 \(555\)|Treatment room)/,
    });
    expect(await bare.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      'https://example.com/harbor-physio/prices',
      'mailto:front-desk@example.com',
      'tel:+15550100199',
      'https://example.com/room.jpg',
    ]);
    expect(await chatLog(page).locator('img').count()).toBe(0);
    // A table: its column headers name the cells.
    const table = chatLog(page).getByRole('table');
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Appointment', 'Length', 'Price']);
    expect(await table.getByRole('cell', { name: '$120' }).count()).toBe(1);
    // Its headers are bold and its columns fit their text: the calendar's fixed, muted table rules stay
    // in the calendar.
    const header = await table
      .getByRole('columnheader')
      .first()
      .evaluate((th) => getComputedStyle(th).fontWeight);
    expect(Number(header)).toBeGreaterThanOrEqual(600);
    const widths = await table.getByRole('columnheader').evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().width));
    expect(new Set(widths.map(Math.round)).size).toBeGreaterThan(1);
    // It stays inside the reply's bubble.
    expect(await table.evaluate((t) => !!t.parentElement && t.parentElement.scrollWidth <= t.parentElement.clientWidth)).toBe(true);
    // The question and its reply are one burst: the reply says when.
    expect(await chatLog(page).locator('time').allTextContents()).toEqual(['now']);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-desktop-markdown.png' });
    await context.close();
  });

  test('asked about booking, the conversation offers Book a time, which opens the booking flow', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: 'reduce',
    });
    const page = await open(context);
    await ask(page, 'Can I book an appointment for next week?');
    const offer = chatLog(page).getByRole('button', { name: 'Book a time' });
    await offer.waitFor();
    await page.screenshot({ path: 'test-results/chat-phone-book-offer.png' });
    await offer.click();
    await page.getByRole('heading', { name: 'How long do you need?' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Book', exact: true }).getAttribute('aria-selected')).toBe('true');
    await context.close();
  });

  test('a reload keeps the conversation and continues it', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await open(context);
    await ask(page, 'Where are you located?');
    await chatLog(page)
      .getByRole('link', { name: /Finding us/ })
      .waitFor();
    const before = await chatLog(page).textContent();

    await page.reload();
    // The panel opens again by itself, as the visitor left it: open, with a conversation.
    await page.getByRole('dialog', { name: 'Harbor Physio' }).waitFor();
    await chatLog(page).getByText('Where are you located?').waitFor();
    expect(await chatLog(page).textContent()).toBe(before);

    const sent = page.waitForRequest((r) => r.url().endsWith('/api/chat'));
    await ask(page, 'How much does it cost?');
    expect((await sent).postDataJSON()).toMatchObject({ agentId: 'demo-agent', message: 'How much does it cost?' });
    await context.close();
  });

  test('at 320 px a wide table scrolls on its own, and the keyboard can scroll it', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 320, height: 640 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: 'reduce',
    });
    const page = await open(context);
    await ask(page, '/markdown-test');
    const table = chatLog(page).getByRole('table');
    await table.scrollIntoViewIfNeeded();
    const [scrollWidth, clientWidth] = await table.evaluate((t) => [t.scrollWidth, t.clientWidth]);
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    await table.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => table.evaluate((t) => t.scrollLeft)).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-phone-table.png' });
    await context.close();
  });

  test('on a phone the conversation fills the screen and stays readable', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 375, height: 667 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: 'reduce',
    });
    const page = await open(context);
    await ask(page, 'hello');
    await ask(page, 'What are your prices?');
    await chatLog(page)
      .getByRole('link', { name: /Prices/ })
      .waitFor();
    const composer = await page.getByRole('textbox', { name: 'Message' }).boundingBox();
    expect(composer && composer.y + composer.height).toBeLessThanOrEqual(667);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-phone-conversation.png' });
    await context.close();
  });

  test('on a phone, the keyboard coming up keeps the newest message in view above the composer', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: 'reduce',
    });
    const page = await open(context);
    await ask(page, 'What are your prices?');
    await ask(page, 'What are your opening hours?');
    await chatLog(page).getByText('Sunday:').waitFor();
    // What the on-screen keyboard does to the page: the viewport loses its lower part.
    await page.setViewportSize({ width: 390, height: 450 });
    const newestInView = async () =>
      chatLog(page).evaluate((log) => {
        const rows = log.querySelectorAll('.msg');
        const newest = rows[rows.length - 1]?.getBoundingClientRect();
        const visible = log.getBoundingClientRect();
        return newest !== undefined && newest.bottom <= visible.bottom + 1 && newest.bottom > visible.top;
      });
    await expect.poll(newestInView).toBe(true);
    await page.screenshot({ path: 'test-results/chat-phone-keyboard.png' });
    await context.close();
  });
});

suite('chat when the service is down', () => {
  test('online with the proxy refusing connections: the visitor is not blamed, and the message goes by itself once it is back', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await open(context);
    let refused = 0;
    // The proxy is down: every connection to it is refused, as when its server is stopped.
    await page.route('**/api/chat', (route) => {
      refused++;
      return route.abort('connectionrefused');
    });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Are you open on Saturday?');
    await box.press('Enter');
    await chatLog(page).getByText("We can't reach the chat service right now. Your message was not sent.").waitFor();
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    expect(
      await chatLog(page)
        .getByText(/offline/)
        .count(),
    ).toBe(0);
    expect(await chatLog(page).getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    await box.fill('still typing');
    await page.screenshot({ path: 'test-results/chat-unreachable.png' });

    // The first automatic resend (2 s later) is refused too; then the proxy is back.
    await expect.poll(() => refused, { timeout: 5000 }).toBe(2);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/chat') && r.request().method() === 'POST');
    await page.unroute('**/api/chat');
    expect((await answered).status()).toBe(200);
    await chatLog(page)
      .getByText(/Saturday:/)
      .waitFor();
    expect(
      await chatLog(page)
        .getByText(/can't reach/)
        .count(),
    ).toBe(0);
    expect(await box.inputValue()).toBe('still typing');
    await page.screenshot({ path: 'test-results/chat-unreachable-delivered.png' });
    await context.close();
  });

  test('really offline: the visitor is told so, and the message goes when the browser is back online', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await open(context);
    await context.setOffline(true);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Are you open on Saturday?');
    await box.press('Enter');
    await chatLog(page)
      .getByText(/Not sent: you seem to be offline/)
      .waitFor();
    expect(
      await chatLog(page)
        .getByText(/can't reach/)
        .count(),
    ).toBe(0);
    await page.screenshot({ path: 'test-results/chat-offline.png' });
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/chat') && r.request().method() === 'POST');
    await context.setOffline(false);
    expect((await answered).status()).toBe(200);
    await chatLog(page)
      .getByText(/Saturday:/)
      .waitFor();
    expect(
      await chatLog(page)
        .getByText(/offline/)
        .count(),
    ).toBe(0);
    await context.close();
  });
});

suite('a long conversation in Chromium', () => {
  test('200 stored messages: the newest are drawn at once; scrolling up draws older ones without moving what is on screen', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const at = Date.parse('2026-11-23T13:00:00Z');
    const messages = Array.from({ length: 200 }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? 'agent' : 'user',
      text: `Message ${i}`,
      at: at + i * 1000,
    }));
    await context.addInitScript(
      (stored) => localStorage.setItem('agent-widget:demo-agent:chat', stored),
      JSON.stringify({ at, value: { conversationId: 'conv-long', messages } }),
    );
    const page = await open(context);
    await chatLog(page).getByText('Message 199', { exact: true }).waitFor();
    expect(await chatLog(page).getByText('Message 100', { exact: true }).count()).toBe(0);
    const drawn = () => page.getByText(/^Message \d+$/).count();
    const firstDrawn = await drawn();
    // Scrolled up to the top: the next batch is drawn above, and the message that was at the top stays put.
    const before = await chatLog(page).evaluate((el) => {
      el.scrollTop = 0;
      const top = el.querySelector('.msg .bubble');
      return { text: top?.textContent ?? '', y: top?.getBoundingClientRect().top ?? NaN };
    });
    await expect.poll(drawn).toBeGreaterThan(firstDrawn);
    const after = await chatLog(page).evaluate(
      (el, text) =>
        [...el.querySelectorAll('.msg .bubble')].find((bubble) => bubble.textContent === text)?.getBoundingClientRect().top ?? NaN,
      before.text,
    );
    expect(Math.abs(after - before.y)).toBeLessThanOrEqual(2);
    // From the keyboard or a screen reader: the button at the top draws the rest.
    while (await page.getByRole('button', { name: 'Show earlier messages' }).count())
      await page.getByRole('button', { name: 'Show earlier messages' }).click();
    await chatLog(page).getByText('Message 0', { exact: true }).waitFor();
    await chatLog(page).getByText("Hi! I'm Harbor Physio's assistant.", { exact: false }).waitFor();
    await context.close();
  });
});
