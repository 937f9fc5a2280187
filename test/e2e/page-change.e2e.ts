// A visitor who follows a link while a reply is on its way, in real Chromium through the demo's chat proxy
// and sandbox: the next page opens the panel again and shows the reply, and the service was asked once.
import { expect, test } from 'vitest';
import { suite, useDemo } from './support/demo';

// The sandbox's first chat answer comes 3 s late: time to leave the page while it is on its way.
const demo = useDemo({ now: '2026-11-23T14:00:00Z', faults: '/chat:slow:1', log: true });

suite('moving to another page in Chromium', () => {
  test('the reply asked for on one page is shown on the next, asked of the service once', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(demo.server.url);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('What are your opening hours?');
    await message.press('Enter');
    await page.getByText('Harbor Physio is typing…').waitFor();

    // Another page of the site, while the reply is on its way.
    await page.goto(`${demo.server.url}?page=prices`);
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('What are your opening hours?').waitFor();
    // The sandbox's answer to opening hours lists the days.
    await log.getByText('Sunday:').waitFor();
    await page.screenshot({ path: 'test-results/page-change-reply.png' });
    expect(await page.getByRole('button', { name: 'Chat with Harbor Physio' }).getAttribute('aria-expanded')).toBe('true');
    expect(await log.getByText('Stopped.').count()).toBe(0);

    // The log lines reach the test's pipe a moment after the answer reaches the page.
    await expect.poll(() => demo.server.logEntries().filter((entry) => entry.event === 'chat').length).toBe(2);
    const chats = demo.server.logEntries().filter((entry) => entry.event === 'chat');
    // The first page's request got its reply (to a page that was gone) and kept it; the next page's repeat was answered from it.
    expect(chats).toHaveLength(2);
    expect(chats.filter((entry) => entry.upstreamStatus === 200)).toHaveLength(1);
    expect(chats.filter((entry) => entry.fromReplyCache === true)).toHaveLength(1);
    await context.close();
  });
});
