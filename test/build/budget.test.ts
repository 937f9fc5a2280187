// The module-level size budget of dist/widget.js: date handling, markdown and styles each stay within an
// agreed share of the minified bytes, so growth shows up with a name. The limits and the measurements
// behind them are in test/bench/size-breakdown.mjs (AREAS) and README.md (Performance). The 30 KB gzip total
// is checked in artifacts.test.ts. npm test builds before this runs.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { AREAS, widgetBreakdown, type Breakdown } from '../bench/size-breakdown.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const built = `${root}dist/widget.js`;
let breakdown: Breakdown;

beforeAll(async () => {
  breakdown = await widgetBreakdown({ root });
}, 60_000);

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

describe('size budget by area of dist/widget.js', () => {
  test('the breakdown measures what ships: a fresh build equals dist/widget.js', () => {
    if (!existsSync(built)) throw new Error('dist/widget.js is missing: run npm run build first');
    expect(breakdown.code === readFileSync(built, 'utf8'), 'dist/widget.js is stale: run npm run build').toBe(true);
  });

  test('the per-module estimates add up to the real minified size within 3%', () => {
    expect(breakdown.estimated / breakdown.total.raw).toBeGreaterThan(0.97);
    expect(breakdown.estimated / breakdown.total.raw).toBeLessThan(1.03);
  });

  for (const [name, { limit, test: inArea }] of Object.entries(AREAS)) {
    test(`${name} stays within ${percent(limit)} of the minified bytes`, () => {
      const area = breakdown.areas.find((a) => a.name === name);
      if (!area) throw new Error(`no area named ${name}`);
      // A renamed file must not empty a budget silently.
      expect(area.modules, `no module matches the ${name} area any more`).toBeGreaterThan(0);
      const largest = breakdown.modules
        .filter((m) => inArea(m.id))
        .slice(0, 5)
        .map((m) => `${m.id} ${m.minified} B`)
        .join(', ');
      expect(area.share, `${name} is ${percent(area.share)} of the minified widget; largest: ${largest}`).toBeLessThanOrEqual(
        limit,
      );
    });
  }
});
