// Booking through the real demo page in Chromium: a visitor in Tokyo on a phone, keyboard only,
// from the launcher to the confirmation; a screenshot of each step goes to test-results/.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { NOW, openBook, slotGrid } from './support/booking';
import { suite, useDemo } from './support/demo';
import { defaultStrings } from '../../src/widget/i18n';
import de from '../../src/widget/i18n/locales/de';
import ko from '../../src/widget/i18n/locales/ko';

/**
 * Each visitor below has a demo server of their own: visitors come from their own addresses, so one's
 * requests (a far zone's calendar checks a month's days) do not spend another's share of the proxy's
 * perIpBooking limit.
 */
const demoOfOwn = () => useDemo({ now: NOW });

/** The focused element inside the widget's shadow root: its accessible label or text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement?.shadowRoot?.activeElement;
    return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '';
  });
}

/** Presses Tab until the focused element matches (at most 30 presses). */
async function tabTo(page: Page, match: RegExp): Promise<void> {
  for (let i = 0; i < 30; i++) {
    if (match.test(await focused(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${match}; focus is on "${await focused(page)}"`);
}

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/booking-${name}.png` });

suite('booking in Chromium', () => {
  describe('a visitor in Tokyo', () => {
    const demo = demoOfOwn();
    test('a visitor in Tokyo books on a phone with the keyboard alone', async () => {
      const context = await demo.browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        timezoneId: 'Asia/Tokyo',
        locale: 'en-US',
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      await demo.freezeClock(page);
      await page.goto(demo.server.url);
      const launcher = page.getByRole('button', { name: 'Chat with Harbor Physio' });
      await launcher.waitFor();
      await page.evaluate(() => {
        const w = window as unknown as { AgentWidget: { on: (type: string, fn: (p: unknown) => void) => void }; seen: [string, unknown][] };
        w.seen = [];
        for (const type of ['booking:date-selected', 'booking:slot-selected', 'booking:created'])
          w.AgentWidget.on(type, (payload) => w.seen.push([type, payload]));
      });

      await tabTo(page, /^Chat with Harbor Physio$/);
      await page.keyboard.press('Enter');
      // The panel's file may still be on its way: the tabs are there once it is drawn.
      await page.getByRole('tab', { name: 'Chat' }).waitFor();
      await tabTo(page, /^Chat$/);
      await page.keyboard.press('ArrowRight');
      await page.getByRole('heading', { name: 'How long do you need?' }).waitFor();
      await tabTo(page, /^30 min consultation$/);
      await shot(page, '1-duration');
      await page.keyboard.press('Enter');

      // The calendar: one tab stop on the first free day, arrows and PageDown/PageUp, then Enter.
      await page.getByRole('heading', { name: 'Choose a day' }).waitFor();
      // Tokyo's Monday overlaps New York's Sunday and Monday: counted from their slots, 9:00 to 9:45 in New York.
      const monday = /^Monday, November 23, 2026, 4 times available$/;
      await page.getByRole('button', { name: monday }).waitFor();
      await tabTo(page, monday);
      await page.keyboard.press('ArrowRight');
      expect(await focused(page)).toMatch(/^Tuesday, November 24, 2026, /);
      await page.keyboard.press('PageDown');
      expect(await focused(page)).toMatch(/^Thursday, December 24, 2026\b/);
      await page.getByRole('grid', { name: 'December 2026' }).waitFor();
      await page.keyboard.press('PageUp');
      await page.keyboard.press('ArrowLeft');
      expect(await focused(page)).toMatch(monday);
      await shot(page, '2-calendar');
      expect(await axeViolations(page)).toEqual([]);
      // Tokyo's Tuesday: from 10:00 Monday to 10:00 Tuesday in New York.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');

      await page.getByRole('heading', { name: 'Choose a time' }).waitFor();
      await page.getByText('Tuesday, November 24, 2026').waitFor();
      await page.getByText(/^Times in Japan Standard Time/).waitFor();
      const midnight = '12:00 AM, Japan Standard Time';
      await page.getByRole('button', { name: midnight }).first().waitFor();
      await tabTo(page, new RegExp(`^${midnight}$`));
      await shot(page, '3-times');
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Enter');

      await page.getByRole('heading', { name: 'Your details' }).waitFor();
      await tabTo(page, /^$/);
      await page.keyboard.type('Ada Lovelace');
      await page.keyboard.press('Tab');
      await page.keyboard.type('ada@example.com');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Left knee');
      await shot(page, '4-details');
      await page.keyboard.press('Enter');

      await page.getByRole('heading', { name: 'Check and confirm' }).waitFor();
      await tabTo(page, /^Confirm booking$/);
      await shot(page, '5-review');
      await page.keyboard.press('Enter');

      await page.getByRole('heading', { name: 'You are booked' }).waitFor();
      const text = await page.getByRole('dialog').innerText();
      // When: the visitor's clock with their zone, then the agent's once, each zone named once.
      expect(text).toMatch(/Tuesday, November 24, 2026, 12:00\s–\s12:30\sAM \(your time, Japan Standard Time\)/);
      expect(text).toMatch(/Monday, November 23, 2026, 10:00\s–\s10:30\sAM \(Eastern Standard Time, our time\)/);
      expect(text.split('Japan Standard Time')).toHaveLength(2);
      const code = /BK-[A-Z0-9]{6}/.exec(text)?.[0];
      expect(code).toBeDefined();
      const google = await page.getByRole('link', { name: 'Add to Google Calendar' }).getAttribute('href');
      expect(google).toContain('dates=20261123T150000Z/20261123T153000Z');
      const ics = page.getByRole('link', { name: 'Download calendar file (.ics)' });
      expect(await ics.getAttribute('download')).toBe(`${code}.ics`);
      const icsHref = await ics.getAttribute('href');
      const icsText = await page.evaluate((href) => fetch(href ?? '').then((r) => r.text()), icsHref);
      expect(icsText).toContain('\r\nDTSTART:20261123T150000Z\r\nDTEND:20261123T153000Z\r\n');
      await shot(page, '6-confirmed');
      expect(await axeViolations(page)).toEqual([]);

      // Enter chose each day and time once, and the API's agent-zone values went out.
      const seen = await page.evaluate(() => (window as unknown as { seen: [string, { date?: string; time?: string }][] }).seen);
      expect(seen.map(([type]) => type)).toEqual(['booking:date-selected', 'booking:slot-selected', 'booking:created']);
      expect(seen[1]?.[1]).toMatchObject({ date: '2026-11-23', time: '10:00' });

      // My booking lists the code just made, on the visitor's clock; it opens and cancels after asking.
      await tabTo(page, /^Book$/);
      await page.keyboard.press('End');
      await page.getByRole('heading', { name: 'My booking' }).waitFor();
      const remembered = `${code} Book a visit at Harbor Physio · Tue, Nov 24, 12:00 AM · Confirmed`;
      await page.getByRole('button', { name: remembered }).waitFor();
      await tabTo(page, new RegExp(`^${code}`));
      await shot(page, '7-my-booking');
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Book a visit at Harbor Physio' }).waitFor();
      await tabTo(page, /^Cancel booking$/);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Cancel this booking?' }).waitFor();
      await tabTo(page, /^Yes, cancel it$/);
      await shot(page, '8-cancel-ask');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Booking cancelled' }).waitFor();
      expect(await page.getByRole('dialog').innerText()).toContain('Cancelled');
      await shot(page, '9-cancelled');
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  });

  describe.each([
    ['en-US', 'Asia/Tokyo', defaultStrings],
    ['de-DE', 'Asia/Tokyo', de],
    ['ko-KR', 'America/Los_Angeles', ko],
  ])('at 320 px in %s (%s)', (locale, timezoneId, t) => {
    const demo = demoOfOwn();
    test('no slot label wraps or overflows and the grid stays even', async () => {
      const { context, page } = await openBook(
        demo,
        { viewport: { width: 320, height: 568 }, locale, timezoneId },
        (html) => html.replace('data-locale="en"', `data-locale="${locale}"`),
        t,
      );
      await page.getByRole('button', { name: /^30 min consultation/ }).click();
      // The 24th: a visitor day with New York's Monday office hours in it.
      await page.locator('.day[data-date="2026-11-24"]:not([aria-disabled])').click();
      await page.locator('.slot').first().waitFor();
      const grid = await slotGrid(page);
      expect(grid.count).toBeGreaterThan(10);
      expect(grid).toMatchObject({ overflowing: [], gapAtEnd: 0 });
      expect(grid.sizes).toHaveLength(1);
      expect(grid.columns).toBeGreaterThanOrEqual(2);
      await shot(page, `320-${locale}-times`);
      await context.close();
    });
  });

  describe('a visitor in Auckland', () => {
    const demo = demoOfOwn();
    test('a visitor in Auckland sees Auckland days: today, the day chosen and its times all in New Zealand time', async () => {
      const context = await demo.browser.newContext({
        viewport: { width: 1024, height: 800 },
        timezoneId: 'Pacific/Auckland',
        locale: 'en-US',
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      await demo.freezeClock(page);
      await page.goto(demo.server.url);
      await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
      await page.getByRole('tab', { name: 'Book', exact: true }).click();
      await page.getByRole('button', { name: '30 min consultation' }).click();

      // 15:00 UTC on Saturday 21 is 04:00 on Sunday 22 in Auckland; New York's Monday, 09:00 to 17:00, is Auckland's Tuesday, 03:00 to 11:00.
      await page.getByText(/^Times in New Zealand Daylight Time · /).waitFor();
      expect(await page.getByRole('button', { name: /^Sunday, November 22, 2026,/ }).getAttribute('aria-current')).toBe('date');
      await page.getByRole('button', { name: /^Tuesday, November 24, 2026, 31 times available$/ }).waitFor();
      // Saturday 21, New York's today, is already past in Auckland.
      expect(await page.getByRole('button', { name: /^Saturday, November 21, 2026,/ }).getAttribute('aria-disabled')).toBe('true');
      await shot(page, 'auckland-1-calendar');
      await page.getByRole('button', { name: /^Tuesday, November 24, 2026,/ }).click();

      await page.getByRole('heading', { name: 'Choose a time' }).waitFor();
      await page.getByText('Tuesday, November 24, 2026').waitFor();
      const times = page.getByRole('button', { name: /, New Zealand Daylight Time$/ });
      await times.first().waitFor();
      const labels = await times.allTextContents();
      expect(labels[0]).toBe('3:00 AM');
      expect(labels.at(-1)).toBe('10:30 AM');
      await shot(page, 'auckland-2-times');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: '3:00 AM, New Zealand Daylight Time' }).click();

      await page.getByRole('textbox', { name: 'Your name' }).fill('Aroha Ngata');
      await page.getByRole('textbox', { name: 'Email' }).fill('aroha@example.com');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Confirm booking' }).click();
      await page.getByRole('heading', { name: 'You are booked' }).waitFor();
      const text = await page.getByRole('dialog').innerText();
      expect(text).toMatch(/Tuesday, November 24, 2026, 3:00\s–\s3:30\sAM \(your time, New Zealand Daylight Time\)/);
      expect(text).toMatch(/Monday, November 23, 2026, 9:00\s–\s9:30\sAM \(Eastern Standard Time, our time\)/);
      await shot(page, 'auckland-3-confirmed');
      await context.close();
    });
  });
});
