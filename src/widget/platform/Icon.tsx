// Decorative icons: hidden from assistive tech, the buttons carry the names. (focusable="false" was for
// IE and old Edge only; no browser this bundle targets puts an SVG in the tab order.)
import { CHAT_ICON, CLOSE_ICON, COPY_ICON, DOWN_ICON, NEW_ICON, THUMB_ICON } from './icon-paths';

const PATHS = { chat: CHAT_ICON, close: CLOSE_ICON, new: NEW_ICON, down: DOWN_ICON, thumb: THUMB_ICON, copy: COPY_ICON };

export const Icon = ({ name }: { name: keyof typeof PATHS }) => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path d={PATHS[name]} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
  </svg>
);
