// The path of each icon in a 24 x 24 box, drawn as a 2 px stroke: the launcher draws its two with DOM
// calls (../launcher/dom.ts), the panel all of them with Preact (./Icon.tsx). One export each, so the
// loader carries only the launcher's.
export const CHAT_ICON = 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12z';
export const CLOSE_ICON = 'M6 6l12 12M18 6L6 18';
export const NEW_ICON = 'M12 5v14M5 12h14';
export const DOWN_ICON = 'M12 5v14M6 13l6 6 6-6';
/** Thumbs up; chat.css turns it half a turn for thumbs down, which does not mirror in RTL. */
export const THUMB_ICON = 'M7 21H3V11h4l4-8a2 2 0 0 1 3 2l-1 4h7l-2 12H7V11';
/** Two sheets, one over the other. */
export const COPY_ICON = 'M9 9h11v11H9zM5 15H4V4h11v1';
