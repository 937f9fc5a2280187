import { describe, expect, test } from 'vitest';
import { contrastRatio, hostCss, luminance, textColorOn } from '../../src/widget/options/theme';

describe('contrast (WCAG 2.x)', () => {
  test('reference values', () => {
    expect(luminance('#ffffff')).toBeCloseTo(1, 5);
    expect(luminance('#000')).toBe(0);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBeCloseTo(1, 5);
    // #767676 is the classic 4.54:1 grey on white.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  test.each([
    ['#4f46e5', '#ffffff'],
    ['#0f766e', '#ffffff'],
    ['#000', '#ffffff'],
    ['#ffff00', '#111111'],
    ['#fde68a', '#111111'],
    ['#ffffff', '#111111'],
    // Mid greys: whichever contrasts more wins.
    ['#808080', '#111111'],
    ['#666666', '#ffffff'],
    // The two colours whose luminance lies nearest the point where both contrast equally, either side.
    ['#bf3cd6', '#ffffff'],
    ['#ed0e60', '#111111'],
  ])('text on %s is %s', (background, text) => {
    expect(textColorOn(background)).toBe(text);
  });

  test('the chosen text colour always contrasts at least as much as the other', () => {
    const greys = Array.from({ length: 52 }, (_, i) => `#${(i * 5).toString(16).padStart(2, '0').repeat(3)}`);
    for (const grey of [...greys, '#bf3cd6', '#ed0e60']) {
      const chosen = textColorOn(grey);
      const other = chosen === '#ffffff' ? '#111111' : '#ffffff';
      expect(contrastRatio(grey, chosen)).toBeGreaterThanOrEqual(contrastRatio(grey, other));
    }
  });

  test('the host rules carry the validated accent and its text colour', () => {
    const css = hostCss({ color: '#ffff00', mode: 'bubble', theme: 'light', zIndex: '2147483647' });
    expect(css).toContain('--aw-accent:#ffff00');
    expect(css).toContain('--aw-on-accent:#111111');
    expect(css).toContain('all:initial');
    expect(css).toContain('position:fixed');
    expect(hostCss({ color: '#4f46e5', mode: 'inline', theme: 'light', zIndex: '2147483647' })).not.toContain('position:fixed');
  });
});
