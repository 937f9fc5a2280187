// Reading a body once counted (../core/bounded-read): decoded and parsed strictly.

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text, or undefined when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; why: 'invalid' | 'repeated_name' };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The first name that appears twice in one object of `text`, which must be valid JSON; linear in its
 * length. JSON.parse keeps the last of repeated names while another parser may keep the first, so
 * a body with one could mean one thing to our checks and another to the service.
 */
function hasRepeatedName(text: string): boolean {
  // One entry per open container: the names seen so far in an object, undefined for an array.
  const open: (Set<string> | undefined)[] = [];
  let nameNext = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      i++;
      while (text.charCodeAt(i) !== QUOTE) i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
      const names = open.at(-1);
      if (nameNext && names !== undefined) {
        const literal = text.slice(start, i + 1);
        // Escapes decoded, so "a" and "\u0061" are the same name.
        const name: unknown = literal.includes('\\') ? JSON.parse(literal) : literal.slice(1, -1);
        if (typeof name === 'string') {
          if (names.has(name)) return true;
          names.add(name);
        }
      }
      nameNext = false;
    } else if (char === '{') {
      open.push(new Set());
      nameNext = true;
    } else if (char === '[') {
      open.push(undefined);
      nameNext = false;
    } else if (char === '}' || char === ']') {
      open.pop();
      nameNext = false;
    } else if (char === ',') nameNext = open.at(-1) !== undefined;
    else if (char === ':') nameNext = false;
  }
  return false;
}

/** A JSON body to a value; invalid UTF-8, invalid JSON and a name repeated within an object are refused. */
export function parseJson(bytes: Uint8Array): JsonBody {
  const invalid: JsonBody = { ok: false, why: 'invalid' };
  const text = decodeUtf8(bytes);
  if (text === undefined) return invalid;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid;
  }
  if (hasRepeatedName(text)) return { ok: false, why: 'repeated_name' };
  return { ok: true, value };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
