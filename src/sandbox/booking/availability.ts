// Which slots an agent offers on a day. Grid: every 15 minutes inside business hours, with the
// whole appointment (measured on real instants) ending by closing time. Wall times that do not
// exist (spring-forward gap) or occur twice (fall-back overlap) are never offered: the API names a
// slot by wall time only, so an ambiguous one could not be booked unambiguously.
import { DEFAULT_HORIZON_DAYS } from '../../core/spec-assumptions';
import type { BookingConfig } from '../../core/types';
import { addDays, hhmm, instantToZoned, isUnambiguousWallTime, minutesOf, weekday, zonedToInstant } from '../../core/time';
import type { DayName, WeeklyHours } from '../types';

export const SLOT_STEP_MINUTES = 15;
const DAY_NAMES: readonly DayName[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export interface Interval {
  startMs: number;
  endMs: number;
}

export interface GridSlot extends Interval {
  /** Agent-zone wall time, HH:MM. */
  time: string;
}

/** Why a slot on the grid cannot be booked; the spec's rules by name. */
export type SlotRefusal = 'notice' | 'horizon' | 'taken';

export interface AvailabilityRules {
  config: BookingConfig;
  hours: WeeklyHours;
  /** Intervals of every booking that still holds its time (not cancelled). */
  busy: readonly Interval[];
  now: Date;
}

export function gridSlots(date: string, durationMinutes: number, hours: WeeklyHours, zone: string): GridSlot[] {
  const ranges = hours[DAY_NAMES[weekday(date)] ?? 'sun'] ?? [];
  const slots: GridSlot[] = [];
  for (const range of ranges) {
    const closeMs = zonedToInstant(date, range.end, zone).getTime();
    for (let m = minutesOf(range.start); m < minutesOf(range.end); m += SLOT_STEP_MINUTES) {
      const time = hhmm(m);
      if (!isUnambiguousWallTime(date, time, zone)) continue;
      const startMs = zonedToInstant(date, time, zone).getTime();
      const endMs = startMs + durationMinutes * MINUTE_MS;
      if (endMs <= closeMs) slots.push({ time, startMs, endMs });
    }
  }
  return slots;
}

const overlaps = (a: Interval, b: Interval): boolean => a.startMs < b.endMs && b.startMs < a.endMs;

/** The first rule the slot breaks, in the order notice, horizon, overlap. */
export function slotRefusal(rules: AvailabilityRules, date: string, slot: Interval): SlotRefusal | undefined {
  if (slot.startMs < rules.now.getTime() + rules.config.min_notice_hours * HOUR_MS) return 'notice';
  const today = instantToZoned(rules.now, rules.config.timezone).date;
  if (date > addDays(today, rules.config.max_advance_days ?? DEFAULT_HORIZON_DAYS)) return 'horizon';
  if (rules.busy.some((b) => overlaps(b, slot))) return 'taken';
  return undefined;
}

export function slotsForDay(rules: AvailabilityRules, date: string, durationMinutes: number): (GridSlot & { available: boolean })[] {
  return gridSlots(date, durationMinutes, rules.hours, rules.config.timezone).map((slot) => ({
    ...slot,
    available: slotRefusal(rules, date, slot) === undefined,
  }));
}
