// What can be booked, in the zone the visitor looks at. The service answers in the agent's zone (a
// month's dates, a day's slots); this model fetches them through caches and turns them into the days
// and times of the shown zone, the visitor's or, after a switch, the agent's.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import { addDays, daysAcross, daysInMonth, instantToZoned, zonedToInstant } from '../../../core/time';
import type { BookingConfig, BookingDate, DurationOption } from '../../../core/types';
import type { BookingContext } from '../types';
import { createCache } from './cache';
import type { Requests } from './requests';

/** A free time: the API's agent-zone date and HH:MM (sent back unchanged on create) and the instant they name. */
export interface Slot {
  date: string;
  time: string;
  instant: Date;
}

/** The agent's bookable range: when the config came, its today and its last bookable day (agent zone). */
export interface AgentRange {
  now: Date;
  today: string;
  last: string;
}

/** What a day of the shown zone needs fetched before it is known. */
type Fetch = () => Promise<unknown>;

/** A day of the shown zone as far as is known: its calendar entry, its free times, and what is still to fetch. */
interface DayReading {
  entry: BookingDate;
  slots: Slot[];
  need: Fetch[];
}

export interface Availability {
  /** The agent's zone (UTC until the config is in). */
  agentZone(): string;
  /** The zone the calendar and times are shown in: the visitor's, or the agent's after switchZone(). */
  shownZone(): string;
  switchZone(): void;
  /** Bounds in the shown zone: today, and the last day with a bookable agent day in it. */
  readonly bounds: ReadonlySignal<{ today: string; last: string }>;
  /** Month `month`'s days in the shown zone (tracked); undefined while the agent months they overlap load. */
  daysOfMonth(month: string): BookingDate[] | undefined;
  /** Fetches what month `month` needs, then its days. */
  loadMonth(month: string): Promise<BookingDate[] | undefined>;
  /** Fetches month `month`'s agent dates, e.g. the next month ahead of the visitor. */
  prefetchMonth(month: string): Promise<unknown>;
  /** Day `day`'s free times in the shown zone, in order (tracked); null while they load. */
  slotsOn(day: string): Slot[] | null;
  /** Fetches what day `day`'s free times need. */
  loadSlots(day: string): Promise<unknown>;
  /** The agent's slots of agent day `day`, fetched afresh: after a create was refused, is the time still free? */
  refetchAgentDay(minutes: number, day: string): Promise<{ time: string; available: boolean }[]>;
  /** Forgets an agent month's dates, so the next read fetches them again. */
  forgetMonth(minutes: number, month: string): void;
  /** Forgets everything fetched: a fresh start. */
  clear(): void;
}

interface AvailabilityInputs {
  ctx: BookingContext;
  requests: Requests;
  config: ReadonlySignal<BookingConfig | null>;
  duration: ReadonlySignal<DurationOption | null>;
  range: ReadonlySignal<AgentRange>;
}

export function createAvailability({ ctx, requests, config, duration, range }: AvailabilityInputs): Availability {
  const { client, agentId } = ctx;
  /** Times are shown in the agent's zone rather than the visitor's. */
  const inAgentZone = signal(false);

  // The caches' fetches stop with the stores (requests.signal), not with a caller.
  const months = createCache((minutes, month) =>
    client.dates({ agentId, month, durationMinutes: minutes }, { signal: requests.signal }).then((answer) => answer.dates),
  );
  const days = createCache((minutes, date) =>
    client.slots({ agentId, date, durationMinutes: minutes }, { signal: requests.signal }).then((answer) => answer.slots),
  );

  const agentZone = (): string => config.peek()?.timezone ?? 'UTC';
  // The switch is offered once the config is in: the agent's zone is known by then.
  const shownZone = (): string => (inAgentZone.value ? agentZone() : ctx.visitorTimeZone);
  // Tracked where the days and times are read; the fetches read it in event and answer handlers, outside any.
  const minutes = (): number => duration.value?.duration_minutes ?? 0;

  const bounds = computed(() => {
    const agentRange = range.value;
    const dayOfShownZone = (instant: Date) => instantToZoned(instant, shownZone()).date;
    // The shown zone's last day is the one the agent's last day ends in. Read only once the config is in:
    // the calendar, its days and the steps that read them come after it.
    return { today: dayOfShownZone(agentRange.now), last: dayOfShownZone(zonedToInstant(agentRange.last, '23:59', agentZone())) };
  });

  /**
   * Agent day `agentDay`'s free times on the shown zone's `day`, once fetched: a wall time that does not
   * exist in the agent's zone (spring-forward gap) names no instant, so it is left out rather than
   * shifted; one listed twice is kept once.
   */
  function timesOn(agentDay: string, day: string): Slot[] | undefined {
    const zone = agentZone();
    return days.read(minutes(), agentDay)?.flatMap(({ time, available }, index, list) => {
      if (!available || list.findIndex((other) => other.time === time) !== index) return [];
      const instant = zonedToInstant(agentDay, time, zone);
      const back = instantToZoned(instant, zone);
      const exists = back.date === agentDay && back.time === time;
      return exists && instantToZoned(instant, shownZone()).date === day ? [{ date: agentDay, time, instant }] : [];
    });
  }

  /**
   * Day `day` of the shown zone: whether it is open and how many times it has, its free times in order
   * when `listing`, and the fetches still needed to know. Where the day is exactly one agent day the
   * calendar counts from the month's dates. Where it overlaps two, it counts from their slots once
   * fetched (the day's own, when chosen) and until then offers the day when either is open, without
   * a count: a slots request per day of the month would spend a visitor's share of the rate limit
   * (the proxy's 30 a minute per address) on one month.
   */
  function readDay(day: string, listing: boolean): DayReading {
    const { today, last } = bounds.value;
    const need: Fetch[] = [];
    const found: Slot[] = [];
    // Outside the bounds no agent day is looked at (so `exact` need not be said).
    const { days: overlapped, exact } = day < today || day > last ? { days: [] } : daysAcross(day, shownZone(), agentZone());
    const countFromMonth = exact && !listing;
    let entry: BookingDate | undefined;
    let openWithoutCount = false;
    // Only bookable agent days count.
    const agentRange = range.value;
    for (const agentDay of overlapped.filter((d) => d >= agentRange.today && d <= agentRange.last)) {
      const agentMonth = agentDay.slice(0, 7);
      const monthDates = months.read(minutes(), agentMonth);
      const open = openDay(monthDates, agentDay);
      const times = open && timesOn(agentDay, day);
      if (!monthDates) need.push(() => months.get(minutes(), agentMonth));
      else if (countFromMonth) entry = { date: day, available: !!open, slotCount: open?.slotCount };
      else if (times) found.push(...times);
      else if (open && listing) need.push(() => days.get(minutes(), agentDay));
      else if (open) openWithoutCount = true;
    }
    const available = openWithoutCount || found.length > 0;
    return {
      entry: entry ?? { date: day, available, slotCount: openWithoutCount ? undefined : found.length },
      need,
      slots: found.sort((a, b) => +a.instant - +b.instant),
    };
  }

  /** Month `month` of the shown zone, day by day, and what is still to fetch to know it. */
  function readMonth(month: string): { need: Fetch[]; list: BookingDate[] | undefined } {
    const readings = Array.from({ length: daysInMonth(month) }, (_, i) => readDay(addDays(`${month}-01`, i), false));
    const need = readings.flatMap((reading) => reading.need);
    return { need, list: need.length ? undefined : readings.map((reading) => reading.entry) };
  }

  /** Fetches what `read` needs, step by step (the slots of a day once its month tells it is open), and reads it again. */
  async function settle<T extends { need: Fetch[] }>(read: () => T): Promise<T> {
    let reading = read();
    while (reading.need.length) {
      await Promise.all(reading.need.map((fetch) => fetch()));
      reading = read();
    }
    return reading;
  }

  return {
    agentZone,
    shownZone,
    switchZone() {
      inAgentZone.value = !inAgentZone.peek();
    },
    bounds,
    daysOfMonth: (month) => readMonth(month).list,
    loadMonth: async (month) => (await settle(() => readMonth(month))).list,
    prefetchMonth: (month) => months.get(minutes(), month),
    slotsOn(day) {
      const reading = readDay(day, true);
      return reading.need.length ? null : reading.slots;
    },
    loadSlots: (day) => settle(() => readDay(day, true)),
    refetchAgentDay(minutesOfDuration, day) {
      // Forgotten first, so the cache fetches the day again.
      days.set(minutesOfDuration, day);
      return days.get(minutesOfDuration, day);
    },
    forgetMonth: (minutesOfDuration, month) => months.set(minutesOfDuration, month),
    clear() {
      months.clear();
      days.clear();
    },
  };
}

/** Day `day`'s entry in a month's days `list` when it can be booked. */
export const openDay = (list: BookingDate[] | undefined, day: string): BookingDate | undefined =>
  list?.find((entry) => entry.date === day && entry.available);

/** The first bookable day of a month's days `list`. */
export const firstFreeDay = (list: BookingDate[] | undefined): string | undefined => list?.find((entry) => entry.available)?.date;
