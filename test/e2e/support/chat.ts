// The chat steps e2e suites share: open the demo's panel, ask and wait for the proxy's answer, the log.
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** A new page at `url` with the panel opened from its launcher. */
export async function openChat(context: BrowserContext, url: string, launcher = 'Chat with Harbor Physio'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: launcher }).click();
  // The panel itself, not the stand-in widget.js draws when the click comes before the panel's file.
  await page.getByRole('dialog', { name: 'Harbor Physio' }).getByRole('tablist').waitFor();
  return page;
}

/** Types `text`, sends it with Enter and waits for the chat proxy's 200. */
export async function ask(page: Page, text: string): Promise<void> {
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/chat') && r.request().method() === 'POST');
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  expect((await answered).status()).toBe(200);
}

export const chatLog = (page: Page) => page.getByRole('log', { name: 'Conversation' });
