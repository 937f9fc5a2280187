// The path of each icon in a 24 x 24 box, drawn as a 2 px stroke: the launcher draws them with DOM calls
// (../launcher/dom.ts), the panel with Preact (./Icon.tsx); both read them from here.
export const ICON_PATHS = {
  chat: 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12z',
  close: 'M6 6l12 12M18 6L6 18',
  new: 'M12 5v14M5 12h14',
  down: 'M12 5v14M6 13l6 6 6-6',
  /** Thumbs up; chat.css turns it half a turn for thumbs down, which does not mirror in RTL. */
  thumb: 'M7 21H3V11h4l4-8a2 2 0 0 1 3 2l-1 4h7l-2 12H7V11',
  /** Two sheets, one over the other. */
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
} as const;

export type IconName = keyof typeof ICON_PATHS;
