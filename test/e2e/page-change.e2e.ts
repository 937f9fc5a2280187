// A visitor who follows a link while a reply is on its way, in real Chromium through the demo's chat proxy
// and sandbox: the next page opens the panel again and shows the reply, and the service was asked once.
// A reload in the middle of booking's form keeps the booking, its answers and a draft never sent.
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
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

  test('a reload in the middle of the form: the panel opens on the form with every answer, and the draft typed before any message is back', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
      reducedMotion: 'reduce',
      locale: 'en-US',
      timezoneId: 'Europe/Berlin',
    });
    const page = await context.newPage();
    await demo.freezeClock(page);
    await page.goto(demo.server.url);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    const dialog = page.getByRole('dialog', { name: 'Harbor Physio' });
    await dialog.getByRole('tablist').waitFor();
    // A first visit's draft: nothing sent yet.
    await page.getByRole('textbox', { name: 'Message' }).fill('Do you take card payments?');

    await page.getByRole('tab', { name: 'Book', exact: true }).click();
    await page.getByRole('button', { name: /^30 min consultation/ }).click();
    await page.getByRole('heading', { name: 'Choose a day' }).waitFor();
    // New York's 9:00 to 17:00 is 15:00 to 23:00 in Berlin: 4:30 PM here is 10:30 AM there.
    await page.getByRole('button', { name: /^Wednesday, November 25, 2026, \d+ times available$/ }).click();
    await page.getByRole('heading', { name: 'Choose a time' }).waitFor();
    await page.getByRole('button', { name: '4:30 PM, Central European Standard Time' }).click();
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    const answers = {
      'Your name': 'Ada Lovelace',
      Email: 'ada@example.com',
      'Anything we should know? (optional)': 'Left knee, since May',
    };
    for (const [label, value] of Object.entries(answers)) await page.getByRole('textbox', { name: label }).fill(value);

    await page.reload();
    // Opened again by itself on Book, once the panel's file has come, on the form.
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Book', exact: true }).getAttribute('aria-selected')).toBe('true');
    for (const [label, value] of Object.entries(answers)) expect(await page.getByRole('textbox', { name: label }).inputValue()).toBe(value);
    // Opened by itself, the panel leaves the visitor's focus on the page.
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.screenshot({ path: 'test-results/page-change-booking-form.png' });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Check and confirm' }).waitFor();
    const review = await dialog.innerText();
    expect(review).toContain('Wednesday, November 25, 2026');
    expect(review).toMatch(/4:30\s.\s5:00\sPM/);
    expect(review).toContain('Left knee, since May');
    await page.screenshot({ path: 'test-results/page-change-booking-review.png' });

    await page.getByRole('tab', { name: 'Chat', exact: true }).click();
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('Do you take card payments?');

    // Confirmed, the booking leaves nothing under way: the next reload opens on nothing of it.
    await page.getByRole('tab', { name: 'Book', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('heading', { name: 'You are booked' }).waitFor();
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.endsWith(':booking-progress')))).toEqual([]);
    await context.close();
  });
});
