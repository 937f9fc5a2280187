// The widget's console lines, for the page's owner: each starts with the same prefix, so a console
// filter finds them all.

/** console[level] is looked up on every call, so a console patched after load (an error tracker, a spy) hears it. */
const log =
  (level: 'error' | 'warn') =>
  (message: string, ...details: unknown[]): void =>
    console[level](`[AgentWidget] ${message}`, ...details);

/** Something the owner should fix; the widget carries on without it. */
export const logError = log('error');

/** Something the owner may want to know; a default or a fallback was used. */
export const logWarning = log('warn');
