// The shell in real Chromium on the demo page: mouse and keyboard-only opening, focus, the phone
// layout (full screen, page behind locked), no layout shift on the host page, axe, screenshots.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z' });

async function openPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  await page.goto(demo.server.url);
  await launcher(page).waitFor();
  return page;
}

const launcher = (page: Page) => page.getByRole('button', { name: 'Chat with Harbor Physio' });
// Waited for by its tab list: the panel itself, not the stand-in drawn when a click comes before its file.
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Harbor Physio' });

/** What has focus inside the widget's shadow root, as tag#id or tag.class. */
function focusInWidget(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const host = document.activeElement;
    if (!host?.hasAttribute('data-agent-widget')) return null;
    const el = host.shadowRoot?.activeElement;
    if (!el) return null;
    return el.id ? `${el.tagName.toLowerCase()}#${el.id}` : `${el.tagName.toLowerCase()}.${el.classList[0] ?? ''}`;
  });
}

/** Wheels over the page and waits until the event was handled and two frames have been drawn. */
async function wheelAndSettle(page: Page): Promise<void> {
  type Flagged = { wheelHandled?: Promise<void> };
  await page.evaluate(() => {
    (window as Flagged).wheelHandled = new Promise<void>((resolve) =>
      addEventListener('wheel', () => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), { once: true }),
    );
  });
  await page.mouse.wheel(0, 400);
  await page.evaluate(() => (window as Flagged).wheelHandled);
}

suite('the shell in Chromium', () => {
  test('opens with the mouse: a dialog with focus in the composer; the close button returns focus', async () => {
    const page = await openPage();
    await page.screenshot({ path: 'test-results/shell-desktop-closed.png' });
    // The launcher's stylesheet first; the panel's comes with the panel's file, when the browser is idle
    // after load (not in the click's task).
    const sheets = () => page.evaluate(() => document.querySelector('[data-agent-widget]')?.shadowRoot?.adoptedStyleSheets.length);
    await expect.poll(sheets).toBe(2);
    await launcher(page).click();
    await dialog(page).getByRole('tablist').waitFor();
    expect(await sheets()).toBe(2);
    expect(await launcher(page).getAttribute('aria-expanded')).toBe('true');
    // With the frame after the click, once the new panel is laid out.
    await expect.poll(() => focusInWidget(page)).toBe('textarea.input');
    await page.screenshot({ path: 'test-results/shell-desktop-open.png' });
    await page.getByRole('button', { name: 'Close' }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    await expect.poll(() => focusInWidget(page)).toBe('button.launcher');
    await page.context().close();
  });

  test('works with the keyboard alone: Tab to the launcher, Enter, tabs with arrows, Escape', async () => {
    const page = await openPage();
    let presses = 0;
    while ((await focusInWidget(page)) !== 'button.launcher' && presses < 40) {
      await page.keyboard.press('Tab');
      presses++;
    }
    await expect.poll(() => focusInWidget(page)).toBe('button.launcher');
    await page.keyboard.press('Enter');
    await dialog(page).getByRole('tablist').waitFor();
    await expect.poll(() => focusInWidget(page)).toBe('textarea.input');

    // Shift+Tab back to the tab list, then arrows move between views.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focusInWidget(page)).toBe('button#tab-chat');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusInWidget(page)).toBe('button#tab-booking');
    expect(await page.getByRole('tab', { name: 'Book', exact: true }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tabpanel', { name: 'Book', exact: true }).waitFor();

    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    await expect.poll(() => focusInWidget(page)).toBe('button.launcher');
    await page.context().close();
  });

  test('short screens (phone landscape, a 1280x720 window at 200% zoom) get the full-screen panel too', async () => {
    for (const viewport of [
      { width: 844, height: 390 },
      { width: 640, height: 360 },
    ]) {
      const page = await openPage({ viewport });
      await launcher(page).click();
      await dialog(page).getByRole('tablist').waitFor();
      expect(await dialog(page).boundingBox(), JSON.stringify(viewport)).toEqual({ x: 0, y: 0, ...viewport });
      expect(await dialog(page).getAttribute('aria-modal')).toBe('true');
      await page.getByRole('tab', { name: 'Book', exact: true }).click();
      await page.getByRole('button', { name: '30 min consultation' }).click();
      await page.getByRole('grid').waitFor();
      await page.screenshot({ path: `test-results/shell-short-${viewport.width}x${viewport.height}.png` });
      await page.context().close();
    }
  });

  test('on a 375x667 phone the panel is full screen and the page behind does not scroll', async () => {
    const page = await openPage({ viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true });
    const scrollY = () => page.evaluate(() => window.scrollY);
    await page.mouse.wheel(0, 400);
    await page.waitForFunction(() => window.scrollY > 0);
    await page.evaluate(() => window.scrollTo(0, 0));

    await launcher(page).click();
    await dialog(page).getByRole('tablist').waitFor();
    expect(await dialog(page).boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 667 });
    expect(await dialog(page).getAttribute('aria-modal')).toBe('true');
    // The visitor's own scrolling (wheel, touch) must not move the page behind the panel.
    await page.mouse.move(180, 300);
    await wheelAndSettle(page);
    expect(await scrollY()).toBe(0);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflowY)).toBe('hidden');
    await page.screenshot({ path: 'test-results/shell-phone-open.png' });

    // Tab stays inside the full-screen dialog.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInWidget(page)).not.toBeNull();
    }

    await page.getByRole('button', { name: 'Close' }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => [document.body.getAttribute('style'), document.documentElement.getAttribute('style')])).toEqual([
      null,
      null,
    ]);
    await page.mouse.wheel(0, 400);
    await page.waitForFunction(() => window.scrollY > 0);
    await page.context().close();
  });

  for (const viewport of [
    { width: 375, height: 667 },
    { width: 390, height: 844 },
  ]) {
    test(`on a ${viewport.width}x${viewport.height} touch phone: no keyboard on open, and the panel stays above the keyboard`, async () => {
      const page = await openPage({ viewport, hasTouch: true, isMobile: true });
      await launcher(page).tap();
      await dialog(page).getByRole('tablist').waitFor();
      expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
      await expect.poll(() => focusInWidget(page)).toBe('div#panel');

      // The keyboard: it shrinks the visual viewport (iOS Safari, Android Chrome by default), not the
      // layout one. Chromium here has no on-screen keyboard, so the test shrinks it and draws the keys.
      const keyboard = 300;
      await page.getByRole('textbox', { name: 'Message' }).tap();
      await page.evaluate((keyboard) => {
        const vv = window.visualViewport;
        if (!vv) throw new Error('no visualViewport');
        const height = vv.height - keyboard;
        Object.defineProperty(vv, 'height', { configurable: true, get: () => height });
        vv.dispatchEvent(new Event('resize'));
        const keys = Object.assign(document.createElement('div'), { textContent: 'keyboard' });
        keys.style.cssText = `position:fixed;inset:auto 0 0 0;height:${keyboard}px;background:#9ca3af;z-index:2147483647;display:grid;place-items:center`;
        document.documentElement.append(keys);
      }, keyboard);
      const visible = viewport.height - keyboard;
      await page.waitForFunction(
        (h) => document.querySelector('[data-agent-widget]')?.shadowRoot?.getElementById('panel')?.getBoundingClientRect().height === h,
        visible,
      );
      const composer = await page.getByRole('textbox', { name: 'Message' }).boundingBox();
      expect(composer && composer.y + composer.height).toBeLessThanOrEqual(visible);
      // The header with its Close button stays in sight above.
      const close = await page.getByRole('button', { name: 'Close' }).boundingBox();
      expect(close?.y).toBeGreaterThanOrEqual(0);
      await page.screenshot({ path: `test-results/shell-phone-keyboard-${viewport.width}x${viewport.height}.png` });

      // The keyboard goes away (or Android resizes the layout viewport instead): the panel fills it again.
      await page.evaluate(() => {
        const vv = window.visualViewport;
        if (vv) delete (vv as { height?: number }).height;
        vv?.dispatchEvent(new Event('resize'));
      });
      expect(await dialog(page).boundingBox()).toEqual({ x: 0, y: 0, ...viewport });
      await page.context().close();
    });
  }

  test('the host page layout does not move when the widget loads', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const layout = () =>
      page.evaluate(() => ({
        height: document.documentElement.scrollHeight,
        width: document.documentElement.scrollWidth,
        footer: document.querySelector('footer')?.getBoundingClientRect().top,
      }));
    await page.route('**/widget.js', (route) => route.abort());
    await page.goto(demo.server.url);
    const without = await layout();
    await page.unroute('**/widget.js');
    await page.goto(demo.server.url);
    await launcher(page).waitFor();
    expect(await layout()).toEqual(without);
    await context.close();
  });

  test('axe finds nothing in the closed launcher or the open chat, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await openPage({ colorScheme });
      expect(await axeViolations(page)).toEqual([]);
      await launcher(page).click();
      await dialog(page).getByRole('tablist').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `test-results/shell-desktop-open-${colorScheme}.png` });
      await page.context().close();
    }
  });
});
