// Type guards for values from outside (JSON, storage, attributes), for code that reads them by hand. The
// combinators of ./schema build on them; modules that need only a guard import it from here and stay
// free of the combinators.

/** A number JSON can carry: not NaN, not infinite. Number.isFinite never converts: anything but a number is false. */
export const isFiniteNumber = Number.isFinite as (v: unknown) => v is number;

/** Text with more than whitespace in it. */
export const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && !!v.trim();

/** A plain object (not null, not an array): what JSON calls an object. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Untrusted list data read by hand: `value`'s items when it is a list (else none), each as fields to check one by one. */
export const recordsIn = (value: unknown): Record<string, unknown>[] =>
  (Array.isArray(value) ? value : []).map((item: unknown) => (item ?? {}) as Record<string, unknown>);
