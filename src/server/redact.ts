// The API key never leaves the server, even when the service echoes it back: every text from the
// service passes through one redaction before anything is derived from it.

const REDACTED = '[redacted]';

export type Redact = (text: string) => string;

/** Shorter runs of the key than this are left alone: they could be chance, and would say little. */
const RUN = 8;

/** The characters just before a run that are its `Bearer ` label, if any (a bounded look back). */
const BEARER_BEFORE = /bearer\s{1,8}$/i;

/**
 * Removes every run of 8 or more characters of the key (any case): the whole key, its `Bearer <key>`
 * form, and any part an upstream echoes truncated (a prefix, a suffix, a middle). A position is
 * covered when the 8 characters from it are 8 consecutive characters of the key; covered positions
 * that touch or overlap become one `[redacted]`. Linear in the text: one Set lookup per position.
 */
export function createRedactor(apiKey: string): Redact {
  const key = asciiLowerCase(apiKey);
  const length = Math.min(RUN, key.length);
  const runs = new Set<string>();
  for (let start = 0; start + length <= key.length; start++) runs.add(key.slice(start, start + length));

  return (text) => {
    const lower = asciiLowerCase(text);
    let result = '';
    let copiedUpTo = 0;
    let coveredUpTo = -1;
    let runStart = 0;
    const close = (): void => {
      const label = BEARER_BEFORE.exec(text.slice(Math.max(copiedUpTo, runStart - 16), runStart));
      const start = label === null ? runStart : runStart - label[0].length;
      result += text.slice(copiedUpTo, start) + REDACTED;
      copiedUpTo = coveredUpTo;
    };
    for (let position = 0; position + length <= lower.length; position++) {
      if (!runs.has(lower.slice(position, position + length))) continue;
      if (position > coveredUpTo) {
        if (coveredUpTo >= 0) close();
        runStart = position;
      }
      coveredUpTo = position + length;
    }
    if (coveredUpTo < 0) return text;
    close();
    return result + text.slice(copiedUpTo);
  };
}

/** A-Z lowered, nothing else: unlike toLowerCase it never changes the length, so positions line up. */
const asciiLowerCase = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

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
