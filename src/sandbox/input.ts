// Reading request input at the boundary: JSON bodies, query parameters and typed fields,
// each failure a 400 that names the field.
import { declaresTooLarge, readBounded } from '../core/bounded-read';
import { isNonEmptyString } from '../core/validate';
import { badRequest, HttpError } from './responses';

export type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Far above any body the service's JSON endpoints take; a longer one is refused unread. */
const MAX_JSON_BODY_BYTES = 65_536;

/** The body as text, counted as it streams in: at most MAX_JSON_BODY_BYTES, else a 413. */
async function readBoundedText(request: Request): Promise<string> {
  const read = declaresTooLarge(request.headers, MAX_JSON_BODY_BYTES) ? undefined : await readBounded(request.body, MAX_JSON_BODY_BYTES);
  if (read?.ok) return new TextDecoder().decode(read.bytes);
  throw new HttpError(413, `The request body is larger than ${MAX_JSON_BODY_BYTES} bytes.`, 'payload_too_large');
}

/** The JSON object body; an empty body reads as `{}` so "missing field" errors name the field. */
export async function readJsonObject(request: Request): Promise<Fields> {
  const text = await readBoundedText(request);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.', 'invalid_json');
  }
  if (!isRecord(body)) throw badRequest('The request body must be a JSON object.', 'invalid_json');
  return body;
}

export function requireString(fields: Fields, name: string): string {
  const value = fields[name];
  if (!isNonEmptyString(value)) throw badRequest(`${name} is required (a non-empty string).`);
  return value;
}

export function optionalString(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (!isNonEmptyString(value)) throw badRequest(`${name} must be a non-empty string when given.`);
  return value;
}

/** An integer within [min, max], `fallback` when absent. */
export function integerInRange(fields: Fields, name: string, min: number, max: number, fallback: number): number {
  const value = fields[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw badRequest(`${name} must be a whole number from ${min} to ${max}.`);
  return value;
}

export function isRecordValue(value: unknown): value is Fields {
  return isRecord(value);
}

export function queryFields(url: URL): Fields {
  const fields: Fields = {};
  for (const [name, value] of url.searchParams) fields[name] = value;
  return fields;
}

/** A non-negative whole number written in a query string. */
export function queryInteger(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,6}$/.test(raw)) throw badRequest(`${name} must be a whole number.`);
  return Number(raw);
}

/** An http(s) URL, else a 400 naming the field. */
export function requireHttpUrl(value: unknown, name: string): URL {
  if (typeof value === 'string') {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url;
    } catch {
      // falls through to the error below
    }
  }
  throw badRequest(`${name} must be an http or https URL.`);
}
