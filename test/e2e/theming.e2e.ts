// Owner theming in real Chromium: custom properties and ::part() rules from the page's own CSS, in the
// light and the dark theme, data-z-index under a cookie banner, and the same properties on <agent-widget>.
// Host pages are written here and served by page.route on the demo server's origin, so /widget.js and
// /api are the real ones. Screenshots go to test-results/.
import { readFileSync } from 'node:fs';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z', fixtures: true });

/** The theming example of docs/widget.md, verbatim: what it shows is what this file checks. */
const THEME_CSS = `
[data-agent-widget] {
  --aw-accent: #9a3412;
  --aw-on-accent: #ffffff;
  --aw-radius: 6px;
  --aw-font: Georgia, serif;
  --aw-launcher-size: 64px;
  --aw-offset-x: 32px;
  --aw-offset-y: 96px;
  /* One value for both themes, or light-dark(light, dark) for each. */
  --aw-bg: light-dark(#ffffff, #1c1410);
  --aw-fg: light-dark(#1c1917, #fbe9dc);
  --aw-surface: light-dark(#fde3c8, #4a3020);
}
[data-agent-widget]::part(launcher) {
  box-shadow: 0 0 0 4px #fed7aa;
}
[data-agent-widget]::part(header) {
  letter-spacing: 0.02em;
}
[data-agent-widget]::part(messages) {
  background: light-dark(#fff7ed, #2e2119);
}`;

/** A cookie banner at z-index 1000 across the bottom of the page. */
const BANNER =
  '<div id="banner" style="position:fixed;inset:auto 0 0 0;height:180px;z-index:1000;background:#334155;color:#fff">We use cookies.</div>';

function hostPage(attributes: string, head = '', body = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>${head}</head>
<body><main style="max-width:40rem;margin:2rem auto;font:16px/1.5 sans-serif"><h1>Harbor Physio</h1><p>Host page text.</p></main>${body}
<script src="/widget.js" async data-agent-id="demo-agent" data-api-base="/api" data-chat-url="/api/chat"
  data-title="Harbor Physio" data-color="#0f766e" ${attributes}></script></body></html>`;
}

async function openHost(html: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  await page.route(`${demo.server.url}host.html`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${demo.server.url}host.html`);
  await launcher(page).waitFor();
  return page;
}

const launcher = (page: Page) => page.getByRole('button', { name: 'Chat with Harbor Physio' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Harbor Physio' });

/** Computed `property` of the first match of `selector` in the shadow root of the host matching `host`. */
function styleOf(page: Page, selector: string, property: string, host = '[data-agent-widget]'): Promise<string | undefined> {
  return page.evaluate(
    ([host, selector, property]) => {
      const el = document.querySelector(host)?.shadowRoot?.querySelector(selector);
      return el ? getComputedStyle(el).getPropertyValue(property) : undefined;
    },
    [host, selector, property] as const,
  );
}

async function open(page: Page): Promise<void> {
  await launcher(page).click();
  await dialog(page).waitFor();
  // The panel itself, not its stand-in (drawn when the click comes before the panel's file).
  await dialog(page).getByRole('tablist').waitFor();
}

suite('owner theming in Chromium', () => {
  test('docs/widget.md shows the example these tests run', () => {
    expect(readFileSync(new URL('../../docs/widget.md', import.meta.url), 'utf8')).toContain(`<style>${THEME_CSS}\n</style>`);
  });

  test('light: the page’s properties and ::part() rules restyle the launcher and panel; data-z-index puts it under a cookie banner', async () => {
    const page = await openHost(hostPage('data-z-index="100"', `<style>${THEME_CSS}</style>`, BANNER));
    expect(await launcher(page).boundingBox()).toEqual({ x: 1280 - 32 - 64, y: 800 - 96 - 64, width: 64, height: 64 });
    expect(await styleOf(page, '.launcher', 'background-color')).toBe('rgb(154, 52, 18)');
    expect(await styleOf(page, '.launcher', 'color')).toBe('rgb(255, 255, 255)');
    expect(await styleOf(page, '.launcher', 'box-shadow')).toBe('rgb(254, 215, 170) 0px 0px 0px 4px');
    // The banner covers the launcher's lower part: a click there lands on the banner.
    expect(await page.evaluate(() => document.elementFromPoint(1280 - 64, 800 - 110)?.id)).toBe('banner');
    await page.screenshot({ path: 'test-results/theming-light-closed.png' });

    await page.evaluate(() => document.getElementById('banner')?.remove());
    await open(page);
    expect(await styleOf(page, '.panel', 'border-radius')).toBe('6px');
    expect(await styleOf(page, '.panel', 'background-color')).toBe('rgb(255, 255, 255)');
    expect(await styleOf(page, '.log', 'background-color')).toBe('rgb(255, 247, 237)');
    expect(await styleOf(page, '.bubble', 'background-color')).toBe('rgb(253, 227, 200)');
    expect(await styleOf(page, '.header', 'background-color')).toBe('rgb(154, 52, 18)');
    expect(await styleOf(page, '.header', 'letter-spacing')).toBe('0.3px');
    expect(await styleOf(page, '.title', 'font-family')).toBe('Georgia, serif');
    expect(await styleOf(page, '.title', 'color')).toBe('rgb(255, 255, 255)');
    expect(await styleOf(page, '.input', 'font-family')).toBe('Georgia, serif');
    expect(await styleOf(page, '.aw', 'color')).toBe('rgb(28, 25, 23)');
    // Properties the page left alone keep the built-in light values.
    expect(await styleOf(page, '.panel', 'border-top-color')).toBe('rgb(216, 222, 228)');
    // 12px above the launcher, which moved with the offsets and size.
    const panel = await dialog(page).boundingBox();
    expect(panel && [panel.y + panel.height, panel.x + panel.width]).toEqual([800 - 96 - 64 - 12, 1280 - 32]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/theming-light-open.png' });
    // A window too narrow for 380px between large offsets (yet wider than the full-screen query's 480px):
    // the panel keeps the offset on both sides.
    await page.evaluate(() => document.querySelector<HTMLElement>('[data-agent-widget]')?.style.setProperty('--aw-offset-x', '100px'));
    await page.setViewportSize({ width: 520, height: 800 });
    const narrow = await dialog(page).boundingBox();
    expect(narrow && [narrow.x, narrow.x + narrow.width]).toEqual([100, 520 - 100]);
    await page.context().close();
  });

  test('dark: the same properties; the page’s light-dark() values follow data-theme, the rest is the built-in dark palette', async () => {
    const page = await openHost(hostPage('data-theme="auto"', `<style>${THEME_CSS}</style>`), { colorScheme: 'dark' });
    expect(await styleOf(page, '.launcher', 'background-color')).toBe('rgb(154, 52, 18)');
    await open(page);
    expect(await styleOf(page, '.panel', 'background-color')).toBe('rgb(28, 20, 16)');
    expect(await styleOf(page, '.panel', 'border-radius')).toBe('6px');
    expect(await styleOf(page, '.log', 'background-color')).toBe('rgb(46, 33, 25)');
    expect(await styleOf(page, '.bubble', 'background-color')).toBe('rgb(74, 48, 32)');
    expect(await styleOf(page, '.aw', 'color')).toBe('rgb(251, 233, 220)');
    expect(await styleOf(page, '.title', 'font-family')).toBe('Georgia, serif');
    expect(await styleOf(page, '.panel', 'border-top-color')).toBe('rgb(59, 65, 75)');
    // auto: both schemes, of which the system setting (dark here) picks; native controls follow it too.
    expect(await styleOf(page, '.aw', 'color-scheme')).toBe('light dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/theming-dark-open.png' });
    await page.context().close();

    // No page CSS: data-theme="dark" wins over a light system setting, and "light" over a dark one; auto
    // follows the system setting.
    for (const [theme, colorScheme, bg, fg, scheme] of [
      ['dark', 'light', 'rgb(23, 25, 30)', 'rgb(238, 240, 243)', 'dark'],
      ['light', 'dark', 'rgb(255, 255, 255)', 'rgb(27, 31, 36)', 'light'],
      ['auto', 'dark', 'rgb(23, 25, 30)', 'rgb(238, 240, 243)', 'light dark'],
      ['auto', 'light', 'rgb(255, 255, 255)', 'rgb(27, 31, 36)', 'light dark'],
    ] as const) {
      const builtIn = await openHost(hostPage(`data-theme="${theme}"`), { colorScheme });
      await open(builtIn);
      expect(await styleOf(builtIn, '.panel', 'background-color')).toBe(bg);
      expect(await styleOf(builtIn, '.aw', 'color')).toBe(fg);
      expect(await styleOf(builtIn, '.aw', 'color-scheme')).toBe(scheme);
      await builtIn.context().close();
    }
  });

  test('without page CSS: the documented defaults, and the top z-index unless data-z-index lowers it', async () => {
    for (const [attribute, expected] of [
      ['', '2147483647'],
      // A larger whole number is capped at the top by the browser.
      ['data-z-index="9999999999"', '2147483647'],
      ['data-z-index="0"', '0'],
    ] as const) {
      const page = await openHost(hostPage(attribute));
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('[data-agent-widget]') as Element).zIndex)).toBe(expected);
      await page.context().close();
    }

    const page = await openHost(hostPage(''));
    expect(await launcher(page).boundingBox()).toEqual({ x: 1280 - 20 - 56, y: 800 - 20 - 56, width: 56, height: 56 });
    expect(await styleOf(page, '.launcher', 'background-color')).toBe('rgb(15, 118, 110)');
    await open(page);
    const panel = await dialog(page).boundingBox();
    expect(panel && [panel.y + panel.height, panel.x + panel.width, panel.width, panel.height]).toEqual([800 - 88, 1280 - 20, 380, 600]);
    expect(await styleOf(page, '.panel', 'border-radius')).toBe('14px');
    expect(await styleOf(page, '.panel', 'background-color')).toBe('rgb(255, 255, 255)');
    expect(await styleOf(page, '.title', 'font-family')).toBe('system-ui, sans-serif');
    expect(await styleOf(page, '.aw', 'color-scheme')).toBe('light');
    // A short window: the panel shrinks to stay 20px below its top.
    await page.setViewportSize({ width: 1280, height: 600 });
    expect((await dialog(page).boundingBox())?.y).toBe(20);
    await page.context().close();
  });

  test('data-avatar: a logo before the title that keeps its shape; the header buttons stay in the panel; a broken one hides', async () => {
    // A wide logo (3:1), served from the page's origin like the widget.
    const LOGO =
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" rx="8" fill="#fff"/><circle cx="20" cy="20" r="12" fill="#0f766e"/><rect x="40" y="14" width="68" height="12" rx="4" fill="#0f766e"/></svg>';
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 320, height: 640 },
    ]) {
      const context = await demo.browser.newContext({ viewport, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.route(`${demo.server.url}logo.svg`, (route) => route.fulfill({ contentType: 'image/svg+xml', body: LOGO }));
      await page.route(`${demo.server.url}host.html`, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: hostPage('data-avatar="/logo.svg"').replace(
            'data-title="Harbor Physio"',
            'data-title="Harbor Physio and Sports Rehabilitation"',
          ),
        }),
      );
      await page.goto(`${demo.server.url}host.html`);
      await page.getByRole('button', { name: /^Chat with Harbor Physio/ }).click();
      const panel = page.getByRole('dialog', { name: 'Harbor Physio and Sports Rehabilitation' });
      await panel.waitFor();
      await page.waitForFunction(
        () => (document.querySelector('[data-agent-widget]')?.shadowRoot?.querySelector('img') as HTMLImageElement | null)?.complete,
      );
      const box = await page.evaluate(
        () => document.querySelector('[data-agent-widget]')?.shadowRoot?.querySelector('img')?.getBoundingClientRect().toJSON() as DOMRect,
      );
      expect([box.height, box.width]).toEqual([28, 84]);
      const outer = await panel.boundingBox();
      for (const name of ['New conversation', 'Close']) {
        const button = await page.getByRole('button', { name }).boundingBox();
        expect(button && outer && button.x + button.width).toBeLessThanOrEqual((outer?.x ?? 0) + (outer?.width ?? 0));
      }
      await page.screenshot({ path: `test-results/theming-avatar-${viewport.width}.png` });
      await context.close();
    }

    const broken = await openHost(hostPage('data-avatar="/missing.png"'));
    await open(broken);
    await broken.waitForFunction(() => document.querySelector('[data-agent-widget]')?.shadowRoot?.querySelector('img')?.hidden === true);
    await broken.context().close();
  });

  test('<agent-widget>: the same properties and parts, set on the element', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}fixtures/inline.html`);
    await page.getByRole('region', { name: 'Harbor Booking' }).waitFor();
    await page.addStyleTag({
      content: `agent-widget { --aw-bg: #fff7ed; --aw-radius: 0px; --aw-font: Georgia, serif;
        letter-spacing: 4px; word-spacing: 9px; text-transform: lowercase; text-indent: 30px; white-space: pre; line-height: 3 }
        agent-widget::part(header) { text-transform: uppercase }`,
    });
    // Only the hooks get through: text styles on the element itself stop at the widget's root.
    for (const [property, value] of [
      ['letter-spacing', 'normal'],
      ['word-spacing', '0px'],
      ['text-transform', 'none'],
      ['text-indent', '0px'],
      ['white-space', 'normal'],
      ['line-height', '20.3px'],
    ] as const)
      expect(await styleOf(page, '.tab', property, 'agent-widget')).toBe(value);
    expect(await styleOf(page, '.panel', 'background-color', 'agent-widget')).toBe('rgb(255, 247, 237)');
    expect(await styleOf(page, '.panel', 'border-radius', 'agent-widget')).toBe('0px');
    expect(await styleOf(page, '.title', 'font-family', 'agent-widget')).toBe('Georgia, serif');
    expect(await styleOf(page, '.header', 'text-transform', 'agent-widget')).toBe('uppercase');
    // The script tag's inline panel on the same page is untouched by rules for agent-widget.
    expect(await styleOf(page, '.panel', 'background-color')).toBe('rgb(255, 255, 255)');
    // Hiding the element still hides what is inside.
    await page.addStyleTag({ content: 'agent-widget { visibility: hidden }' });
    expect(await styleOf(page, '.tab', 'visibility', 'agent-widget')).toBe('hidden');
    await page.getByRole('region', { name: 'Harbor Booking' }).waitFor({ state: 'hidden' });
    await context.close();
  });
});
