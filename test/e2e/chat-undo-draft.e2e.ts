// Nothing the visitor wrote is lost in Chromium: New conversation can be undone, and a reload keeps the
// draft and the messages that did not get through. On a 320px phone the header keeps the title whole, in
// English and German (screenshots in test-results/ for a person).
import type { BrowserContext } from 'playwright-core';
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { ask, chatLog, openChat } from './support/chat';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z' });

const open = (context: BrowserContext, url = demo.server.url, launcher?: string) => openChat(context, url, launcher);

/** The demo widget on a page in German: the widget speaks it without being told. */
const germanPage = `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Harbor Physio</title></head>
<body><script src="/widget.js" async data-agent-id="demo-agent" data-api-base="/api" data-chat-url="/api/chat" data-title="Harbor Physio" data-persist="none"></script></body></html>`;

const PHONE = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, reducedMotion: 'reduce' } as const;

suite('nothing typed is lost, in Chromium', () => {
  test('New conversation clears at once; Undo brings the conversation back, also after a reload', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await open(context);
    await ask(page, 'Where are you located?');
    await chatLog(page)
      .getByRole('link', { name: /Finding us/ })
      .waitFor();
    const before = await chatLog(page).textContent();

    await page.getByRole('button', { name: 'New conversation' }).click();
    await chatLog(page).getByText('Conversation cleared.').waitFor();
    expect(await chatLog(page).textContent()).not.toContain('Where are you located?');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-cleared.png' });

    await chatLog(page).getByRole('button', { name: 'Undo' }).click();
    await chatLog(page).getByText('Where are you located?').waitFor();
    expect(await chatLog(page).textContent()).toBe(before);

    // Undo put the stored copy back too.
    await page.reload();
    // The panel opens again by itself, as the visitor left it: open, with a conversation.
    await page.getByRole('dialog', { name: 'Harbor Physio' }).waitFor();
    await chatLog(page).getByText('Where are you located?').waitFor();
    expect(await chatLog(page).textContent()).toBe(before);
    await context.close();
  });

  test('on a 320px phone the title stays whole: New conversation is its icon, named by its label, in English and German', async () => {
    for (const [lang, name, close, launcher] of [
      ['en', 'New conversation', 'Close', 'Chat with Harbor Physio'],
      ['de', 'Neues Gespräch', 'Schließen', 'Chat mit Harbor Physio'],
    ] as const) {
      const context = await demo.browser.newContext(PHONE);
      const url = lang === 'en' ? demo.server.url : `${demo.server.url}page-in-de.html`;
      await context.route(`${demo.server.url}page-in-de.html`, (route) =>
        route.fulfill({ contentType: 'text/html; charset=utf-8', body: germanPage }),
      );
      const page = await open(context, url, launcher);
      const title = page.getByRole('heading', { name: 'Harbor Physio' });
      // Not cut short: the heading's text fits its box.
      expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const start = await page.getByRole('button', { name, exact: true }).boundingBox();
      const end = await page.getByRole('button', { name: close }).boundingBox();
      expect(start && end && start.x + start.width <= end.x && end.x + end.width <= 320).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `test-results/chat-phone-new-conversation-${lang}.png` });
      await context.close();
    }
  });

  test('a reload keeps the draft and the message that did not get through, with its reason; it goes once the service is back', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await open(context);
    await ask(page, 'Where are you located?');
    await chatLog(page)
      .getByRole('link', { name: /Finding us/ })
      .waitFor();

    // The chat service cannot be reached: the next message fails.
    await page.route('**/api/chat', (route) => route.abort('connectionrefused'));
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('How much does it cost?');
    await box.press('Enter');
    await chatLog(page)
      .getByText(/can't reach the chat service/)
      .waitFor();
    await box.fill('And do you work on Saturdays?');

    await page.reload();
    // The panel opens again by itself, as the visitor left it: open, with a conversation.
    await page.getByRole('dialog', { name: 'Harbor Physio' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('And do you work on Saturdays?');
    await chatLog(page).getByText('How much does it cost?').waitFor();
    // Its own reason, not "Stopped.": the visitor never pressed Stop. The new page tried it again at once.
    await chatLog(page)
      .getByText(/can't reach the chat service/)
      .waitFor();
    expect(await chatLog(page).getByText('Stopped.').count()).toBe(0);
    await page.screenshot({ path: 'test-results/chat-reloaded.png' });

    // The service is back: the message goes by itself on its next backoff, with the same messageId.
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/chat') && r.request().method() === 'POST');
    await page.unroute('**/api/chat');
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toMatchObject({ message: 'How much does it cost?' });
    await chatLog(page)
      .getByText(/can't reach the chat service/)
      .waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('And do you work on Saturdays?');
    await context.close();
  });
});
