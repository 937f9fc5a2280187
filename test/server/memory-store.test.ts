// The in-memory store under a flood of new identities: bounded memory, and every hit stays cheap
// once the store is full (it used to scan every key for each new one).
import { expect, test } from 'vitest';
import { createMemoryStore } from '../../src/server';

const KEYS = 20_000;

/** Milliseconds to count one hit on each of `count` keys never seen before. */
async function newKeys(store: ReturnType<typeof createMemoryStore>, prefix: string, count: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) await store.hit(`${prefix}-${i}`, 60_000, 1000);
  return performance.now() - start;
}

/** The quickest of three floods of new keys: a busy machine slows some rounds, not all three alike. */
async function quickestFlood(store: ReturnType<typeof createMemoryStore>): Promise<number> {
  let quickest = Infinity;
  for (const round of [1, 2, 3]) quickest = Math.min(quickest, await newKeys(store, `flood${round}`, KEYS));
  return quickest;
}

test('a full store takes new keys as fast as an empty one: eviction does not scan', async () => {
  const roomy = createMemoryStore({ maxKeys: 10 * KEYS });
  const full = createMemoryStore({ maxKeys: KEYS });
  await newKeys(full, 'fill', KEYS);
  expect(full.size).toBe(KEYS);

  const withRoom = await quickestFlood(roomy);
  const whenFull = await quickestFlood(full);
  // A scan per new key makes this about KEYS / 2 times slower; O(1) eviction keeps it within noise.
  expect(whenFull).toBeLessThan(10 * withRoom + 100);
  expect(full.size).toBe(KEYS);
});

test('at maxKeys the window that started longest ago is the one dropped', async () => {
  const store = createMemoryStore({ maxKeys: 3 });
  await store.hit('a', 60_000, 0);
  await store.hit('b', 60_000, 1);
  await store.hit('c', 60_000, 2);
  await store.hit('b', 60_000, 3);
  await store.hit('d', 60_000, 4);
  expect(store.size).toBe(3);
  // 'a' started first and is the one dropped; 'b', hit again since, keeps its count.
  expect(await store.hit('b', 60_000, 5)).toMatchObject({ count: 3 });
  expect(await store.hit('a', 60_000, 5)).toMatchObject({ count: 1 });
});
