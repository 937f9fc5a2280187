// Text from the service (question content, document names, error messages) is untrusted: it must not
// be able to drive the terminal, and the API key must never be printed even if the service echoes it.

/** C0 and C1 controls, DEL, and the bidirectional overrides that can make text read differently. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Controls JSON.stringify leaves as they are (it escapes only U+0000 to U+001F). */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Anything shaped like a key, so a key echoed in part, or another key, is hidden too. */
const KEY_SHAPE = /sk_live_[A-Za-z0-9_-]+/g;
export const REDACTED = 'sk_live_[redacted]';

/** One line of untrusted text: line breaks and tabs become spaces, other controls are dropped. */
export function plain(text: string): string {
  return text.replace(/[\t\n\r\v\f]+/g, ' ').replace(CONTROL, '');
}

/** Hides the key (exactly, and anything key-shaped). Applied to every byte the CLI writes. */
export function redact(text: string, apiKey: string | undefined): string {
  const exact = apiKey !== undefined && apiKey.length >= 8 ? text.split(apiKey).join(REDACTED) : text;
  return exact.replace(KEY_SHAPE, REDACTED);
}

/** JSON for scripts: the same value, with the controls JSON.stringify would pass through escaped. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Cuts a line to `max` code points with an ellipsis (for terminal columns; wide characters count once). */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}
