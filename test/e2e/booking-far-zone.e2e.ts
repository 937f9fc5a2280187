// A visitor in Auckland (18 hours ahead of the demo's New York agent) in Chromium against the demo: every
// day the calendar offers, in each bookable month, leads to times, as many as the day's label says, and
// no day with times is shown as not available. Prints what each month's check cost: slots requests, and
// how long the month said it was checking.
import { expect, test } from 'vitest';
import { NOW, openBook } from './support/booking';
import { suite, useDemo } from './support/demo';
import { defaultStrings as t } from '../../src/widget/i18n';

const demo = useDemo({ now: NOW });
const ZONE_NAME = 'New Zealand Daylight Time';
/** A check that meets the proxy's perIp limit (30 a minute) waits for its reset: up to a minute. */
const CHECK_TIMEOUT_MS = 90_000;

suite('a visitor far from the agent', () => {
  test('in Auckland, every day offered in November, December and January leads to its times', async () => {
    const { context, page } = await openBook(demo, { viewport: { width: 1024, height: 800 }, timezoneId: 'Pacific/Auckland' });
    const slotsAsked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/booking/public/slots')) slotsAsked.push(url.searchParams.get('date') ?? '');
    });
    /** Slots requests the proxy refused with a 429: asked again after its reset. */
    let busy = 0;
    page.on('response', (response) => {
      if (response.url().includes('/booking/public/slots') && response.status() === 429) busy++;
    });
    const checking = page.getByRole('status').filter({ hasText: t.checkingDays });
    const report: string[] = [];

    /** Waits for month `name` to be checked; returns how long it said so, in ms (from the click that showed it). */
    async function checked(name: string, shownAt: number): Promise<number> {
      const grid = page.getByRole('grid', { name });
      // Busy while the month's dates load; its days are known, or being checked, once it is not.
      await expect.poll(() => grid.getAttribute('aria-busy')).toBeNull();
      await grid
        .getByRole('button', { name: /, checking for times$/ })
        .first()
        .waitFor({ state: 'detached', timeout: CHECK_TIMEOUT_MS });
      await checking.waitFor({ state: 'detached' });
      return Date.now() - shownAt;
    }

    let shownAt = Date.now();
    // Counted from the click that shows a month: its check starts at once.
    let busyBefore = 0;
    let askedBefore = 0;
    await page.getByRole('button', { name: '30 min consultation' }).click();
    // Each month's open New York days not asked for before: 23 to 30 November but Sunday (7); 1 to 31
    // December but Sundays (27; Auckland's 1 December is New York's 30 November, fetched for November);
    // 1 to 20 January but Sundays (17).
    for (const [month, agentDays, next] of [
      ['November 2026', 7, true],
      ['December 2026', 27, true],
      ['January 2027', 17, false],
    ] as const) {
      if (month === 'December 2026') {
        // The proxy's perIp window is spent by now: December says it is checking until it resets.
        await checking.waitFor();
        await page.screenshot({ path: 'test-results/booking-far-zone-checking.png' });
      }
      const took = await checked(month, shownAt);
      const cost = slotsAsked.length - askedBefore;
      expect(cost - (busy - busyBefore)).toBe(agentDays);
      const grid = page.getByRole('grid', { name: month });
      // Every day with times is counted: none is offered without knowing it has times.
      expect(await grid.getByRole('button', { name: /, times available$/ }).count()).toBe(0);
      const offered = await grid
        .getByRole('button', { name: /, \d+ times? available$/ })
        .evaluateAll((days) => days.map((day) => day.getAttribute('aria-label') ?? ''));
      expect(offered.length).toBeGreaterThan(0);
      // New York's Sunday is closed and its Monday opens at 9:00, 3:00 on Tuesday here: no Monday has times.
      expect(offered.filter((label) => label.startsWith('Monday'))).toEqual([]);
      for (const label of offered) {
        const count = Number(/, (\d+) times? available$/.exec(label)?.[1]);
        await grid.getByRole('button', { name: label, exact: true }).click();
        await page.getByRole('heading', { name: t.timeHeading }).waitFor();
        const times = page.getByRole('button', { name: new RegExp(`, ${ZONE_NAME}$`) });
        await times.first().waitFor();
        expect([label, await times.count()]).toEqual([label, count]);
        expect(await page.getByText(t.noSlots).count()).toBe(0);
        await page.getByRole('button', { name: t.back }).click();
        await grid.waitFor();
      }
      // Choosing the days asked for nothing more: the check had fetched them.
      expect(slotsAsked.length).toBe(askedBefore + cost);
      report.push(
        `${month}: ${offered.length} days offered, ${cost} slots requests (${busy - busyBefore} of them 429), checking for ${took} ms`,
      );
      if (next) {
        shownAt = Date.now();
        askedBefore = slotsAsked.length;
        busyBefore = busy;
        await page.getByRole('button', { name: t.nextMonth }).click();
      }
    }
    // Each New York day was answered once, whichever month asked first; a 429 was asked again.
    expect(new Set(slotsAsked).size).toBe(slotsAsked.length - busy);
    console.log(`Auckland, the demo agent in New York:\n${report.join('\n')}`);
    await context.close();
  }, 240_000);
});
