// Beside the closed launcher in real Chromium: the owner's teaser (placement, keyboard, reduced motion,
// none on a phone) and the count of replies that came while the panel was closed (its corner, LTR and
// RTL). Host pages are served by page.route on the demo server's origin, so /widget.js and /api are
// the real ones. Screenshots go to test-results/.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z', fixtures: true });
const TEASER = 'Questions about a treatment? Ask us, or book a time in a minute.';

function hostPage(attributes: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Host</title></head>
<body><main style="max-width:40rem;margin:2rem auto;font:16px/1.5 sans-serif"><h1>Harbor Physio</h1><p>Host page text.</p></main>
<script src="/widget.js" async data-agent-id="demo-agent" data-api-base="/api" data-chat-url="/api/chat"
  data-title="Harbor Physio" data-color="#0f766e" ${attributes}></script></body></html>`;
}

async function openHost(attributes: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  await page.route(`${demo.server.url}host.html`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage(attributes) }));
  await page.goto(`${demo.server.url}host.html`);
  return page;
}

/** The bounding box of the first match of `selector` in the widget's shadow root. */
const boxOf = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const el = document.querySelector('[data-agent-widget]')?.shadowRoot?.querySelector(selector);
    const r = el?.getBoundingClientRect();
    return r && { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  }, selector);

suite('beside the launcher in Chromium', () => {
  test('the teaser: above the launcher after its delay, reached by Tab before it, dismissed to the launcher; it moves only without reduced motion', async () => {
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const page = await openHost(`data-teaser="${TEASER}" data-teaser-delay="1"`, { reducedMotion });
      const teaser = page.getByRole('button', { name: TEASER });
      const launcher = page.getByRole('button', { name: 'Chat with Harbor Physio' });
      await launcher.waitFor();
      await teaser.waitFor();
      const [text, button] = await Promise.all([boxOf(page, '.teaser'), boxOf(page, '.launcher')]);
      if (!text || !button) throw new Error('teaser or launcher not drawn');
      // Above the launcher, ending at its right edge, inside the viewport.
      expect(text.bottom).toBeLessThanOrEqual(button.top);
      expect(Math.round(text.right)).toBe(Math.round(button.right));
      expect(text.left).toBeGreaterThan(0);
      const animation = await page.evaluate(() => {
        const el = document.querySelector('[data-agent-widget]')?.shadowRoot?.querySelector('.teaser');
        return el ? getComputedStyle(el).animationName : undefined;
      });
      expect(animation).toBe(reducedMotion === 'reduce' ? 'none' : 'enter');

      if (reducedMotion === 'reduce') {
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: 'test-results/teaser-desktop.png' });
        // Keyboard only: the teaser, its Close, then the launcher.
        await page.locator('h1').click();
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.textContent)).toBe(TEASER);
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        expect(await teaser.count()).toBe(0);
        expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('aria-label'))).toBe(
          'Chat with Harbor Physio',
        );
        // Noted as seen, so the next page does not show it again (test/widget/launcher-extras.test.tsx).
        expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.endsWith(':teaser')))).toHaveLength(1);
      } else {
        await teaser.click();
        await page.getByRole('dialog', { name: 'Harbor Physio' }).waitFor();
        expect(await teaser.count()).toBe(0);
      }
      await page.context().close();
    }
  });

  test('no teaser on a phone, where it would cover the page', async () => {
    const page = await openHost(`data-teaser="${TEASER}" data-teaser-delay="0"`, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).waitFor();
    // With a delay of 0 its timer was set when the launcher was drawn: timers set after it, with no delay,
    // run after it, and Preact draws in a microtask.
    await page.evaluate(() => new Promise((resolve) => setTimeout(() => setTimeout(resolve))));
    expect(await page.getByRole('button', { name: TEASER }).count()).toBe(0);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.endsWith(':teaser')))).toEqual([]);
    await page.context().close();
  });

  test('a reply that comes while the panel is closed is counted on the launcher’s corner, in LTR and RTL, and cleared on open', async () => {
    for (const [name, attributes, launcherName] of [
      ['ltr', '', 'Chat with Harbor Physio'],
      ['rtl', 'data-locale="ar" data-position="left" data-theme="dark"', 'الدردشة مع Harbor Physio'],
    ] as const) {
      const page = await openHost(attributes, { reducedMotion: 'reduce' });
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/chat', async (route) => {
        await held;
        await route.continue();
      });
      const launcher = page.getByRole('button', { name: launcherName });
      await launcher.click();
      const box = page.getByRole('textbox');
      await box.fill('What are your opening hours?');
      await box.press('Enter');
      await launcher.click();
      release();
      const status = page.getByRole('status').filter({ hasText: /1/ });
      await status.waitFor();
      expect(await launcher.getAttribute('data-unread')).toBe('1');
      const [badge, button] = await Promise.all([
        page.evaluate(() => {
          const el = document.querySelector('[data-agent-widget]')?.shadowRoot?.querySelector('.launcher');
          if (!el) return undefined;
          const after = getComputedStyle(el, '::after');
          return { content: after.content, left: after.left, right: after.right };
        }),
        boxOf(page, '.launcher'),
      ]);
      expect(badge?.content).toBe('"1"');
      expect(button).toBeDefined();
      // On the corner at the end of the reading direction: the right in LTR, the left in RTL.
      expect(name === 'ltr' ? badge?.right : badge?.left).toBe('-4px');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `test-results/unread-${name}.png` });
      await launcher.click();
      expect(await launcher.getAttribute('data-unread')).toBeNull();
      await page.context().close();
    }
  });
});
