// Format checks shared by the clients (before any request), the sandbox (at its boundary) and the UI.
import { ApiError } from './http';
import { isNonEmptyString } from './guards';
import { isIsoDate } from './time';

export { isIsoDate, isNonEmptyString };

const YEAR_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** The spec shows codes as BK-XXXXXX: six characters from A-Z and 0-9. */
const BOOKING_CODE = /^BK-[A-Z0-9]{6}$/;
/** Deliberately plain: one @, something on each side, a dot in the domain, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const isYearMonth = (v: string): boolean => YEAR_MONTH.test(v);
export const isHHMM = (v: string): boolean => HH_MM.test(v);
export const isBookingCode = (v: string): boolean => BOOKING_CODE.test(v);
export const isEmail = (v: string): boolean => EMAIL.test(v.trim());

/** Codes are typed by people: tolerate case and surrounding spaces, nothing else. */
export const normalizeBookingCode = (v: string): string => v.trim().toUpperCase();

export const invalidArgument = (argument: string, message: string): ApiError =>
  new ApiError(`Invalid ${argument}: ${message}`, { kind: 'validation', argument });

/** Throws a validation ApiError naming `argument` unless `ok`. */
export const check = (ok: boolean, argument: string, message: string): void => {
  if (!ok) throw invalidArgument(argument, message);
};

export const requireId = (value: unknown, argument: string): void =>
  check(isNonEmptyString(value), argument, 'a non-empty string is required.');
