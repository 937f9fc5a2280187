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
 * The luminance at which white and near-black text contrast equally on a background: with L the
 * background's, white gives 1.05 / (L + 0.05) and ink (L + 0.05) / (L(ink) + 0.05), equal where
 * L = sqrt(1.05 (L(ink) + 0.05)) - 0.05, with L(#111111) = 0.0056054. Written out rather than computed
 * on every call; of all #rrggbb colours, #bf3cd6 and #ed0e60 lie nearest it, 3e-8 either side (the tests
 * check both against contrastRatio()).
 */
const EQUAL_CONTRAST_LUMINANCE = 0.19163125;

/** White or near-black text on `background`, whichever contrasts more. */
export const textColorOn = (background: string): string => (luminance(background) > EQUAL_CONTRAST_LUMINANCE ? INK : WHITE);

/**
 * The palette (shell.css uses it; docs/widget.md, Theming): each colour light-dark(light, dark), which follows
 * the root's color-scheme, --aw-scheme: the theme, or both for auto, where the system setting picks.
 */
const PALETTE =
  '--aw-bg:light-dark(#ffffff,#17191e);--aw-fg:light-dark(#1b1f24,#eef0f3);--aw-muted:light-dark(#57606a,#a5adb8);--aw-surface:light-dark(#eef1f4,#262a31);--aw-border:light-dark(#d8dee4,#3b414b);--aw-field-border:light-dark(#6e7781,#8b949e);--aw-danger:light-dark(#b42318,#ffa198)';

/**
 * The host rules: the mode's placement, the accent colours and the theme's palette, from validated
 * options only. Our own host element is locked down (!important beats host-page !important across the
 * shadow boundary); the owner's <agent-widget> element (`ownerSized`) stays sizable by the page's CSS,
 * block by default. The colours are plain declarations on :host, so the page's own rules on the host
 * element win over them, in either theme.
 */
export function hostCss(
  { color, mode, theme, zIndex }: Pick<ResolvedOptions, 'color' | 'mode' | 'theme' | 'zIndex'>,
  ownerSized?: boolean,
): string {
  const placement = ownerSized
    ? 'all:initial;display:block;'
    : `all:initial;${
        // Out of flow in bubble mode: the host page's layout (flex gaps, margins) never sees us. The top
        // z-index unless the owner lowered it (under a cookie banner), and last in <body>, so even a
        // host's max-z-index sticky header stays underneath.
        mode === 'bubble' ? `position:fixed;inset:auto;width:0;height:0;z-index:${zIndex}` : 'display:block;width:100%;height:100%'
      };`.replace(/;/g, '!important;');
  return `:host{${placement}--aw-accent:${color};--aw-on-accent:${textColorOn(color)};${PALETTE};--aw-scheme:${theme === 'auto' ? 'light dark' : theme}}`;
}

/**
 * The root's constructable stylesheets become `css` (or, with `add`, gain it) where supported; jsdom has
 * none, and a <style> fallback would break CSP. A remounted element keeps its shadow root: replacing
 * first keeps its sheets from piling up.
 */
export const adoptStyles = (root: ShadowRoot, css: string, add?: boolean): void =>
  attempt(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = add ? [...root.adoptedStyleSheets, sheet] : [sheet];
  });
