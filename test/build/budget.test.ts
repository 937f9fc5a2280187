// The module-level size budget of the panel's file: date handling, markdown and styles each stay within
// an agreed share of its minified bytes, so growth shows up with a name. The limits and the measurements
// behind them are in test/bench/size-breakdown.mjs (AREAS). The files' totals are checked in
// artifacts.test.ts. npm test builds before this runs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { AREAS, sizeBreakdown, type Breakdown } from '../bench/size-breakdown.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
let breakdown: Breakdown;

beforeAll(async () => {
  breakdown = await sizeBreakdown({ root, environment: 'panel' });
}, 60_000);

/** dist/chunks/panel.<hash>.js as `npm run build` wrote it. */
function builtPanel(): string {
  const files = existsSync(`${root}dist/chunks`) ? readdirSync(`${root}dist/chunks`).filter((file) => /^panel\..+\.js$/.test(file)) : [];
  if (files.length !== 1) throw new Error('dist/chunks/panel.<hash>.js is missing: run npm run build first');
  return readFileSync(`${root}dist/chunks/${files[0]}`, 'utf8');
}

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

describe("size budget by area of the panel's file", () => {
  test('the breakdown measures what ships: a fresh build equals dist/chunks/panel.<hash>.js', () => {
    expect(breakdown.code === builtPanel(), 'dist/chunks/panel.<hash>.js is stale: run npm run build').toBe(true);
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
      expect(area.share, `${name} is ${percent(area.share)} of the minified panel; largest: ${largest}`).toBeLessThanOrEqual(limit);
    });
  }
});
