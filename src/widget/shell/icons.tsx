// Decorative icons: hidden from assistive tech, the buttons carry the names. (focusable="false" was for
// IE and old Edge only; no browser this bundle targets puts an SVG in the tab order.)
const svg = (d: string) => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path d={d} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
  </svg>
);

export const chatIcon = () => svg('M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12z');
export const closeIcon = () => svg('M6 6l12 12M18 6L6 18');
export const newIcon = () => svg('M12 5v14M5 12h14');
export const downIcon = () => svg('M12 5v14M6 13l6 6 6-6');
/** Thumbs up; chat.css turns it half a turn for thumbs down, which does not mirror in RTL. */
export const thumbIcon = () => svg('M7 21H3V11h4l4-8a2 2 0 0 1 3 2l-1 4h7l-2 12H7V11');
/** Two sheets, one over the other. */
export const copyIcon = () => svg('M9 9h11v11H9zM5 15H4V4h11v1');
