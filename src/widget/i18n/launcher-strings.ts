// The English text of what the loader draws before the panel arrives: the launcher, its unread count,
// and the stand-in panel shown while the panel loads or when it cannot. Part of the one dictionary
// (./index spreads it in), kept apart so widget.js carries these and not the rest.
export const launcherStrings = {
  defaultTitle: 'Chat',
  launcherLabel: 'Chat with {title}',
  close: 'Close',
  unread: 'Unread messages: {count}',
  loading: 'Loading…',
  panelFailed: 'The chat could not be loaded. Please check your connection and try again.',
  retry: 'Try again',
};

export type LauncherStrings = typeof launcherStrings;
