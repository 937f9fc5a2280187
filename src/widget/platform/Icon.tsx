// Decorative icons: hidden from assistive tech, the buttons carry the names. (focusable="false" was for
// IE and old Edge only; no browser this bundle targets puts an SVG in the tab order.)
import { ICON_PATHS, type IconName } from './icon-paths';

export const Icon = ({ name }: { name: IconName }) => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path d={ICON_PATHS[name]} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
  </svg>
);
