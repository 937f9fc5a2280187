// Stop in real Chromium, through the demo's chat proxy to the sandbox: a question's slow reply is
// stopped from the keyboard (the request really is cancelled), and Retry gets the sandbox's answer.
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z' });

suite('Stop in Chromium', () => {
  test('a question is sent, its slow reply stopped with the keyboard, then retried', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(demo.server.url);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    const message = page.getByRole('textbox', { name: 'Message' });

    // The first request is held at the network, a reply that does not come, until the visitor stops it.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => {
      void page.route(
        '**/api/chat',
        async (route) => {
          resolve();
          await new Promise<void>((done) => (release = done));
          await route.continue().catch(() => undefined);
        },
        { times: 1 },
      );
    });
    const cancelled = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/chat'));
    await message.fill('What are your opening hours?');
    await message.press('Enter');
    await held;
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('What are your opening hours?').waitFor();

    // Keyboard: from the composer, Tab reaches Stop; Enter stops.
    await message.focus();
    await page.keyboard.press('Tab');
    const stop = page.getByRole('button', { name: 'Stop' });
    expect(await stop.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await page.screenshot({ path: 'test-results/chat-stop-pending.png' });
    await page.keyboard.press('Enter');
    expect((await cancelled).failure()?.errorText).toBe('net::ERR_ABORTED');
    release();
    await log.getByText('Stopped.').waitFor();
    // The visitor's own choice: in the quiet colour of the log's notes, not the colour of a failure.
    const colours = await log.getByText('Stopped.').evaluate((notice) => {
      const probe = (name: string) => {
        const span = notice.ownerDocument.createElement('span');
        span.style.color = `var(${name})`;
        notice.append(span);
        const colour = getComputedStyle(span).color;
        span.remove();
        return colour;
      };
      return { notice: getComputedStyle(notice).color, muted: probe('--aw-muted'), danger: probe('--aw-danger') };
    });
    expect(colours.notice).toBe(colours.muted);
    expect(colours.notice).not.toBe(colours.danger);
    expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    expect(await log.getByText('Sunday:').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-stopped.png' });

    const answered = page.waitForResponse((r) => r.url().endsWith('/api/chat') && r.request().method() === 'POST');
    await log.getByRole('button', { name: 'Retry' }).click();
    expect((await answered).status()).toBe(200);
    await log.getByText('Sunday:').waitFor();
    expect(await log.getByText('Stopped.').count()).toBe(0);
    await context.close();
  });
});
