// A reply can be anything an upstream sends: rendering it costs time in proportion to its length,
// whatever its shape. Measured as CPU time of ten times the input, so other processes barely count,
// against a factor far above linear (10) and far below quadratic (100).
import { cleanup, render } from '@testing-library/preact';
import { afterEach, expect, test } from 'vitest';
import { renderMarkdown } from '../../src/widget/chat/markdown';

const HINT = '(opens in a new tab)';
/** Ten times the input may cost at most this many times as much. */
const GROWTH = 30;
/** Timer resolution and noise: anything under this counts as this. */
const FLOOR_US = 2_000;

afterEach(cleanup);

/** The least CPU time, in µs, of a few renders: the least disturbed one. */
function cost(source: string): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = process.cpuUsage();
    renderMarkdown(source, HINT);
    const { user, system } = process.cpuUsage(start);
    best = Math.min(best, user + system);
  }
  return best;
}

const repeat = (unit: string) => (length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

test.each([
  ['a run of [ with no closing', repeat('[')],
  ['a word with no @ (e-mail backtracking)', repeat('a')],
  [
    'a staircase of ever deeper list items',
    (n: number) => {
      let out = '';
      for (let depth = 0; out.length < n; depth++) out += `${' '.repeat(depth)}- x\n`;
      return out.slice(0, n);
    },
  ],
  ['list items nested four deep, repeated', repeat('- a\n  - b\n    - c\n      - d\n        - e\n')],
  ['a table of many rows', (n: number) => `a|b\n-|-\n${repeat('cell|cell\n')(n - 8)}`],
  ['rows of pipes and dashes', repeat('|-|:|-\n')],
  ['a table row of escaped pipes', (n: number) => `a|b\n-|-\n${repeat('\\|')(n - 8)}`],
  ['a row of pipes then a long dashless divider', (n: number) => `a|b\n${repeat('|:')(n - 4)}`],
  ['a.a.a… with no @', repeat('a.')],
  ['a@a.a@a.… ', repeat('a@a.')],
  ['https://https://… ending in punctuation', (n: number) => `${repeat('https://')(n - 1)}.`],
  ['+1 +1 … and digits with no end', repeat('+1 ')],
  ['+1(((((… ', (n: number) => `+1${repeat('(')(n - 2)}`],
  ['a run of [ closed once, with no url', (n: number) => repeat('[')(n - 1) + ']'],
  ['a run of [a]( with no closing', repeat('[a](')],
  ['a run of *', repeat('*')],
  ['*a*a*a…', repeat('*a')],
  ['**a *a *a… with no closing', (n: number) => `**${repeat('a *')(n - 2)}`],
  ['a run of `', repeat('`')],
  ['`a`a`a…', repeat('`a')],
  ['a run of spaces before text', (n: number) => `${repeat(' ')(n - 1)}x`],
  ['- - - …', repeat('- ')],
  ['> > > …', repeat('> ')],
  ['rows of [', repeat('[\n')],
  ['rows of ```', repeat('```\n')],
])('%s renders in time linear in its length', (_name, make) => {
  const small = cost(make(10_000));
  const large = cost(make(100_000));
  expect(large).toBeLessThan(GROWTH * Math.max(small, FLOOR_US));
});

test('a 100 000-character run of [ is shown as the text it is', () => {
  const source = '['.repeat(100_000);
  const reply = render(<div>{renderMarkdown(source, HINT)}</div>).container;
  expect(reply.textContent).toBe(source);
  expect(reply.querySelector('a')).toBeNull();
});

test('a stray [ before a link leaves the link whole, as CommonMark does', () => {
  const reply = render(<div>{renderMarkdown('See [note [the guide](https://shop.test/guide)', HINT)}</div>).container;
  expect(reply.querySelector('a')?.getAttribute('href')).toBe('https://shop.test/guide');
  expect(reply.querySelector('a')?.firstChild?.textContent).toBe('the guide');
  expect(reply.textContent).toContain('See [note the guide');
});
