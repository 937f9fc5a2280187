// Formatting with Intl (formatters are costly to build, so each is made once) and the view of a
// day's slots in a chosen zone, where the DST rules live.
import { instantToZoned, isUnambiguousWallTime, zonedToInstant } from '../../core/time';
import type { BookingSlot } from '../../core/types';

const formatters = new Map<string, Intl.DateTimeFormat>();

function dtf(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, { ...options, timeZone })));
  return f;
}

// One time shape everywhere, so 12/24-hour follows the locale the same way from slots to confirmation.
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const LONG_DAY: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' };
const SHORT_DAY: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };
export const MONTH: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric' };

const utcDay = (date: string): number => Date.parse(`${date.length === 7 ? date + '-01' : date}T00:00:00Z`);

/** A calendar date (YYYY-MM-DD) or month (YYYY-MM) in words; zone-free. */
export function formatDate(locale: string, date: string, options: Intl.DateTimeFormatOptions = LONG_DAY): string {
  return dtf(locale, 'UTC', options).format(utcDay(date));
}

/**
 * The time (or with `withDay`, day and time) of `instant` on `zone`'s wall clock. When that wall time
 * occurs twice in `zone` (a DST fall-back hour) the zone's abbreviation tells the two apart.
 */
export function formatInstant(locale: string, zone: string, instant: Date, withDay = false): string {
  const wall = instantToZoned(instant, zone);
  const ambiguous = !isUnambiguousWallTime(wall.date, wall.time, zone);
  const options = { ...(withDay ? LONG_DAY : {}), ...TIME, ...(ambiguous ? { timeZoneName: 'short' as const } : {}) };
  return dtf(locale, zone, options).format(instant);
}

/** "Eastern Time", "Japan Standard Time"; the IANA name where Intl cannot say. */
export function zoneName(locale: string, zone: string): string {
  try {
    const part = dtf(locale, zone, { timeZoneName: 'longGeneric' })
      .formatToParts(0)
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? zone;
  } catch {
    return zone;
  }
}

/** The locale's first day of the week, 0 = Sunday; Monday where the browser cannot say. */
export function weekStart(locale: string): number {
  type WeekInfo = { firstDay: number };
  const loc = new Intl.Locale(locale) as Intl.Locale & { weekInfo?: WeekInfo; getWeekInfo?: () => WeekInfo };
  const info = loc.getWeekInfo?.() ?? loc.weekInfo;
  return (info?.firstDay ?? 1) % 7;
}

export interface SlotView {
  /** The API's HH:MM in the agent's zone, sent back unchanged on create. */
  time: string;
  instant: Date;
  label: string;
  /** The day in the shown zone, in words, when it is not the agent's day. */
  day?: string;
}

/**
 * The free slots of the agent's `date`, shown on `zone`'s clock. A wall time that does not exist in
 * the agent's zone (spring-forward gap) names no instant, so it is left out rather than shifted; a
 * time listed twice is shown once; a shown time that occurs twice carries its zone abbreviation.
 */
export function slotViews(
  locale: string,
  date: string,
  slots: readonly BookingSlot[],
  agentZone: string,
  zone: string,
): SlotView[] {
  const seen = new Set<string>();
  const views: SlotView[] = [];
  for (const { time, available } of slots) {
    if (!available || seen.has(time)) continue;
    seen.add(time);
    const instant = zonedToInstant(date, time, agentZone);
    const back = instantToZoned(instant, agentZone);
    if (back.date !== date || back.time !== time) continue;
    const shownDay = instantToZoned(instant, zone).date;
    views.push({
      time,
      instant,
      label: formatInstant(locale, zone, instant),
      day: shownDay === date ? undefined : formatDate(locale, shownDay, SHORT_DAY),
    });
  }
  return views.sort((a, b) => a.instant.getTime() - b.instant.getTime());
}

/**
 * A remembered booking's start, short: on `visitorZone`'s clock when the agent's `zone` is known,
 * else as the bare wall time it was stored with.
 */
export function formatStart(locale: string, date: string, time: string, zone: string | undefined, visitorZone: string): string {
  return dtf(locale, zone ? visitorZone : 'UTC', { ...SHORT_DAY, ...TIME }).format(zonedToInstant(date, time, zone ?? 'UTC'));
}

/** A duration as the config labels it, else its minutes in words ("30 minutes"): the label is optional. */
export const durationText = (locale: string, label: string, minutes: number): string =>
  label || new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
