// The demo agent agrees with the demo page: what a visitor reads in the price table and under "Visit
// us" (public/index.html, and the bench's copy of it) is what the agent answers when asked.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createSandbox, DEMO_AGENT_ID } from '../../src/sandbox';
import { DEMO_ADDRESS, DEMO_PRICES } from '../../src/sandbox/demo-data';
import { call } from './helpers';

// A path, not a URL: URL here is jsdom's.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = ['public/index.html', 'test/bench/fixtures/plain.html'];

function page(path: string): Document {
  return new DOMParser().parseFromString(readFileSync(join(root, path), 'utf8'), 'text/html');
}

/** The price table as [appointment, price] rows. */
function priceRows(doc: Document): [string, string][] {
  return Array.from(doc.querySelectorAll('#prices tbody tr'), (row) => {
    const cells = Array.from(row.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '');
    return [cells[0] ?? '', cells[2] ?? ''] as [string, string];
  });
}

async function ask(message: string): Promise<string> {
  const res = await call(createSandbox(), 'POST', '/chat', { body: { agentId: DEMO_AGENT_ID, message } });
  expect(res.status).toBe(200);
  return String(res.body.reply);
}

describe('the demo agent and the demo page', () => {
  for (const path of PAGES) {
    test(`${path} shows the prices and the address the agent knows`, () => {
      const doc = page(path);
      expect(priceRows(doc)).toEqual(DEMO_PRICES.map(({ name, price }) => [name, price]));
      expect(doc.querySelector('#visit p')?.textContent).toContain(DEMO_ADDRESS);
    });
  }

  test('asked about prices, the agent quotes the page price table, each price by name', async () => {
    const reply = await ask('How much does a consultation cost?');
    for (const [name, price] of priceRows(page('public/index.html'))) {
      expect(reply).toMatch(new RegExp(`${name}.*${price.replace('$', '\\$')}`));
    }
  });

  test('asked where the clinic is, the agent gives the address on the page', async () => {
    expect(await ask('Where are you located?')).toContain(DEMO_ADDRESS);
  });
});
