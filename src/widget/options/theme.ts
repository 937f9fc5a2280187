// Colours from the owner's options, and the :host rules generated from them (a constructable sheet,
// so no style attribute is ever needed under a strict CSP).
import { attempt } from '../../core/attempt';
import type { ResolvedOptions } from './options';

const WHITE = '#ffffff';
/** Near-black rather than pure black: softer, and still above 15:1 on white. */
const INK = '#111111';

/** WCAG 2.x relative luminance of #rgb / #rrggbb. */
export function luminance(hex: string): number {
  const full = hex.length < 7 ? hex.replace(/\w/g, '$&$&') : hex;
  return [0.2126, 0.7152, 0.0722].reduce((sum, weight, i) => {
    const c = parseInt(full.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return sum + weight * (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  }, 0);
}

/** WCAG contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * White or near-black text on `background`, whichever contrasts more. With L its luminance, white
 * gives 1.05 / (L + 0.05) and ink (L + 0.05) / (L(ink) + 0.05): white wins while (L + 0.05)² stays
 * within 1.05 (L(ink) + 0.05), the same as comparing contrastRatio() both ways.
 */
export function textColorOn(background: string): string {
  return (luminance(background) + 0.05) ** 2 > 1.05 * (luminance(INK) + 0.05) ? INK : WHITE;
}

/**
 * The host rules: accent colours and the mode's placement, from validated options only. Our own host
 * element is locked down (!important beats host-page !important across the shadow boundary); the
 * owner's <agent-widget> element (`ownerSized`) stays sizable by the page's CSS, block by default.
 */
export function hostCss({ color, mode }: Pick<ResolvedOptions, 'color' | 'mode'>, ownerSized = false): string {
  const placement = `all:initial;${
    ownerSized
      ? 'display:block'
      : // Out of flow in bubble mode: the host page's layout (flex gaps, margins) never sees us. The top
        // z-index, and last in <body>, so even a host's max-z-index sticky header stays underneath.
        mode === 'bubble'
        ? 'position:fixed;inset:auto;width:0;height:0;z-index:2147483647'
        : 'display:block;width:100%;height:100%'
  };`;
  return `:host{${ownerSized ? placement : placement.replace(/;/g, '!important;')}--aw-accent:${color};--aw-on-accent:${textColorOn(color)}}`;
}

/**
 * The root's constructable stylesheets become `css` (or, with `add`, gain it) where supported; jsdom has
 * none, and a <style> fallback would break CSP. A remounted element keeps its shadow root: replacing
 * first keeps its sheets from piling up.
 */
export function adoptStyles(root: ShadowRoot, css: string, add = false): void {
  attempt(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = add ? [...root.adoptedStyleSheets, sheet] : [sheet];
  });
}
