// The booking flow's state in signals, and its side effects in the stores' actions; components
// only render signals and call actions (or set a plain input signal). Preact coalesces the
// re-renders of one action's writes.
import { computed, signal, type Signal } from '@preact/signals';
import { isApiError } from '../../core/http';
import { addDays, addMonths, daysInMonth, instantToZoned, minutesOf, zonedToInstant } from '../../core/time';
import type { Booking, BookingConfig, BookingDate, BookingSlot, DurationOption, LookupBookingResponse } from '../../core/types';
import { isBookingCode, normalizeBookingCode } from '../../core/validate';
import { fieldError, formData, prefilledAnswers, type FieldError } from './fields';
import type { BookingContext } from './types';

export type Step = 'loading' | 'duration' | 'date' | 'time' | 'form' | 'review' | 'done';

export interface Problem {
  kind: 'notFound' | 'network' | 'server';
  /** The service's own words, for a refused request (400). */
  message?: string;
  retry?: () => void;
}

/**
 * One kind of request where only the newest call counts: starting one aborts the one before, and a
 * token drops any answer that still arrives for an older call. `pending` is true while the newest runs.
 */
function latest(pending?: Signal<boolean>) {
  let controller: AbortController | undefined;
  let token = 0;
  return async function run<T>(
    call: (signal: AbortSignal) => Promise<T>,
    done: (value: T) => void,
    fail: (error: unknown) => void,
  ): Promise<void> {
    controller?.abort();
    const mine = ++token;
    controller = new AbortController();
    if (pending) pending.value = true;
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await call(controller.signal) };
    } catch (error) {
      outcome = { error };
    }
    if (mine !== token) return;
    if (pending) pending.value = false;
    if ('value' in outcome) done(outcome.value);
    else fail(outcome.error);
  };
}

/** What the visitor is told about a failed request; null when it was cancelled on purpose. */
function problemOf(error: unknown, retry: () => void): Problem | null {
  if (!isApiError(error)) return { kind: 'server', retry };
  if (error.kind === 'aborted') return null;
  if (error.kind === 'network' || error.kind === 'timeout') return { kind: 'network', retry };
  if (error.status === 404) return { kind: 'notFound' };
  // A refusal (400) comes with the service's reason; asking again would be refused again.
  return error.status === 400 ? { kind: 'server', message: error.message } : { kind: 'server', retry };
}

/** Keeps a booking the visitor made or looked up, for the My booking picker. */
function remember(ctx: BookingContext, b: Booking, title?: string): void {
  ctx.remembered.remember({
    code: b.booking_code,
    date: b.booking_date,
    time: b.start_time.slice(0, 5),
    title,
    status: b.status,
    timezone: b.timezone,
  });
}

const FLOW: Step[] = ['duration', 'date', 'time', 'form', 'review'];

const clamp = (value: string, low: string, high: string): string => (value < low ? low : value > high ? high : value);

const ignore = (): void => undefined;

export function createBookingStore(ctx: BookingContext) {
  const step = signal<Step>('loading');
  const config = signal<BookingConfig | null>(null);
  const problem = signal<Problem | null>(null);
  const duration = signal<DurationOption | null>(null);
  /** Agent-zone bounds: today, and the last day within max_advance_days. */
  const bounds = signal({ today: '', last: '' });
  const month = signal('');
  /** The calendar's one tab stop. */
  const focused = signal('');
  /** Said above the calendar: the month jumped from an empty one, or nothing is free at all. */
  const notice = signal<{ from: string } | 'none' | null>(null);
  /** Month dates by `${minutes}/${YYYY-MM}`; undefined once dropped as stale. */
  const dates = signal<Record<string, BookingDate[] | undefined>>({});
  const date = signal<string | null>(null);
  const slots = signal<BookingSlot[] | null>(null);
  const slot = signal<string | null>(null);
  /** The time that was taken from under the visitor at create, until another is chosen. */
  const taken = signal<string | null>(null);
  /** Show times on the agent's clock instead of the visitor's. */
  const agentClock = signal(false);
  const answers = signal<Record<string, string>>({});
  const errors = signal<Record<string, FieldError | undefined>>({});
  const submitting = signal(false);
  const booking = signal<Booking | null>(null);

  const zone = (): string => config.peek()?.timezone ?? 'UTC';
  const fields = () => config.peek()?.form_fields ?? [];
  const minutes = (): number => duration.peek()?.duration_minutes ?? 0;
  const monthKey = (m: string): string => `${minutes()}/${m}`;
  const minMonth = (): string => bounds.peek().today.slice(0, 7);
  const maxMonth = (): string => bounds.peek().last.slice(0, 7);
  const monthDates = computed(() => dates.value[`${duration.value?.duration_minutes}/${month.value}`]);
  const durations = computed(() => config.value?.duration_options ?? []);
  const canGoBack = computed(() => {
    const i = FLOW.indexOf(step.value);
    return i > 1 || (i === 1 && durations.value.length > 1);
  });

  const inflight = new Map<string, Promise<BookingDate[]>>();
  const runConfig = latest();
  const runMonth = latest();
  const runPrefetch = latest();
  const runSlots = latest();
  const runCreate = latest(submitting);

  const failWith = (retry: () => void) => (error: unknown) => {
    problem.value = problemOf(error, retry);
  };

  /** A month's dates: from the cache, from a request already on its way (a prefetch), or asked for. */
  function monthOf(m: string, signal: AbortSignal): Promise<BookingDate[]> {
    const key = monthKey(m);
    const cached = dates.peek()[key];
    if (cached) return Promise.resolve(cached);
    let pending = inflight.get(key);
    if (!pending) {
      pending = ctx.client
        .dates({ agentId: ctx.agentId, month: m, durationMinutes: minutes() }, { signal })
        .then((res) => {
          dates.value = { ...dates.peek(), [key]: res.dates };
          return res.dates;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  /** The duration step, or straight to the calendar when there is only one duration. */
  function start(): void {
    const [only, ...more] = durations.peek();
    if (!only) problem.value = { kind: 'notFound' };
    else if (more.length) step.value = 'duration';
    else chooseDuration(only);
  }

  function load(): void {
    problem.value = null;
    void runConfig(
      (signal) => ctx.client.config(ctx.agentId, { signal }),
      ({ config: c }) => {
        const today = instantToZoned(ctx.now?.() ?? new Date(), c.timezone).date;
        config.value = c;
        bounds.value = { today, last: addDays(today, c.max_advance_days) };
        answers.value = prefilledAnswers(c.form_fields, ctx.prefill);
        start();
      },
      (error) => {
        const p = (problem.value = problemOf(error, load));
        if (p?.kind === 'notFound') console.error(`[AgentWidget] Booking is not available for agent "${ctx.agentId}".`);
      },
    );
  }

  /** Opens the calendar on the first month (from this one, within the horizon) that has a free day. */
  function chooseDuration(option: DurationOption): void {
    const first = minMonth();
    duration.value = option;
    date.value = slot.value = notice.value = problem.value = null;
    month.value = first;
    focused.value = bounds.peek().today;
    step.value = 'date';
    void runMonth(
      async (signal) => {
        for (let m = first; m <= maxMonth(); m = addMonths(m, 1))
          if ((await monthOf(m, signal)).some((d) => d.available)) return m;
        return null;
      },
      (found) => {
        notice.value = found === null ? 'none' : found === first ? null : { from: first };
        showMonth(found ?? first);
      },
      failWith(() => chooseDuration(option)),
    );
  }

  /**
   * Shows month `m` (clamped to the bookable range) and prefetches the next. Unless keyboard focus
   * brought it there (`keepFocus`), the calendar's tab stop goes to the month's first free day, once
   * known, unless the visitor has moved it meanwhile.
   */
  function showMonth(m: string, keepFocus = false): void {
    const target = clamp(m, minMonth(), maxMonth());
    const { today } = bounds.peek();
    const firstFree = (list: BookingDate[] | undefined) => list?.find((d) => d.available && d.date >= today)?.date;
    problem.value = null;
    month.value = target;
    if (!keepFocus)
      focused.value = firstFree(dates.peek()[monthKey(target)]) ?? (target === minMonth() ? today : `${target}-01`);
    const placeholder = keepFocus ? null : focused.peek();
    void runMonth(
      (signal) => monthOf(target, signal),
      (list) => {
        const free = firstFree(list);
        if (free && focused.peek() === placeholder) focused.value = free;
        const next = addMonths(target, 1);
        if (next <= maxMonth()) void runPrefetch((s) => monthOf(next, s), ignore, ignore);
      },
      failWith(() => showMonth(target, keepFocus)),
    );
  }

  /** Moves the calendar's tab stop (within the bookable months), changing month when the day is in another one. */
  function focusDay(day: string): void {
    const target = clamp(day, `${minMonth()}-01`, `${maxMonth()}-${daysInMonth(maxMonth())}`);
    focused.value = target;
    if (target.slice(0, 7) !== month.peek()) showMonth(target.slice(0, 7), true);
  }

  /** The day's entry of the shown month when it can be booked: free, from today, within the horizon. */
  function openDay(day: string): BookingDate | undefined {
    const { today, last } = bounds.value;
    return day < today || day > last ? undefined : monthDates.value?.find((d) => d.date === day && d.available);
  }

  function chooseDate(day: string): void {
    const option = duration.peek();
    if (!option || !openDay(day)) return;
    date.value = focused.value = day;
    slot.value = taken.value = null;
    step.value = 'time';
    ctx.emit('booking:date-selected', { agentId: ctx.agentId, date: day, timezone: zone(), durationMinutes: option.duration_minutes });
    loadSlots();
  }

  function loadSlots(): void {
    const day = date.peek();
    if (!day) return;
    slots.value = problem.value = null;
    void runSlots(
      (signal) => ctx.client.slots({ agentId: ctx.agentId, date: day, durationMinutes: minutes() }, { signal }),
      (res) => {
        slots.value = res.slots;
      },
      failWith(loadSlots),
    );
  }

  function chooseSlot(time: string): void {
    const day = date.peek();
    const option = duration.peek();
    if (!day || !option) return;
    slot.value = time;
    taken.value = null;
    step.value = 'form';
    ctx.emit('booking:slot-selected', {
      agentId: ctx.agentId,
      date: day,
      time,
      timezone: zone(),
      start: zonedToInstant(day, time, zone()).toISOString(),
      duration: option,
    });
  }

  function answer(id: string, value: string): void {
    answers.value = { ...answers.peek(), [id]: value };
    const field = fields().find((f) => f.id === id);
    if (field && errors.peek()[id]) errors.value = { ...errors.peek(), [id]: fieldError(field, value) };
  }

  /** Validates the form; returns the id of the first invalid field, or moves on to the review. */
  function submitForm(): string | undefined {
    const found = Object.fromEntries(fields().map((f) => [f.id, fieldError(f, answers.peek()[f.id] ?? '')]));
    errors.value = found;
    const first = fields().find((f) => found[f.id])?.id;
    if (!first) step.value = 'review';
    return first;
  }

  function create(): void {
    const c = config.peek();
    const option = duration.peek();
    const day = date.peek();
    const time = slot.peek();
    if (submitting.peek() || !c || !option || !day || !time) return;
    problem.value = null;
    void runCreate(
      (signal) =>
        ctx.client.create(
          {
            agentId: ctx.agentId,
            conversationId: ctx.conversationId(),
            date: day,
            time,
            durationOptionId: option.id,
            formData: formData(c.form_fields, answers.peek()),
          },
          { signal },
        ),
      ({ booking: b }) => {
        booking.value = b;
        step.value = 'done';
        remember(ctx, b, c.booking_title);
        ctx.emit('booking:created', { agentId: ctx.agentId, booking: b, ...(ctx.utm ? { utm: ctx.utm } : {}) });
      },
      (error) => {
        // Someone else booked the time first (the sandbox's code; 409 where a server says conflict).
        if (isApiError(error) && (error.code === 'slot_unavailable' || error.status === 409)) {
          dates.value = { ...dates.peek(), [monthKey(day.slice(0, 7))]: undefined };
          taken.value = time;
          slot.value = null;
          step.value = 'time';
          loadSlots();
        } else problem.value = problemOf(error, create);
      },
    );
  }

  /** Up to three free times of the re-fetched day, nearest to the one that was taken. */
  const nearest = computed(() => {
    const gone = taken.value;
    if (!gone) return [];
    const distance = (s: BookingSlot) => Math.abs(minutesOf(s.time) - minutesOf(gone));
    return (slots.value ?? [])
      .filter((s) => s.available && s.time !== gone)
      .sort((a, b) => distance(a) - distance(b))
      .slice(0, 3);
  });

  function back(): void {
    const to = FLOW[FLOW.indexOf(step.peek()) - 1];
    if (canGoBack.peek() && to) {
      problem.value = null;
      step.value = to;
    }
  }

  /** After a confirmation: a fresh start with the same answers. */
  function again(): void {
    booking.value = null;
    dates.value = {};
    start();
  }

  load();

  return {
    step, config, problem, duration, durations, bounds, month, monthDates, focused, notice, date, slots,
    slot, taken, nearest, agentClock, answers, errors, submitting, booking, canGoBack,
    zone, showMonth, focusDay, openDay, chooseDuration, chooseDate, chooseSlot, answer, submitForm, create, back, again,
  };
}

export type BookingStore = ReturnType<typeof createBookingStore>;

/** Codes are typed by people: case, spaces, and a missing dash are tolerated. */
export function readBookingCode(input: string): string {
  return normalizeBookingCode(input.replace(/\s+/g, '')).replace(/^BK-?(?=[A-Z0-9]{6}$)/, 'BK-');
}

export function createLookupStore(ctx: BookingContext) {
  /** The code field's text, written by the view as the visitor types. */
  const code = signal('');
  const invalid = signal(false);
  const busy = signal(false);
  const result = signal<LookupBookingResponse | null>(null);
  /** The "Cancel this booking?" question is on screen; written by the view. */
  const asking = signal(false);
  /** The service's confirmation after a cancel. */
  const cancelled = signal<string | null>(null);
  const problem = signal<Problem | null>(null);
  const runLookup = latest(busy);
  const runCancel = latest(busy);

  /** Looks up the typed code, or `picked` (a remembered one); returns false when the code is not valid. */
  function find(picked?: string): boolean {
    const value = readBookingCode(picked ?? code.peek());
    const ok = isBookingCode(value);
    if (picked !== undefined) code.value = picked;
    invalid.value = !ok;
    problem.value = null;
    if (ok)
      void runLookup(
        (signal) => ctx.client.lookup({ agentId: ctx.agentId, code: value }, { signal }),
        (res) => {
          result.value = res;
          cancelled.value = null;
          asking.value = false;
          remember(ctx, res.booking, res.booking.booking_title);
        },
        (error) => {
          problem.value = problemOf(error, () => find(value));
        },
      );
    return ok;
  }

  function cancel(): void {
    const current = result.peek();
    if (!current || busy.peek()) return;
    const b = current.booking;
    const bookingCode = b.booking_code;
    problem.value = null;
    void runCancel(
      (signal) => ctx.client.cancel({ agentId: ctx.agentId, bookingCode }, { signal }),
      ({ message }) => {
        const gone = { ...b, status: 'cancelled' };
        asking.value = false;
        cancelled.value = message;
        result.value = { ...current, booking: gone, canCancel: false };
        ctx.remembered.setStatus(bookingCode, 'cancelled');
        ctx.emit('booking:cancelled', { agentId: ctx.agentId, code: bookingCode, booking: gone, message });
      },
      (error) => {
        const p = problemOf(error, cancel);
        // A refusal (400) is the cancel reason: say it and stop offering the cancel control.
        if (p?.message) {
          asking.value = false;
          result.value = { ...current, canCancel: false, cancelReason: p.message };
        } else problem.value = p;
      },
    );
  }

  function reset(): void {
    result.value = cancelled.value = problem.value = null;
    asking.value = false;
    code.value = '';
  }

  return { code, invalid, busy, result, asking, cancelled, problem, find, cancel, reset };
}

export type LookupStore = ReturnType<typeof createLookupStore>;
