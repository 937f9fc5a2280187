// Wall-clock values in the agent's zone <-> instants. The API speaks in the agent's wall clock
// (YYYY-MM-DD + HH:MM); everything that compares or displays across zones goes through here.
import { fromZonedTime, toZonedTime } from 'date-fns-tz';

/** The instant at which the wall clock in `zone` shows `date` `time` (HH:MM or HH:MM:SS). */
export function zonedToInstant(date: string, time: string, zone: string): Date {
  return fromZonedTime(`${date}T${time.length === 5 ? time + ':00' : time}`, zone);
}

export interface WallClock {
  date: string;
  time: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The wall clock in `zone` at `instant`, as YYYY-MM-DD and HH:MM. */
export function instantToZoned(instant: Date, zone: string): WallClock {
  const z = toZonedTime(instant, zone);
  return {
    date: `${z.getFullYear()}-${pad(z.getMonth() + 1)}-${pad(z.getDate())}`,
    time: `${pad(z.getHours())}:${pad(z.getMinutes())}`,
  };
}

/**
 * True when the wall time exists in `zone` on `date` and names exactly one instant
 * (a time in a spring-forward gap does not exist; one in a fall-back overlap is ambiguous).
 */
export function isUnambiguousWallTime(date: string, time: string, zone: string): boolean {
  const instant = zonedToInstant(date, time, zone);
  const back = instantToZoned(instant, zone);
  if (back.date !== date || back.time !== time.slice(0, 5)) return false;
  const hour = 3_600_000;
  for (const shift of [-hour, hour]) {
    const other = instantToZoned(new Date(instant.getTime() + shift), zone);
    if (other.date === date && other.time === time.slice(0, 5)) return false;
  }
  return true;
}

/** Calendar arithmetic on YYYY-MM-DD without touching any zone. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

export function addMonths(month: string, months: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const t = new Date(Date.UTC(y, m - 1 + months, 1));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}`;
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** 0 = Sunday … 6 = Saturday, for a calendar date (zone-free). */
export function weekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** Minutes since midnight for HH:MM or HH:MM:SS. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

export function hhmm(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
