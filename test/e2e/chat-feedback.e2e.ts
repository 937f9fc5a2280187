// Copy and feedback under a reply in real Chromium: Copy puts the reply on the real clipboard, the
// thumbs work from the keyboard and reach the page's handler (the README's analytics recipe), axe finds
// nothing; screenshots at 1280 and 320 px wide, and right to left, for a person to look at.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import he from '../../src/widget/i18n/locales/he';
import { axeViolations } from './support/axe';
import { ask, chatLog, openChat } from './support/chat';
import { suite, useDemo } from './support/demo';

const NOW = '2026-11-23T14:00:00Z';
const demo = useDemo({ now: NOW });

/** The sandbox's Markdown sample (its reply to "/markdown-test") as Copy puts it on the clipboard as text. */
const COPIED_TEXT = [
  'Heading one',
  '',
  'Heading two',
  '',
  'A paragraph with bold, italic, inline code and a link (https://example.com/harbor-physio). A second line in the same paragraph.',
  '',
  '- bullet one',
  '- bullet two with bold',
  '',
  '1. first',
  '2. second',
  '',
  '> A quoted line.',
  '',
  'const code = "block";',
  '',
  'Contact: email (hello@example.com) or phone (+15550100).',
  '',
  'Bare: https://example.com/harbor-physio/prices, front-desk@example.com or +1 (555) 010-0199.',
  '',
  'Treatment room with a window (https://example.com/room.jpg)',
  '',
  'Appointment | Length | Price',
  'Intro call | 15 min | free',
  'Treatment session with a longer name than fits | 60 min | $120',
].join('\n');

/** The calls the README's recipe made to the page's analytics (gtag stubbed to record them). */
const analytics = (page: Page) => page.evaluate(() => (window as unknown as { calls: unknown[][] }).calls);

suite('feedback in Chromium', () => {
  test('Helpful from the keyboard reaches the page', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await demo.installClock(page);
    await page.goto(demo.server.url);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    // The README's recipe, as an owner's page runs it, with gtag recording its calls.
    await page.evaluate(() => {
      const w = window as unknown as { calls: unknown[][]; gtag: (...args: unknown[]) => void };
      w.calls = [];
      w.gtag = (...args) => w.calls.push(args);
    });
    await page.addScriptTag({
      content: `AgentWidget.on('message:feedback', ({ id, conversationId, value }) => {
  gtag('event', 'chat_feedback', { message_id: id, conversation_id: conversationId, value });
});`,
    });
    const received = page.evaluate(
      () =>
        new Promise<{ id: string; conversationId?: string }>((resolve) =>
          (
            window as unknown as { AgentWidget: { on: (type: string, fn: (p: { id: string; conversationId?: string }) => void) => void } }
          ).AgentWidget.on('message:received', resolve),
        ),
    );
    await ask(page, '/markdown-test');
    await chatLog(page).getByText('Heading one').waitFor();
    const reply = await received;

    // From the keyboard: Shift+Tab from the composer back through the log's controls to Helpful, then Enter.
    const helpful = chatLog(page).getByRole('button', { name: 'Helpful', exact: true });
    const focused = () => helpful.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement);
    for (let presses = 0; presses < 6 && !(await focused()); presses++) await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await helpful.getAttribute('aria-pressed')).toBe('true');
    expect(await analytics(page)).toEqual([
      ['event', 'chat_feedback', { message_id: reply.id, conversation_id: reply.conversationId, value: 'up' }],
    ]);
    expect(reply.conversationId).toBeTruthy();

    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-feedback-desktop.png' });
    await context.close();
  });

  test('Copy puts the reply on the clipboard as readable text and as HTML with its formatting', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
      reducedMotion: 'reduce',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await openChat(context, demo.server.url);
    await ask(page, '/markdown-test');
    await chatLog(page).getByText('Heading one').waitFor();
    await chatLog(page).getByRole('button', { name: 'Copy', exact: true }).click();
    await chatLog(page).getByRole('button', { name: 'Copied', exact: true }).waitFor();
    // The reply as a person reads it: no Markdown, each link's address after its text, the table's rows.
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(COPIED_TEXT);
    // And its formatting, for a paste into mail or a document.
    const html = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      return item ? (await item.getType('text/html')).text() : '';
    });
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<a href="https://example.com/harbor-physio">link</a>');
    expect(html).toContain('<th>Appointment</th><th>Length</th><th>Price</th>');
    expect(html).not.toMatch(/class=|target=|opens in a new tab/);
    // Copied is read out from the log, then the button is Copy again.
    await chatLog(page).getByRole('button', { name: 'Copy', exact: true }).waitFor();
    await context.close();
  });

  test('320 px wide: the buttons fit under the reply and are at least 32 px square', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 320, height: 640 },
      hasTouch: true,
      isMobile: true,
      reducedMotion: 'reduce',
    });
    const page = await openChat(context, demo.server.url);
    await ask(page, 'What are your opening hours?');
    await chatLog(page).getByText('Sunday:').waitFor();
    await chatLog(page).getByRole('button', { name: 'Not helpful' }).tap();
    const boxes = await Promise.all(
      ['Copy', 'Helpful', 'Not helpful'].map((name) => chatLog(page).getByRole('button', { name, exact: true }).boundingBox()),
    );
    for (const box of boxes) {
      expect(box && Math.min(box.width, box.height)).toBeGreaterThanOrEqual(32);
      expect(box && box.x + box.width).toBeLessThanOrEqual(320);
    }
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-feedback-320.png' });
    await context.close();
  });

  test('right to left (Hebrew): the same buttons, thumbs up and down not mirrored', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 320, height: 640 },
      hasTouch: true,
      isMobile: true,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const url = `${demo.server.url}page-in-he.html`;
    await page.route(url, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html lang="he" dir="rtl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Harbor Physio</title></head>
<body><script src="/widget.js" async data-agent-id="demo-agent" data-api-base="/api" data-chat-url="/api/chat" data-title="Harbor Physio" data-color="#0f766e" data-persist="none"></script></body></html>`,
      }),
    );
    await page.goto(url);
    await page.getByRole('button', { name: he.launcherLabel.replace('{title}', 'Harbor Physio') }).click();
    const box = page.getByRole('textbox', { name: he.messageLabel });
    await box.fill('What are your opening hours?');
    await box.press('Enter');
    const log = page.getByRole('log', { name: he.conversation });
    await log.getByText('Sunday:').waitFor();
    await log.getByRole('button', { name: he.helpful, exact: true }).tap();
    expect(await log.getByRole('button', { name: he.helpful, exact: true }).getAttribute('aria-pressed')).toBe('true');
    // Thumbs down is thumbs up turned half a turn, in either direction of text.
    expect(await log.getByRole('button', { name: he.notHelpful }).evaluate((el) => getComputedStyle(el).scale)).toBe('-1');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-feedback-rtl.png' });
    await context.close();
  });
});
