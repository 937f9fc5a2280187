// Short screens (issue 31.4): a phone in landscape (844x390, touch) and a 1280x720 window at 200% zoom
// (640x360). The header and the tabs share one compact row, and the calendar's first screen shows a
// bookable day, in Auckland too, where the month's first weeks are all past or closed. A phone held
// upright (390x844) keeps its two rows and its calendar where they were.
// Screenshots go to test-results/short-<width>x<height>-<step>.png.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { NOW, openBook } from './support/booking';
import { suite, useDemo } from './support/demo';

/** The widget's header, tab list and view, as drawn: top and bottom in CSS pixels. */
const layout = (page: Page) =>
  page.getByRole('dialog').evaluate((panel) => {
    const edges = (selector: string) => {
      const box = panel.querySelector(selector)?.getBoundingClientRect();
      return { top: Math.round(box?.top ?? -1), bottom: Math.round(box?.bottom ?? -1) };
    };
    return { header: edges('.header'), tabs: edges('[role="tablist"]'), view: edges('[role="tabpanel"]:not([hidden])') };
  });

/** The first day the calendar offers (its date), and whether all of it is on screen, inside the view below the header. */
const firstBookableDay = (page: Page) =>
  page
    .getByRole('button', { name: /, (\d+ )?times? available$/ })
    .first()
    .evaluate((day) => {
      const box = day.getBoundingClientRect();
      const view = day.closest('[role="tabpanel"]')?.getBoundingClientRect();
      return {
        date: day.getAttribute('data-date'),
        inView: !!view && box.top >= view.top && box.bottom <= Math.min(view.bottom, window.innerHeight),
      };
    });

/** The month's days, once their availability is known (the grid is no longer busy). */
const daysKnown = (page: Page) => page.locator('table[role="grid"]:not([aria-busy])').waitFor();

suite('short screens', () => {
  const demo = useDemo({ now: NOW });

  for (const [name, device] of [
    ['phone in landscape', { viewport: { width: 844, height: 390 }, isMobile: true, hasTouch: true }],
    ['a window at 200% zoom', { viewport: { width: 640, height: 360 } }],
  ] as const)
    test(`${name}: one compact header row with the tabs, and a bookable day on the calendar's first screen`, async () => {
      const { width, height } = device.viewport;
      const shot = (step: string) => page.screenshot({ path: `test-results/short-${width}x${height}-${step}.png` });
      const { context, page } = await openBook(demo, { ...device, timezoneId: 'Pacific/Auckland' });
      await page.getByRole('button', { name: '30 min consultation', exact: true }).waitFor();
      const { header, tabs, view } = await layout(page);
      // One row of 44 px (a touch target's height) at most, the tabs in it; the views get the rest.
      expect(header.top).toBe(0);
      expect(header.bottom).toBeLessThanOrEqual(48);
      expect(tabs).toEqual(header);
      expect(view.top).toBe(header.bottom);
      // Every tab's label fits its tab.
      const clipped = await page.getByRole('tab').evaluateAll((all) => all.filter((tab) => tab.scrollWidth > tab.clientWidth).length);
      expect(clipped).toBe(0);
      // The compact row fits: nothing in the panel or the page scrolls sideways.
      const sideways = await page.getByRole('dialog').evaluate((panel) =>
        [panel, ...panel.querySelectorAll('*'), document.documentElement]
          .filter((el) => el === document.documentElement || ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
      );
      expect(sideways).toEqual([]);
      await shot('1-duration');

      await page.getByRole('button', { name: '30 min consultation', exact: true }).click();
      await daysKnown(page);
      // In Auckland the 1st to the 22nd are past or closed: three weeks of grey days before the first free one.
      await expect.poll(() => firstBookableDay(page)).toEqual({ date: expect.stringMatching(/^2026-11-(2[3-9]|30)$/), inView: true });
      await shot('2-calendar');
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });

  test('a phone held upright keeps its two rows, and its calendar is not scrolled', async () => {
    const { context, page } = await openBook(demo, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      timezoneId: 'Pacific/Auckland',
    });
    await page.getByRole('button', { name: '30 min consultation', exact: true }).click();
    await daysKnown(page);
    const { header, tabs, view } = await layout(page);
    expect(tabs.top).toBe(header.bottom);
    expect(view.top).toBe(tabs.bottom);
    expect(await firstBookableDay(page)).toMatchObject({ inView: true });
    expect(await page.getByRole('tabpanel', { name: 'Book' }).evaluate((panel) => panel.scrollTop)).toBe(0);
    // The step's heading is still on screen: nothing scrolled it away.
    expect(await page.getByRole('heading', { name: 'Choose a day' }).isVisible()).toBe(true);
    await page.screenshot({ path: 'test-results/short-390x844-2-calendar.png' });
    await context.close();
  });
});
