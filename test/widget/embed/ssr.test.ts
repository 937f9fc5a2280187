// @vitest-environment node
// Server-side rendering: importing the package in Node (the built dist/agent-widget.js and the source
// entry) must not throw and must not use a browser global while loading. Each such global becomes a
// getter that records where it was read; the only reads allowed are `typeof` feature checks (preact's
// hooks and signals probe for requestAnimationFrame and window that way), never a use.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

const BROWSER_GLOBALS = [
  'window',
  'self',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'customElements',
  'HTMLElement',
  'Element',
  'ShadowRoot',
  'CSSStyleSheet',
  'matchMedia',
  'requestAnimationFrame',
  'ResizeObserver',
];
/** Reads from these files count; the test runner's own reads do not. */
const OURS = /\/(src\/widget\/|src\/core\/|dist\/agent-widget\.js|node_modules\/(preact|@preact)\/)/;

const dist = fileURLToPath(new URL('../../../dist/agent-widget.js', import.meta.url));
const saved = new Map<string, PropertyDescriptor | undefined>();
let reads: { name: string; at: string }[];

beforeEach(() => {
  reads = [];
  for (const name of BROWSER_GLOBALS) {
    saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        // The reader is the frame right below this getter.
        const at = (new Error().stack ?? '').split('\n')[2]?.replace(/\\/g, '/') ?? '';
        if (OURS.test(at)) reads.push({ name, at });
        return undefined;
      },
    });
  }
});

afterEach(() => {
  for (const [name, descriptor] of saved) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else Reflect.deleteProperty(globalThis, name);
  }
  saved.clear();
});

/** The reads that are not `typeof <global>`: the source text at each reader's position tells. */
function uses(): string[] {
  return reads
    .filter(({ name, at }) => {
      const match = /(?:file:\/\/)?(\/[^?:)]+)(?:\?[^:]*)?:(\d+):(\d+)/.exec(at);
      if (!match?.[1]) return true;
      const line = readFileSync(match[1], 'utf8').split('\n')[Number(match[2]) - 1] ?? '';
      const col = Number(match[3]) - 1;
      const before = line.slice(0, col + (line.startsWith(name, col) ? 0 : line.indexOf(name, col) - col));
      return !/typeof\s*$/.test(before);
    })
    .map(({ name, at }) => `${name} ${at.trim()}`);
}

describe('importing the package in Node', () => {
  test('dist/agent-widget.js loads, uses no browser global, and exports mount and defineElement', async () => {
    if (!existsSync(dist)) throw new Error('dist/agent-widget.js is missing: run npm run build first');
    const pkg = (await import(`${pathToFileURL(dist).href}?ssr`)) as Record<string, unknown>;
    expect(uses()).toEqual([]);
    expect(typeof pkg.mount).toBe('function');
    expect(typeof pkg.defineElement).toBe('function');
  });

  test('src/widget/entries/bundler.ts loads and uses no browser global; our own modules read none at all', async () => {
    vi.resetModules();
    const entry = await import('../../../src/widget/entries/bundler');
    expect(uses()).toEqual([]);
    expect(reads.filter((r) => /\/src\//.test(r.at))).toEqual([]);
    expect(typeof entry.mount).toBe('function');
  });

  test('defineElement() during server rendering registers nothing and does not throw', async () => {
    const { defineElement } = await import('../../../src/widget/entries/bundler');
    expect(defineElement()).toBe(false);
  });
});
