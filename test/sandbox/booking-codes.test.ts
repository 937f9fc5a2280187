import { expect, test } from 'vitest';
import { uniqueBookingCode } from '../../src/sandbox/booking/engine';
import type { Random } from '../../src/sandbox/random';

/** A generator that hands out the given strings in order, to force collisions. */
function scripted(values: string[]): Random {
  let i = 0;
  return { string: () => values[i++] ?? 'ZZZZZZ' };
}

test('a code that was already issued is never handed out again', () => {
  const issued = new Set<string>();
  const random = scripted(['AAAAAA', 'AAAAAA', 'AAAAAA', 'BBBBBB']);
  expect(uniqueBookingCode(random, issued)).toBe('BK-AAAAAA');
  expect(uniqueBookingCode(random, issued)).toBe('BK-BBBBBB');
  expect([...issued]).toEqual(['BK-AAAAAA', 'BK-BBBBBB']);
});
