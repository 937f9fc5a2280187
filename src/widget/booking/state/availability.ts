// What can be booked, in the zone the visitor looks at. The service answers in the agent's zone (a
// month's dates, a day's slots); this model fetches them through caches and turns them into the days
// and times of the shown zone, the visitor's or, after a switch, the agent's.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import { anySignal } from '../../../core/http';
import { addDays, daysAcross, daysInMonth, instantToZoned, zonedToInstant } from '../../../core/time';
import type { BookingConfig, BookingDate, DurationOption } from '../../../core/types';
import type { BookingContext } from '../types';
import { createCache } from './cache';
import { classify } from '../../platform/failure';
import { reportFailure } from './report';
import type { Requests } from './requests';

/** A month's check asks for this many agent days' slots at a time. */
export const CHECKS_AT_ONCE = 4;
/**
 * The most agent days' slots the checks of months ask for while the stores live (a month needs at most
 * 32): about five months of days, so a visitor paging far ahead does not spend the service's rate limit.
 * Past it, days are offered as the dates tell, their times fetched once chosen.
 */
export const MAX_DAY_CHECKS = 160;
/**
 * A check told it asks too often (429) waits as the spec asks, until the reset (Retry-After, else this
 * default), at most MAX_BUSY_WAIT_S and BUSY_WAITS_PER_CHECK times, its days still `checking`, and goes on.
 */
const DEFAULT_BUSY_WAIT_S = 5;
const MAX_BUSY_WAIT_S = 60;
const BUSY_WAITS_PER_CHECK = 2;

/** Resolves after `seconds`, or at once when `stop` aborts. */
const pauseFor = (seconds: number, stop: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, seconds * 1000);
    stop.addEventListener('abort', done, { once: true });
  });

/** A day of the shown zone in the calendar: the API's shape, and whether its times are still being checked. */
export interface CalendarDay extends BookingDate {
  /**
   * The slots of an agent day it overlaps are on their way: a day not known to have times is not offered
   * yet, nor said to be unavailable; one known to have some is offered, its count still to come.
   */
  checking?: boolean;
}

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

/**
 * A day of the shown zone as far as is known: its calendar entry, its free times, what is still to
 * fetch, and the open agent days whose slots would tell whether it has times (what a month's check fetches).
 */
interface DayReading {
  entry: CalendarDay;
  slots: Slot[];
  need: Fetch[];
  unknown: string[];
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
  daysOfMonth(month: string): CalendarDay[] | undefined;
  /** Fetches the agent dates month `month` needs, then its days (some still `checking`). */
  loadMonth(month: string): Promise<CalendarDay[] | undefined>;
  /**
   * As loadMonth, then checks the days: fetches the slots of the open agent days that overlap a day of
   * the shown zone without being that day, CHECKS_AT_ONCE at a time, until `signal` aborts (another month
   * shown) or the stores end. After a 429 it waits for the reset; what a failure or the budget leaves
   * unknown is offered as the dates tell.
   */
  checkMonth(month: string, signal?: AbortSignal): Promise<CalendarDay[] | undefined>;
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
  const days = createCache((minutes, date, signal) =>
    client
      .slots({ agentId, date, durationMinutes: minutes }, { signal: anySignal(signal, requests.signal) })
      .then((answer) => answer.slots),
  );
  /** Agent days (as `minutes/day`) a check could not learn: offered without a count, as the dates tell, until their slots come. */
  const unchecked = signal<ReadonlySet<string>>(new Set());
  /** Slots requests the checks have sent: bounded by MAX_DAY_CHECKS. */
  let checksSent = 0;

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
   * calendar counts from the month's dates. Where it overlaps two, an open agent day's slots tell which
   * of its times fall on the day: until the month's check (or the day chosen) brings them, the day is
   * `checking`; when the check could not learn them, it is offered without a count, as the dates tell.
   */
  function readDay(day: string, listing: boolean): DayReading {
    const { today, last } = bounds.value;
    const need: Fetch[] = [];
    const found: Slot[] = [];
    // Outside the bounds no agent day is looked at (so `exact` need not be said).
    const { days: overlapped, exact } = day < today || day > last ? { days: [] } : daysAcross(day, shownZone(), agentZone());
    const countFromMonth = exact && !listing;
    let entry: CalendarDay | undefined;
    let openWithoutCount = false;
    const unknown: string[] = [];
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
      else if (open && unchecked.value.has(`${minutes()}/${agentDay}`)) openWithoutCount = true;
      else if (open) unknown.push(agentDay);
    }
    return {
      entry: entry ?? dayEntry(day, found.length, openWithoutCount, unknown.length > 0),
      need,
      unknown,
      slots: found.sort((a, b) => +a.instant - +b.instant),
    };
  }

  /** Month `month` of the shown zone, day by day, what is still to fetch to know it, and the agent days its check fetches. */
  function readMonth(month: string): { need: Fetch[]; list: CalendarDay[] | undefined; unknown: string[] } {
    const readings = Array.from({ length: daysInMonth(month) }, (_, i) => readDay(addDays(`${month}-01`, i), false));
    const need = readings.flatMap((reading) => reading.need);
    // An agent day overlaps two days of the shown zone: asked for once.
    const unknown = [...new Set(readings.flatMap((reading) => reading.unknown))];
    return { need, list: need.length ? undefined : readings.map((reading) => reading.entry), unknown };
  }

  /** Fetches the slots of month `month`'s unknown agent days (see checkMonth in Availability) until `stop` aborts. */
  async function checkDays(month: string, stop: AbortSignal): Promise<void> {
    const durationMinutes = minutes();
    // What an earlier check could not learn is asked for again.
    unchecked.value = new Set();
    // In the agent's own zone, or one whose offset agrees with it all month, each day is exactly one agent
    // day and is counted from the month's dates (readDay): nothing is unknown, and no request is sent.
    const wanted = readMonth(month).unknown;
    if (!wanted.length) return;
    const queue = [...wanted];
    let failed: { error: unknown } | undefined;
    /** The wait after a 429, which every worker keeps. */
    let pause: Promise<void> | undefined;
    let busyWaits = 0;
    const worker = async (): Promise<void> => {
      for (let agentDay = queue.shift(); agentDay !== undefined; agentDay = queue.shift()) {
        if (pause) await pause;
        // After a failure (the service down, or still busy) the rest is not asked for: the days are offered as the dates tell.
        if (stop.aborted || failed || checksSent >= MAX_DAY_CHECKS) return;
        checksSent++;
        const outcome = await days.get(durationMinutes, agentDay, stop).then(
          () => undefined,
          (error: unknown) => ({ error }),
        );
        if (!outcome || stop.aborted) continue;
        const failure = classify(outcome.error);
        if (failure?.kind === 'busy' && (pause || busyWaits < BUSY_WAITS_PER_CHECK)) {
          // Asked again after the wait.
          queue.unshift(agentDay);
          if (!pause) {
            busyWaits++;
            const wait = Math.min(failure.retryAfter ?? DEFAULT_BUSY_WAIT_S, MAX_BUSY_WAIT_S);
            pause = pauseFor(wait, stop).then(() => {
              pause = undefined;
            });
          }
        } else failed ??= outcome;
      }
    };
    await Promise.all(Array.from({ length: CHECKS_AT_ONCE }, worker));
    // Stopped: the month is no longer shown; its next check asks again for what is still unknown.
    if (stop.aborted) return;
    if (failed) reportFailure(ctx, 'slots', failed.error);
    markUnchecked(
      durationMinutes,
      wanted.filter((agentDay) => days.read(durationMinutes, agentDay) === undefined),
    );
  }

  /** Agent days `agentDays` will not be checked: offered as the dates tell until their slots come. */
  function markUnchecked(durationMinutes: number, agentDays: string[]): void {
    if (agentDays.length)
      unchecked.value = new Set([...unchecked.peek(), ...agentDays.map((agentDay) => `${durationMinutes}/${agentDay}`)]);
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
    async checkMonth(month, signal) {
      await settle(() => readMonth(month));
      await checkDays(month, anySignal(signal, requests.signal));
      return readMonth(month).list;
    },
    prefetchMonth: (month) => months.get(minutes(), month),
    slotsOn(day) {
      const reading = readDay(day, true);
      return reading.need.length ? null : reading.slots;
    },
    loadSlots: (day) => settle(() => readDay(day, true)),
    refetchAgentDay(minutesOfDuration, day) {
      // Forgotten first, so the cache fetches the day again; if that fails, the day is offered as the dates tell, not left checking.
      days.set(minutesOfDuration, day);
      return days.get(minutesOfDuration, day).catch((error: unknown) => {
        markUnchecked(minutesOfDuration, [day]);
        throw error;
      });
    },
    forgetMonth: (minutesOfDuration, month) => months.set(minutesOfDuration, month),
    clear() {
      months.clear();
      days.clear();
      unchecked.value = new Set();
    },
  };
}

/** Day `day`'s entry in a month's days `list` when it can be booked. */
export const openDay = (list: BookingDate[] | undefined, day: string): BookingDate | undefined =>
  list?.find((entry) => entry.date === day && entry.available);

/**
 * A day's calendar entry from what is known of it: `found` free times, an open agent day whose times could
 * not be learned (`openWithoutCount`), one whose times are on their way (`checking`). A count is given
 * only when every time of the day is known.
 */
function dayEntry(date: string, found: number, openWithoutCount: boolean, checking: boolean): CalendarDay {
  if (found && !openWithoutCount && !checking) return { date, available: true, slotCount: found };
  if (found || openWithoutCount) return checking ? { date, available: true, checking } : { date, available: true };
  return checking ? { date, available: false, checking } : { date, available: false, slotCount: 0 };
}

/** The first day of a month's days `list` that has free times, or may have (its check is on its way). */
export const firstFreeDay = (list: CalendarDay[] | undefined): string | undefined =>
  list?.find((entry) => entry.available || entry.checking)?.date;
