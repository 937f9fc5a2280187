// The API key never leaves the server, even when the service echoes it back: every text from the
// service passes through one redaction before anything is derived from it.

const REDACTED = '[redacted]';

export type Redact = (text: string) => string;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Removes the key, its `Bearer <key>` form, and its secret part without the `sk_live_`-style prefix. */
export function createRedactor(apiKey: string): Redact {
  const secret = /^sk_[a-z]+_(.{16,})$/.exec(apiKey)?.[1];
  const forms = [apiKey, ...(secret === undefined ? [] : [secret])].map(escapeRegExp);
  const pattern = new RegExp(`(?:bearer\\s+)?(?:${forms.join('|')})`, 'gi');
  return (text) => text.replace(pattern, REDACTED);
}

/**
 * JSON text with the key redacted from every string, and its value. It is parsed and serialized again
 * first, so a key spelled with \u escapes is caught too. Undefined when the text is not JSON.
 */
export function redactJson(text: string, redact: Redact): { value: unknown; text: string } | undefined {
  let normalized: string;
  try {
    normalized = JSON.stringify(JSON.parse(text));
  } catch {
    // Not JSON, or nested too deeply to serialize again.
    return undefined;
  }
  const clean = redact(normalized);
  return { value: JSON.parse(clean), text: clean };
}
