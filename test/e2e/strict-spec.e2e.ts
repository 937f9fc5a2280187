// The demo in Chromium against the sandbox in strict-spec mode (answers the spec allows but our normal
// sandbox never sends) with a gateway that fails once: what a visitor meets in front of the real service.
// Also what a screen reader is given, read from Chromium's own accessibility tree.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { suite, useDemo } from './support/demo';

/** Saturday 21 November 2026, 10:00 in New York (the agent). */
const NOW = '2026-11-21T15:00:00Z';

const demo = useDemo({ now: NOW, strict: true, faults: '/booking/public/config:gateway:1,/booking/public/lookup:shape:1' });

interface AXNode {
  role?: { value?: string };
  name?: { value?: string };
  description?: { value?: string };
}

/** Chromium's accessibility tree: what assistive technology is given. */
async function accessibilityTree(page: Page): Promise<AXNode[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
  await cdp.detach();
  return nodes;
}

async function openBook(page: Page): Promise<void> {
  await demo.freezeClock(page);
  await page.goto(demo.server.url);
  await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
  await page.getByRole('tab', { name: 'Book', exact: true }).click();
}

suite('strict-spec service in Chromium', () => {
  test('a gateway error page on the first config request: the service is out of reach, Try again, then the flow; a taken slot as a plain 400', async () => {
    const context = await demo.browser.newContext({ timezoneId: 'America/New_York', locale: 'en-US' });
    const page = await context.newPage();
    await openBook(page);
    const alert = page.getByRole('alert');
    await alert.getByText("We can't reach the booking service right now. Please try again in a moment.").waitFor();
    await page.screenshot({ path: 'test-results/strict-gateway.png' });
    await alert.getByRole('button', { name: 'Try again' }).click();

    await page.getByRole('button', { name: '30 min consultation' }).click();
    // Strict answers carry no slotCount: a free day still says it has times.
    await page.getByRole('button', { name: 'Monday, November 23, 2026, times available' }).click();
    await page.getByRole('button', { name: /^9:00 AM, Eastern/ }).click();
    await page.getByRole('textbox', { name: 'Your name' }).fill('Ada Lovelace');
    await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Check and confirm' }).waitFor();

    // Someone else takes 9:00 first; the strict service refuses with a plain 400 and no code.
    const taken = await fetch(new URL('sandbox/booking/public/create', demo.server.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        agentId: 'demo-agent',
        conversationId: 'someone-else',
        date: '2026-11-23',
        time: '09:00',
        durationOptionId: 'consult-30',
        formData: { name: 'Bob', email: 'bob@example.com' },
      }),
    });
    expect(taken.status).toBe(200);
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByText('Sorry, 9:00 AM was just taken. The nearest free times:').waitFor();
    await page.screenshot({ path: 'test-results/strict-taken.png' });
    await page
      .getByRole('alert')
      .getByRole('button', { name: /^9:30 AM, Eastern/ })
      .click();
    expect(await page.getByRole('textbox', { name: 'Your name' }).inputValue()).toBe('Ada Lovelace');
    await context.close();
  });

  test('My booking: a lookup answered with the wrong shape gets Try again; a status word the spec does not name is shown as written', async () => {
    const api = (path: string, body: unknown) =>
      fetch(new URL(`sandbox/booking/public/${path}`, demo.server.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then((res) => res.json() as Promise<{ booking?: { booking_code: string } }>);
    const made = await api('create', {
      agentId: 'demo-agent',
      conversationId: 'e2e-status',
      date: '2026-11-30',
      time: '11:00',
      durationOptionId: 'consult-30',
      formData: { name: 'Ada', email: 'ada@example.com' },
    });
    const code = made.booking?.booking_code ?? '';
    await api('cancel', { agentId: 'demo-agent', bookingCode: code });

    const context = await demo.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await demo.freezeClock(page);
    await page.goto(demo.server.url);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    await page.getByRole('tab', { name: 'My booking' }).click();
    await page.getByRole('textbox', { name: 'Booking code' }).fill(code);
    await page.getByRole('button', { name: 'Find booking' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Something went wrong. Please try again.').waitFor();
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('canceled by user').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
    await page.screenshot({ path: 'test-results/strict-lookup.png' });
    await context.close();
  });

  test('the chat works when /chat names its reply and conversation id differently', async () => {
    const context = await demo.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(demo.server.url);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('What are your opening hours?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('log')
      .getByText(/Monday/)
      .first()
      .waitFor();
    await context.close();
  });

  test('assistive technology hears full weekday names, form errors without the "!" mark, and each icon button once', async () => {
    const context = await demo.browser.newContext({ timezoneId: 'America/New_York', locale: 'en-US' });
    const page = await context.newPage();
    await openBook(page);
    await page.getByRole('button', { name: '30 min consultation' }).click();
    await page.getByRole('grid').waitFor();
    await page.getByRole('button', { name: 'Monday, November 23, 2026, times available' }).click();
    await page.getByRole('button', { name: /^10:00 AM, Eastern/ }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Your name is required.').waitFor();

    const nodes = await accessibilityTree(page);
    const named = (role: string) => nodes.filter((n) => n.role?.value === role).map((n) => n.name?.value ?? '');
    const texts = named('StaticText');
    expect(texts.filter((name) => name.includes('is required'))).toEqual(['Your name is required.', 'Email is required.']);
    // The visual "!" before each error is CSS content with empty alternative text: nothing to hear.
    expect(texts.filter((name) => name.includes('!'))).toEqual([]);
    for (const label of ['New conversation', 'Close']) {
      const button = nodes.find((n) => n.role?.value === 'button' && n.name?.value === label);
      expect(button, label).toBeDefined();
      expect(button?.description?.value ?? '', label).toBe('');
    }

    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('grid').waitFor();
    const headers = (await accessibilityTree(page)).filter((n) => n.role?.value === 'columnheader').map((n) => n.name?.value);
    // The page's own price table has column headers too; the calendar's are the full day names, never a letter.
    expect(headers).toEqual(expect.arrayContaining(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']));
    expect(headers.filter((name) => (name ?? '').length <= 2)).toEqual([]);
    await context.close();
  });
});
