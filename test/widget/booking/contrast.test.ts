// Form errors are told by text, an icon and the danger colour: the colour must hold WCAG AA in every
// theme the host rules define (4.5:1 for the text, 3:1 for the field border and the icon), read from the
// shipped CSS custom properties rather than copied here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Theme } from '../../../src/widget/options/options';
import { contrastRatio, hostCss } from '../../../src/widget/options/theme';

const read = (path: string) => readFileSync(join(process.cwd(), 'src/widget', path), 'utf8');
const booking = read('booking/booking.css').replace(/\/\*[\s\S]*?\*\//g, '');

/** The host rules the widget adopts for `theme`. */
const hostRules = (theme: Theme) => hostCss({ color: '#4f46e5', mode: 'bubble', theme, zIndex: '2147483647' });

/** The custom properties of `css` in a theme: a hex value, or the light or dark half of light-dark(light, dark). */
function themeOf(css: string, theme: 'light' | 'dark'): Record<string, string> {
  return Object.fromEntries(
    [...css.matchAll(/(--aw-[\w-]+):(?:(#[0-9a-f]{3,6})\b|light-dark\((#[0-9a-f]{3,6}),(#[0-9a-f]{3,6})\))/gi)].map(
      ([, name, hex, light, dark]) => [name, hex ?? (theme === 'light' ? light : dark)],
    ),
  );
}

/** The declarations of the booking.css rule whose selector list is exactly `selector`. */
function ruleOf(selector: string): string {
  // Whitespace in a selector list is layout (one selector a line, as Prettier writes them).
  const found = booking.split('}').find((rule) => rule.split('{')[0]?.trim().replace(/\s+/g, ' ') === selector);
  if (!found) throw new Error(`no "${selector}" rule in booking.css`);
  return found.split('{')[1] ?? '';
}

describe('form error colours', () => {
  const light = themeOf(hostRules('light'), 'light');
  const dark = themeOf(hostRules('dark'), 'dark');

  test('the automatic theme has the same palette as the explicit ones, and only the color-scheme tells them apart', () => {
    const palette = (theme: Theme) => hostRules(theme).replace(/--aw-scheme:[^;}]*/, '');
    expect(palette('auto')).toBe(palette('light'));
    expect(palette('auto')).toBe(palette('dark'));
    expect(Object.keys(dark)).toContain('--aw-danger');
  });

  test.each([
    ['light', light],
    ['dark', dark],
  ])('%s: --aw-danger on --aw-bg holds 4.5:1', (_, theme) => {
    const { '--aw-danger': danger, '--aw-bg': bg } = theme;
    if (!danger || !bg) throw new Error('--aw-danger or --aw-bg missing');
    // One pair serves all four: the text (4.5:1), the "!" in --aw-bg on its --aw-danger disc (4.5:1), a
    // destructive button's --aw-bg label on --aw-danger (4.5:1), and the disc and the invalid field's
    // border against the panel and the field, both --aw-bg (3:1).
    expect(contrastRatio(danger, bg)).toBeGreaterThanOrEqual(4.5);
  });

  test('the error text, its icon and the invalid field use those colours, so they are not black text and a focus-like ring', () => {
    expect(ruleOf('.error')).toMatch(/color: var\(--aw-danger\)/);
    const icon = ruleOf('.error::before, .ok::before');
    expect(icon).toMatch(/content: '!' \/ ''/);
    expect(icon).toMatch(/background: var\(--aw-danger\);.*color: var\(--aw-bg\)/s);
    expect(ruleOf('.booking [aria-invalid]')).toMatch(/border: 2px solid var\(--aw-danger\)/);
  });

  test('a button that cannot be undone is drawn in those colours too: its label in --aw-bg on --aw-danger', () => {
    expect(ruleOf('.btn.danger')).toMatch(/background: var\(--aw-danger\);\s*color: var\(--aw-bg\)/);
  });
});
