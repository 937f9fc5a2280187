// Shared by the booking e2e files: the Book tab in a fresh page, and what the slot grid looks like.
import type { Browser, Page } from 'playwright-core';
import type { Demo } from './demo';
import { defaultStrings, type Strings } from '../../../src/widget/i18n';
import { fmt } from '../../../src/widget/i18n/format';

/** Saturday 21 November 2026, 10:00 in New York (the agent), midnight in Tokyo. */
export const NOW = '2026-11-21T15:00:00Z';

/**
 * The widget's Book tab in a fresh page; `html` may rewrite the demo page (its data-locale, say), and `t`
 * is the dictionary of the language the widget then speaks.
 */
export async function openBook(
  demo: Demo,
  options: Parameters<Browser['newContext']>[0],
  html = (text: string) => text,
  t: Strings = defaultStrings,
) {
  const context = await demo.browser.newContext({ locale: 'en-US', reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  await demo.freezeClock(page);
  await page.route(demo.server.url, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: html(await response.text()) });
  });
  await page.goto(demo.server.url);
  await page.getByRole('button', { name: fmt(t.launcherLabel, { title: 'Harbor Physio' }) }).click();
  await page.getByRole('tab', { name: t.tabBook, exact: true }).click();
  return { context, page };
}

/** Slot buttons that overflow (a label that does not fit), and the distinct button sizes and column edges. */
export const slotGrid = (page: Page) =>
  page
    .locator('.slots')
    .first()
    .evaluate((list) => {
      const buttons = [...list.querySelectorAll('button')];
      const box = list.getBoundingClientRect();
      const rects = buttons.map((b) => b.getBoundingClientRect());
      return {
        count: buttons.length,
        overflowing: buttons.filter((b) => b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight).map((b) => b.textContent),
        sizes: [...new Set(rects.map((r) => `${Math.round(r.width)}x${Math.round(r.height)}`))],
        columns: new Set(rects.map((r) => Math.round(r.left))).size,
        // The last column ends where the list does: the row is filled, not left with a gap.
        gapAtEnd: Math.round(box.right - Math.max(...rects.map((r) => r.right))),
      };
    });
