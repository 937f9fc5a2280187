// Colours from the owner's options, and the :host rules generated from them (a constructable sheet,
// so no style attribute is ever needed under a strict CSP).
import type { ResolvedOptions } from './options';

const WHITE = '#ffffff';
/** Near-black rather than pure black: softer, and still above 15:1 on white. */
const INK = '#111111';

function channels(hex: string): [number, number, number] {
  const h = hex.slice(1);
  const full = h.length === 3 ? h.replace(/./g, (c) => c + c) : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/** WCAG 2.x relative luminance of #rgb / #rrggbb. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** White or near-black text on `background`, whichever contrasts more. */
export function textColorOn(background: string): string {
  return contrastRatio(background, WHITE) >= contrastRatio(background, INK) ? WHITE : INK;
}

/**
 * The host rules: accent colours and the mode's placement, from validated options only. Our own host
 * element is locked down (!important beats host-page !important across the shadow boundary); the
 * owner's <agent-widget> element (`ownerSized`) stays sizable by the page's CSS, block by default.
 */
export function hostCss(options: Pick<ResolvedOptions, 'color' | 'mode'>, ownerSized = false): string {
  const placement = ownerSized
    ? 'all:initial;display:block;'
    : 'all:initial!important;' +
      (options.mode === 'bubble'
        ? // Out of flow: the host page's layout (flex gaps, margins) never sees us. The top z-index, and
          // last in <body>, so even a host's max-z-index sticky header stays underneath.
          'position:fixed!important;inset:auto!important;width:0!important;height:0!important;z-index:2147483647!important;'
        : 'display:block!important;width:100%!important;height:100%!important;');
  return `:host{${placement}--aw-accent:${options.color};--aw-on-accent:${textColorOn(options.color)}}`;
}

/** Constructable stylesheets where supported; jsdom has none, and a <style> fallback would break CSP. */
export function adoptStyles(root: ShadowRoot, cssTexts: readonly string[]): void {
  if (typeof CSSStyleSheet === 'undefined' || !('replaceSync' in CSSStyleSheet.prototype)) return;
  if (!('adoptedStyleSheets' in root)) return;
  root.adoptedStyleSheets = cssTexts.filter(Boolean).map((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });
}
