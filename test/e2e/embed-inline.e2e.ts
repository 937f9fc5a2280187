// Inline embedding in real Chromium: a script tag with data-mode="inline" and an <agent-widget>
// element on one page, each with its own state; the element's methods, live attributes and clean
// removal; and the package's ESM build used the way a bundler user would.
import type { BrowserContext, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { addProbe, gotoHeld, holdWidget, liveListeners, violations } from './fixtures/host-probes';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z', fixtures: true });

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  await addProbe(context);
  return { context, page: await context.newPage() };
}

type ElementApi = HTMLElement & { open(view?: string): void; on(type: string, handler: (payload: unknown) => void): () => void };

suite('inline embedding in Chromium', () => {
  test('a data-mode="inline" script tag and an <agent-widget> element live side by side, each with its own state', async () => {
    const { context, page } = await newPage();
    const release = await holdWidget(page);
    await gotoHeld(page, `${demo.server.url}fixtures/inline.html`);
    const listenersBefore = await liveListeners(page);
    release();

    const inline = page.getByRole('region', { name: 'Harbor Physio' });
    const element = page.getByRole('region', { name: 'Harbor Booking' });
    await inline.waitFor();
    // The element starts where its view attribute says; both fill the boxes the page gave them.
    await element.getByRole('heading', { name: 'How long do you need?' }).waitFor();
    expect((await inline.boundingBox())?.height).toBe(560);
    expect((await element.boundingBox())?.height).toBe(560);

    const box = inline.getByRole('textbox', { name: 'Message' });
    await box.fill('What are your opening hours?');
    await box.press('Enter');
    await inline.getByRole('log', { name: 'Conversation' }).getByText('Sunday:').waitFor();
    await element.getByRole('tab', { name: 'Chat' }).click();
    expect(await element.getByRole('log', { name: 'Conversation' }).innerText()).not.toContain('opening hours');

    // A changed attribute applies at once (a remount: handlers added before keep hearing events),
    // and the element carries the same methods as the global.
    await page.evaluate(() => {
      const el = document.querySelector('agent-widget') as ElementApi;
      const w = window as unknown as { readyAgain: unknown[] };
      w.readyAgain = [];
      el.on('ready', (payload) => w.readyAgain.push(payload));
      el.setAttribute('title', 'Harbor Desk');
    });
    const desk = page.getByRole('region', { name: 'Harbor Desk' });
    await desk.waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { readyAgain: unknown[] }).readyAgain))
      .toEqual([{ agentId: 'demo-agent', version: '0.1.0' }]);
    await page.evaluate(() => (document.querySelector('agent-widget') as ElementApi).open('lookup'));
    expect(await desk.getByRole('tab', { selected: true }).textContent()).toBe('My booking');

    // axe adds listeners of its own: those are set aside in the count below.
    const beforeAxe = await liveListeners(page);
    expect(await axeViolations(page)).toEqual([]);
    const axeListeners = await liveListeners(page);
    for (const l of beforeAxe) axeListeners.splice(axeListeners.indexOf(l), 1);

    // Removing the element and destroying the script-tag widget leave no listener behind.
    await page.evaluate(() => document.querySelector('agent-widget')?.remove());
    await page.getByRole('region', { name: 'Harbor Desk' }).waitFor({ state: 'detached' });
    await page.evaluate(() => (window as unknown as { AgentWidget: { destroy(): void } }).AgentWidget.destroy());
    expect(await liveListeners(page)).toEqual([...listenersBefore, ...axeListeners].sort());
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  test("import { mount } from 'agent-widget' returns a handle with the global's methods", async () => {
    const { context, page } = await newPage();
    await page.goto(`${demo.server.url}fixtures/bundler.html`);
    const region = page.getByRole('region', { name: 'Harbor Physio' });
    await region.waitFor();
    const shape = await page.evaluate(() => {
      const { handle, defined } = (window as unknown as { bundled: { handle: Record<string, unknown>; defined: boolean } }).bundled;
      return { defined, methods: Object.keys(handle).sort(), element: customElements.get('agent-widget') !== undefined };
    });
    expect(shape).toEqual({
      defined: true,
      element: true,
      methods: ['close', 'destroy', 'on', 'open', 'reset', 'toggle', 'version'],
    });
    await page.evaluate(() => (window as unknown as { bundled: { handle: { open(view: string): void } } }).bundled.handle.open('booking'));
    expect(await region.getByRole('tab', { selected: true }).textContent()).toBe('Book');
    await context.close();
  });
});
