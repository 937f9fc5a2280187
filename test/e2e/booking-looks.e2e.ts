// The Book and My booking views in Chromium, light and dark, desktop and phone: durations, the slot
// grid, form errors, the confirmation's success mark, and a cancel in My booking reaching the Book tab.
// Its own file, and a sandbox per colour scheme: the sandbox's clock is frozen, so its 60 requests a
// minute per key never renew, and two bookings in Tokyo's days (each month spans two of New York's) fit in them.
// Screenshots go to test-results/booking-<scheme>-<device>-<step>.png.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { contrastRatio } from '../../src/widget/options/theme';
import { axeViolations } from './support/axe';
import { NOW, openBook, slotGrid } from './support/booking';
import { suite, useDemo } from './support/demo';

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/booking-${name}.png` });

/** #rrggbb of a computed rgb() colour. */
const hex = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;

suite('booking views in Chromium', () => {
  // Each run books its own agent day (the sandbox caps bookings per day): 10:00 in New York, the first
  // time of the next day in Tokyo, where the calendar shows Tokyo's days.
  const DAYS = [
    'Tuesday, November 24, 2026',
    'Wednesday, November 25, 2026',
    'Thursday, November 26, 2026',
    'Saturday, November 28, 2026',
  ] as const;
  for (const colorScheme of ['light', 'dark'] as const)
    describe(colorScheme, () => {
      const demo = useDemo({ now: NOW });
      for (const [device, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', { width: 375, height: 667 }],
      ] as const)
        test(`${colorScheme} ${device}: full-width durations, an even slot grid, errors that look like errors, a success mark, and a cancel that reaches the Book tab`, async () => {
          const name = (step: string) => `${colorScheme}-${device}-${step}`;
          const day = DAYS[(colorScheme === 'dark' ? 2 : 0) + (device === 'phone' ? 1 : 0)] ?? DAYS[0];
          const midnight = '12:00 AM, Japan Standard Time';
          const { context, page } = await openBook(demo, {
            colorScheme,
            viewport,
            timezoneId: 'Asia/Tokyo',
            isMobile: device === 'phone',
            hasTouch: device === 'phone',
          });

          const option = page.getByRole('button', { name: '30 min consultation', exact: true });
          await option.waitFor();
          const widths = await page
            .locator('.choices')
            .evaluate((list) => [list.clientWidth, ...[...list.querySelectorAll('button')].map((b) => b.offsetWidth)]);
          expect(new Set(widths).size).toBe(1);
          await shot(page, name('1-duration'));
          await option.click();

          // On a touch screen the days are at least 44 px tall.
          const dayHeights = await page.locator('.day').evaluateAll((days) => days.map((d) => d.getBoundingClientRect().height));
          expect(Math.min(...dayHeights)).toBeGreaterThanOrEqual(device === 'phone' ? 44 : 40);
          await page.getByRole('button', { name: new RegExp(`^${day}, (\\d+ )?times? available$`) }).click();
          await page.getByRole('button', { name: midnight }).first().waitFor();
          const grid = await slotGrid(page);
          expect(grid).toMatchObject({ overflowing: [], gapAtEnd: 0 });
          expect(grid.sizes).toHaveLength(1);
          expect(grid.columns).toBeGreaterThanOrEqual(device === 'phone' ? 2 : 3);
          await shot(page, name('2-times'));
          await page.getByRole('button', { name: midnight }).first().click();

          // Each field's edge is what shows where it is: 3:1 against the panel (WCAG 1.4.11), before any error.
          const edges = await page
            .locator('.field :is(input, textarea)')
            .evaluateAll((fields) =>
              fields.map((f) => [getComputedStyle(f).borderTopColor, getComputedStyle(f.closest('.panel') ?? f).backgroundColor]),
            );
          expect(edges.length).toBeGreaterThan(0);
          for (const [edge = '', bg = ''] of edges) expect(contrastRatio(hex(edge), hex(bg))).toBeGreaterThanOrEqual(3);

          // Continue with nothing filled in: each error is text, an icon and the danger colour.
          await page.getByRole('button', { name: 'Continue' }).click();
          const nameField = page.getByRole('textbox', { name: 'Your name' });
          await page.getByText('Your name is required.').waitFor();
          expect(await nameField.getAttribute('aria-invalid')).toBe('true');
          const look = await page
            .locator('.error')
            .first()
            .evaluate((error) => {
              const field = error.parentElement?.querySelector('input');
              const icon = getComputedStyle(error, '::before');
              return {
                bg: getComputedStyle(error.closest('.panel') ?? error).backgroundColor,
                text: getComputedStyle(error).color,
                border: field ? getComputedStyle(field).borderTopColor : '',
                iconBg: icon.backgroundColor,
                iconMark: icon.color,
                iconContent: icon.content,
              };
            });
          expect(look.iconContent).toContain('!');
          expect(contrastRatio(hex(look.text), hex(look.bg))).toBeGreaterThanOrEqual(4.5);
          expect(contrastRatio(hex(look.border), hex(look.bg))).toBeGreaterThanOrEqual(3);
          expect(contrastRatio(hex(look.iconBg), hex(look.bg))).toBeGreaterThanOrEqual(3);
          expect(contrastRatio(hex(look.iconMark), hex(look.iconBg))).toBeGreaterThanOrEqual(4.5);
          // Under 16px, iOS zooms the page into the field that takes focus.
          const fieldSizes = await page
            .locator('.field :is(input, textarea)')
            .evaluateAll((fields) => fields.map((f) => getComputedStyle(f).fontSize));
          expect(fieldSizes.length).toBeGreaterThan(0);
          for (const size of fieldSizes) expect(size).toBe('16px');
          await shot(page, name('3-errors'));
          expect(await axeViolations(page)).toEqual([]);

          await nameField.fill('Ada Lovelace');
          await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
          await page.getByRole('button', { name: 'Continue' }).click();
          await page.getByRole('button', { name: 'Confirm booking' }).click();
          const done = page.getByRole('heading', { name: 'You are booked' });
          await done.waitFor();
          expect(await done.evaluate((h) => getComputedStyle(h, '::before').content)).toContain('\u2713');
          await shot(page, name('4-confirmed'));
          expect(await axeViolations(page)).toEqual([]);

          // Cancel in My booking, then back to Book: the same booking, cancelled, with nothing to add to a calendar.
          await page.getByRole('tab', { name: 'My booking' }).click();
          await page.getByRole('button', { name: /^BK-/ }).click();
          await page.getByRole('button', { name: 'Cancel booking' }).click();
          await page.getByRole('button', { name: 'Yes, cancel it' }).click();
          await page.getByRole('status').filter({ hasText: 'Booking cancelled' }).waitFor();
          await page.getByRole('tab', { name: 'Book', exact: true }).click();
          await page.getByRole('heading', { name: 'Booking cancelled' }).waitFor();
          expect(await page.getByRole('link', { name: /Google Calendar|calendar file/ }).count()).toBe(0);
          await shot(page, name('5-cancelled-on-book'));
          expect(await axeViolations(page)).toEqual([]);
          await context.close();
        });
    });
});
