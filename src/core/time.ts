// Wall-clock values in the agent's zone <-> instants. The API speaks in the agent's wall clock
// (YYYY-MM-DD + HH:MM); everything that compares or displays across zones goes through here.
// Zone math is done with Intl alone: date-fns-tz (the design's first choice, kept as the test oracle in
// test/core/time.test.ts) cost 2.2 KB gzip in the widget, a tenth of its budget, and its Date-based API
// reads wall times through the runtime's own zone, which shifts times that fall in the visitor's DST gap.

import { attempt } from './attempt';

export interface WallClock {
  date: string;
  time: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');

const ISO_DATE = /^\d{4}-\d\d-\d\d$/;

/** YYYY-MM-DD that names a real day (no 2026-02-30, no month 13): calendar arithmetic writes its month and day back unchanged. */
export const isIsoDate = (value: string): boolean => ISO_DATE.test(value) && addDays(value, 0).slice(5) === value.slice(5);
const DAY_MS = 86_400_000;
const formatters: Record<string, Intl.DateTimeFormat | undefined> = {};

/**
 * A formatter for `locale` on `zone`'s clock, made once: formatters are costly to build, and the first
 * one for a zone more so (the browser loads its rules). Throws a RangeError for a zone it does not know.
 */
export function dateTimeFormat(locale: string, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  // Keys are JSON arrays ("[…"): none is an Object.prototype name.
  return (formatters[JSON.stringify([locale, zone, options])] ??= new Intl.DateTimeFormat(locale, { ...options, timeZone: zone }));
}

const WALL: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};
const formatterOf = (zone: string): Intl.DateTimeFormat => dateTimeFormat('en-US', zone, WALL);

/** Whether this runtime knows the IANA zone; the formatter it takes is kept for the zone math that follows. */
export const isTimeZone = (zone: string): boolean => !!attempt(() => formatterOf(zone));

/** The wall clock in `zone` at `ms`, as the UTC timestamp with the same fields (seconds precision). */
function wallAt(ms: number, zone: string): number {
  // en-US on a 23-hour clock writes "M/D/YYYY, HH:MM:SS": six numbers in that order, ASCII digits, and
  // nothing before or after them.
  const numbers = formatterOf(zone).format(ms).split(/\D+/);
  const [month, day, year, hour, minute, second] = numbers.map(Number) as [number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** `zone`'s offset from UTC at instant `ms`, a whole second (every caller passes a wall time from Date.UTC), in ms. */
const offsetAt = (ms: number, zone: string): number => wallAt(ms, zone) - ms;

/**
 * The instants at which `zone` shows the wall time `wall` (fields as UTC): one normally, two in a
 * fall-back overlap, none in a spring-forward gap. Offsets a day either side cover every transition,
 * which zones never make twice in a day. Only a falling offset makes an overlap, so the offset before
 * gives the earlier instant: the list comes out earlier first.
 */
const instantsOf = (wall: number, zone: string): number[] => {
  const candidates = new Set([wall - offsetAt(wall - DAY_MS, zone), wall - offsetAt(wall + DAY_MS, zone)]);
  return [...candidates].filter((t) => wallAt(t, zone) === wall);
};

/**
 * UTC midnight of calendar date `date` (YYYY-MM-DD; a month YYYY-MM is its 1st) moved by `months` and
 * `days`, with `time`'s hours, minutes and seconds when given: Date.UTC's arguments, in that order.
 */
function utc(date: string, months = 0, days = 0, time = ''): Date {
  const [y, m, d = 1] = date.split('-').map(Number) as [number, number, number?];
  return new Date(Date.UTC(y, m - 1 + months, d + days, ...(time.split(':').map(Number) as [number, number, number?])));
}

/**
 * The instant at which the wall clock in `zone` shows `date` `time` (HH:MM or HH:MM:SS). An
 * ambiguous time resolves to the earlier instant; a time in a gap is read with the offset before
 * the gap (so 02:30 on a spring-forward day is 03:30), as Temporal's "compatible" choice does.
 */
export function zonedToInstant(date: string, time: string, zone: string): Date {
  const wall = +utc(date, 0, 0, time);
  return new Date(instantsOf(wall, zone)[0] ?? wall - offsetAt(wall - DAY_MS, zone));
}

/** The wall clock in `zone` at `instant`, as YYYY-MM-DD and HH:MM. */
export function instantToZoned(instant: Date, zone: string): WallClock {
  const iso = new Date(wallAt(+instant, zone)).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/**
 * True when the wall time exists in `zone` on `date` and names exactly one instant
 * (a time in a spring-forward gap does not exist; one in a fall-back overlap is ambiguous).
 */
export function isUnambiguousWallTime(date: string, time: string, zone: string): boolean {
  return instantsOf(+utc(date, 0, 0, time), zone).length === 1;
}

/** True when `zone`'s wall clock shows the same time at another instant too (a fall-back overlap). */
export const isAmbiguousAt = (instant: Date, zone: string): boolean => instantsOf(wallAt(+instant, zone), zone).length > 1;

/**
 * The days of zone `other` that `date` in `zone` overlaps, in order (two when the zones' midnights
 * differ; a day of 23 or 25 hours is the one its own zone has), and whether it is exactly one of them.
 */
export function daysAcross(date: string, zone: string, other: string): { days: string[]; exact: boolean } {
  const from = instantToZoned(zonedToInstant(date, '00:00', zone), other);
  const to = instantToZoned(zonedToInstant(addDays(date, 1), '00:00', zone), other);
  const days: string[] = [];
  for (let d = from.date; d < to.date || (d === to.date && to.time > '00:00'); d = addDays(d, 1)) days.push(d);
  // Midnight to midnight in both zones is one day of `other`: two would take 46 hours or more.
  return { days, exact: from.time === '00:00' && to.time === '00:00' };
}

/** Calendar arithmetic on YYYY-MM-DD without touching any zone, written out as instantToZoned does (toISOString). */
export const addDays = (date: string, days: number): string => utc(date, 0, days).toISOString().slice(0, 10);

export const addMonths = (month: string, months: number): string => utc(month, months).toISOString().slice(0, 7);

/** The last day of the month: the 1st of the next one, less a day. */
export const daysInMonth = (month: string): number => utc(month, 1, -1).getUTCDate();

/** 0 = Sunday … 6 = Saturday, for a calendar date (zone-free). */
export const weekday = (date: string): number => utc(date).getUTCDay();

/** Minutes since midnight for HH:MM or HH:MM:SS. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

export function hhmm(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
