// A few combinators that check an answer from outside and build a clean copy of it: unknown fields
// are dropped, missing optional ones get their defaults, anything else throws an Error naming the
// path. The spec's shapes are written once with these (./shapes) and their types derived with Infer.
// Hand-written rather than a schema library: valibot cost 2.4 KB gzip for the booking shapes alone,
// zod/mini 5.7 KB; the widget's whole budget for this is a few hundred bytes.

import { isFiniteNumber, isRecord } from './guards';

/** What a Schema throws: `path` says where in the answer, e.g. `config.duration_options[0].duration_minutes`. */
const shapeError = (path: string, expected: string): Error => new Error(`${path || 'the answer'}: expected ${expected}`);

/** Checks `value` (found at `path`) and returns the typed, cleaned value, or throws an Error saying what did not fit where. */
export type Schema<T> = (value: unknown, path: string) => T;
export type Infer<S> = S extends Schema<infer T> ? T : never;

/** `schema`, and then `test` on what it returned; `expected` says what should have been there. */
export const where =
  <T>(schema: Schema<T>, test: (value: T) => boolean, expected: string): Schema<T> =>
  (value, path) => {
    const v = schema(value, path);
    if (test(v)) return v;
    throw shapeError(path, expected);
  };

/** A JSON value of one type: `test` says whether it is. */
const check = <T>(test: (value: unknown) => boolean, expected: string): Schema<T> => where((v) => v as T, test, expected);

export const string: Schema<string> = check((v) => typeof v === 'string', 'a string');
export const number: Schema<number> = check(isFiniteNumber, 'a number');
export const boolean: Schema<boolean> = check((v) => typeof v === 'boolean', 'a boolean');

/** Absent (undefined or null) is `fallback`; anything present must pass `schema`. */
export function optional<T>(schema: Schema<T>): Schema<T | undefined>;
export function optional<T>(schema: Schema<T>, fallback: T): Schema<T>;
export function optional<T>(schema: Schema<T>, fallback?: T): Schema<T | undefined> {
  return (value, path) => (value == null ? fallback : schema(value, path));
}

/** Null stays null (the spec's "string or null"); undefined counts as null. */
export const nullable =
  <T>(schema: Schema<T>): Schema<T | null> =>
  (value, path) =>
    value == null ? null : schema(value, path);

const aList = check<unknown[]>(Array.isArray, 'a list');
export const array =
  <T>(item: Schema<T>): Schema<T[]> =>
  (value, path) =>
    aList(value, path).map((v, i) => item(v, `${path}[${i}]`));

const anObject = check<Record<string, unknown>>(isRecord, 'an object');

/** An object of string keys to `item`s, with no prototype, so keys like `__proto__` are plain data. */
export const record =
  <T>(item: Schema<T>): Schema<Record<string, T>> =>
  (value, path) => {
    const given = anObject(value, path);
    const out: Record<string, T> = Object.create(null);
    for (const key of Object.keys(given)) out[key] = item(given[key], `${path}.${key}`);
    return out;
  };

type Fields = Record<string, Schema<unknown>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** Keys whose schema admits undefined become optional properties. */
export type ObjectOf<F extends Fields> = Flat<
  { [K in keyof F as undefined extends Infer<F[K]> ? never : K]: Infer<F[K]> } & {
    [K in keyof F as undefined extends Infer<F[K]> ? K : never]?: Infer<F[K]>;
  }
>;

/** An object with exactly these fields checked; other fields are left out of the copy. */
export const object =
  <F extends Fields>(fields: F): Schema<ObjectOf<F>> =>
  (value, path) => {
    const given = anObject(value, path);
    const out: Record<string, unknown> = {};
    for (const key in fields) {
      const v = (fields[key] as Schema<unknown>)(given[key], path ? `${path}.${key}` : key);
      if (v !== undefined) out[key] = v;
    }
    return out as ObjectOf<F>;
  };

/** The object's checked fields over a copy of all its others: for records whose other fields the spec does not show. */
export const loose =
  <T extends Record<string, unknown>>(schema: Schema<T>): Schema<T & { [field: string]: unknown }> =>
  (value, path) => ({ ...(value as object), ...schema(value, path) });

/** Anything at all (e.g. a plan's feature configuration). */
export const unknown: Schema<unknown> = (value) => value;
