// The widget's console lines, for the page's owner: each starts with the same prefix, so a console
// filter finds them all.
const PREFIX = '[AgentWidget]';

/** Something the owner should fix; the widget carries on without it. */
export const logError = (message: string, ...details: unknown[]): void => console.error(`${PREFIX} ${message}`, ...details);

/** Something the owner may want to know; a default or a fallback was used. */
export const logWarning = (message: string, ...details: unknown[]): void => console.warn(`${PREFIX} ${message}`, ...details);
