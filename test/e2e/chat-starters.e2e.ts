// Starter questions in real Chromium, through the demo's chat proxy to the sandbox: the owner's
// questions show on the empty conversation (light and dark), one click sends one and they are gone.
import { expect, test } from 'vitest';
import { axeViolations } from './support/axe';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z', fixtures: true });

suite('starter questions in Chromium', () => {
  test('offered on the empty conversation; a click sends one as the visitor, the draft stays theirs', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}fixtures/starters.html`);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    const starters = page.getByRole('group', { name: 'Suggested questions' });
    await starters.waitFor();
    expect(await starters.getByRole('button').allTextContents()).toEqual(['What are your opening hours?', 'How much does a session cost?']);
    // On the visitor's side: the buttons end where the visitor's bubbles end.
    const log = page.getByRole('log', { name: 'Conversation' });
    const [logBox, buttonBox] = await Promise.all([log.boundingBox(), starters.getByRole('button').first().boundingBox()]);
    expect(logBox && buttonBox && logBox.x + logBox.width - (buttonBox.x + buttonBox.width)).toBeLessThan(40);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-starters.png' });

    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('half a thought');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/chat') && r.method() === 'POST');
    await page.getByRole('button', { name: 'What are your opening hours?' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ message: 'What are your opening hours?' });
    await log.getByText('Sunday:').waitFor();
    expect(await starters.count()).toBe(0);
    expect(await message.inputValue()).toBe('half a thought');
    expect(await log.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await page.screenshot({ path: 'test-results/chat-starters-sent.png' });
    await context.close();
  });

  test('dark, on a phone: the questions are readable and pass axe', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}fixtures/starters.html`);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    await page.getByRole('group', { name: 'Suggested questions' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/chat-starters-dark-phone.png' });
    await context.close();
  });
});
