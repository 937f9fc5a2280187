// The Book flow's state: duration, day, time, details, review, confirmation. Components render these
// signals and call the actions; requests and their failures are handled here, on the stores' shared
// requests (./index), whose dispose() ends them.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import { addDays, addMonths, daysInMonth, instantToZoned, zonedToInstant } from '../../../core/time';
import { DEFAULT_HORIZON_DAYS } from '../../../core/spec-assumptions';
import type { Booking, BookingConfig, DurationOption } from '../../../core/types';
import { classify, type FailureKind } from '../../platform/failure';
import { fieldError, formData, prefilledAnswers, type FieldError } from '../fields';
import type { BookingContext } from '../types';
import { createAvailability, firstFreeDay, openDay, type AgentRange, type CalendarDay, type Slot } from './availability';
import { boundedAnswers, isProgressStep, type BookingProgress } from './progress';
import { createProblems, remember, reportFailure, type Failures } from './report';
import type { Requests } from './requests';
import { logError } from '../../platform/log';

export type Step = 'loading' | 'duration' | 'date' | 'time' | 'form' | 'review' | 'done';

/** Said above the calendar: the month jumped from an empty one, or nothing is free at all. */
export type Notice = { from: string } | 'none' | null;

export interface BookingFlow extends Failures {
  readonly step: ReadonlySignal<Step>;
  readonly config: ReadonlySignal<BookingConfig | null>;
  readonly duration: ReadonlySignal<DurationOption | null>;
  durations(): DurationOption[];
  /** The zone the calendar and times are shown in: the visitor's, or the agent's after switchZone(). */
  shownZone(): string;
  /** Bounds in the shown zone: today, and the last day with a bookable agent day in it. */
  readonly bounds: ReadonlySignal<{ today: string; last: string }>;
  readonly month: ReadonlySignal<string>;
  /**
   * The shown month's days in the shown zone (not the API's agent-zone dates); undefined while the agent
   * months they overlap load; a day is `checking` while the slots that tell whether it has times come.
   */
  readonly monthDates: ReadonlySignal<CalendarDay[] | undefined>;
  /** The calendar's one tab stop. */
  readonly focused: ReadonlySignal<string>;
  readonly notice: ReadonlySignal<Notice>;
  readonly date: ReadonlySignal<string | null>;
  /** The free times on the chosen day of the shown zone, in order; null while they load. */
  slots(): Slot[] | null;
  /** The time chosen last: only the review reads it, and the way there is through chooseSlot(). */
  readonly slot: ReadonlySignal<Slot | null>;
  /** The time that was taken from under the visitor at create, until another is chosen. */
  readonly taken: ReadonlySignal<Slot | null>;
  /** Answers by form field id. */
  readonly answers: ReadonlySignal<ReadonlyMap<string, string>>;
  readonly errors: ReadonlySignal<ReadonlyMap<string, FieldError>>;
  /** A create is on its way. */
  readonly submitting: ReadonlySignal<boolean>;
  readonly booking: ReadonlySignal<Booking | null>;
  canGoBack(): boolean;
  /** The agent's zone. */
  agentZone(): string;
  showMonth(month: string, keepFocus?: boolean): void;
  focusDay(day: string): void;
  chooseDuration(option: DurationOption): void;
  chooseDate(day: string): void;
  chooseSlot(slot: Slot): void;
  /** Shows days and times in the other zone (the visitor's or the agent's). */
  switchZone(): void;
  answer(id: string, value: string): void;
  /** Validates the form; returns the id of the first invalid field, or moves on to the review. */
  submitForm(): string | undefined;
  create(): void;
  back(): void;
  /** After a confirmation: a fresh start with the same answers. */
  again(): void;
  /** A booking is under way: begun and not made yet, or one the last page left still being restored. */
  underWay(): boolean;
  /** What to keep of the booking under way for the next page (see ./progress); undefined when there is none. */
  progress(): BookingProgress | undefined;
  /** The owner's reset(): the kept progress and the answers are forgotten, and the flow starts again. */
  forget(): void;
}

const FLOW: Step[] = ['duration', 'date', 'time', 'form', 'review'];
/** The steps of a booking begun and not made yet. */
const UNDER_WAY: readonly Step[] = ['date', 'time', 'form', 'review'];
/** However far ahead a config allows, the calendar stops here (ten years): date math stays in range. */
const MAX_HORIZON_DAYS = 3650;
/** The search for a first month with a free day asks for at most this many months. */
export const MAX_SEARCH_MONTHS = 12;
/** A failed create with one of these may mean the time was taken: the day's slots are checked (see spec-assumptions). */
const MAYBE_TAKEN: readonly (FailureKind | undefined)[] = ['refused', 'misconfigured'];

/** Up to three of the re-fetched day's free times `slots`, nearest to the taken one (`gone`, itself left out). */
export function nearest(slots: Slot[], gone: Slot): Slot[] {
  const distance = (s: Slot) => Math.abs(+s.instant - +gone.instant);
  return slots
    .filter((s) => distance(s))
    .sort((a, b) => distance(a) - distance(b))
    .slice(0, 3);
}

const clamp = (value: string, low: string, high: string): string => {
  if (value < low) return low;
  return value > high ? high : value;
};

export function createBookingFlow(ctx: BookingContext, requests: Requests): BookingFlow {
  const { client, agentId } = ctx;
  const step = signal<Step>('loading');
  const config = signal<BookingConfig | null>(null);
  const duration = signal<DurationOption | null>(null);
  const range = signal<AgentRange>({ now: new Date(0), today: '', last: '' });
  const month = signal('');
  const focused = signal('');
  const notice = signal<Notice>(null);
  const date = signal<string | null>(null);
  const slot = signal<Slot | null>(null);
  const taken = signal<Slot | null>(null);
  const answers = signal<ReadonlyMap<string, string>>(new Map());
  const errors = signal<ReadonlyMap<string, FieldError>>(new Map());
  const submitting = signal(false);
  const booking = signal<Booking | null>(null);
  const availability = createAvailability({ ctx, requests, config, duration, range });
  const { agentZone, shownZone, bounds } = availability;
  /** The booking the last page left, until the flow is back on its step (see resume()). */
  let pending = ctx.progress.read();

  // The config, then the shown month and the search for one: one runner, as no month is asked for before the config is in.
  const runLoad = requests.latest();
  const runPrefetch = requests.latest();
  const runSlots = requests.latest();
  const runCreate = requests.latest(submitting);
  const problems = createProblems(ctx);
  const { fail, set: setProblem } = problems;

  const fields = () => config.peek()?.form_fields ?? [];
  const minutes = (): number => duration.peek()?.duration_minutes ?? 0;
  const minMonth = (): string => bounds.peek().today.slice(0, 7);
  const maxMonth = (): string => bounds.peek().last.slice(0, 7);
  const monthDates = computed(() => availability.daysOfMonth(month.value));
  const durations = () => config.value?.duration_options ?? [];
  // The duration step is a step back only when there is a choice of durations.
  const canGoBack = () => FLOW.indexOf(step.value) > (durations().length > 1 ? 0 : 1);

  /** The duration step, or straight to the calendar when there is only one duration. */
  const start = (): void => {
    const [only, ...more] = durations();
    if (!only) {
      setProblem({ kind: 'unavailable', retryable: false });
      logError(`Booking for agent "${agentId}" offers no durations.`);
    } else if (more.length) step.value = 'duration';
    else chooseDuration(only);
  };

  const load = (): void => {
    void runLoad(
      (options) => client.config({ agentId }, options),
      ({ config: answered }) => {
        const now = ctx.now();
        const today = instantToZoned(now, answered.timezone).date;
        config.value = answered;
        const horizon = Math.min(answered.max_advance_days ?? DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS);
        range.value = { now, today, last: addDays(today, horizon) };
        // What the visitor typed on the last page wins over the owner's prefill; answers to fields the form no longer has go.
        const typed = new Map(Object.entries(pending?.answers ?? {}));
        answers.value = new Map(
          [...prefilledAnswers(answered.form_fields, ctx.prefill)].map(([id, given]) => [id, typed.get(id) ?? given]),
        );
        if (pending) resume(pending);
        else start();
      },
      fail('config', load),
    );
  };

  /**
   * Back where the last page left the booking: its duration, day, time, step and answers. A duration the
   * config no longer offers starts again at the durations, and a day out of the bookable range at the
   * calendar. The flow shows the loading step until the day's free times are in: the chosen time must
   * still be free for the form or the review to show; when it is gone, the day's times say it was taken.
   */
  function resume(saved: BookingProgress): void {
    const option = durations().find((d) => d.id === saved.durationId);
    const { today, last } = bounds.peek();
    const day = saved.date;
    if (saved.inAgentZone) availability.switchZone();
    if (!option || saved.step === 'duration') {
      pending = undefined;
      start();
    } else if (!day || saved.step === 'date' || day < today || day > last) {
      pending = undefined;
      chooseDuration(option);
    } else {
      duration.value = option;
      date.value = day;
      // The calendar behind Back: the chosen day's month, the day its tab stop.
      showMonth(day.slice(0, 7), true);
      focused.value = day;
      loadSlots(() => land(saved));
    }
  }

  /** A restored booking lands on its step once its day's free times are in (see resume()). */
  function land(saved: BookingProgress): void {
    pending = undefined;
    const kept = saved.slot;
    const free = kept && slots()?.find((s) => s.date === kept.date && s.time === kept.time);
    if (free) {
      slot.value = free;
      // The review shows answers that pass: a form changed since shows what is missing.
      step.value = saved.step === 'review' && validate() === undefined ? 'review' : 'form';
      return;
    }
    if (kept) taken.value = { ...kept, instant: zonedToInstant(kept.date, kept.time, agentZone()) };
    step.value = 'time';
  }

  /** Opens the calendar on the first month (from this one, within the horizon and the search bound) with a free day. */
  function chooseDuration(option: DurationOption): void {
    const first = minMonth();
    duration.value = option;
    date.value = null;
    notice.value = null;
    step.value = 'date';
    // The first month is on show while the search runs; the search, on the same runner, takes over showMonth's load.
    showMonth(first);
    void runLoad(
      async () => {
        // Stops at the first failure: the await throws. Undefined when no month has a free day.
        let candidate = first;
        for (let searched = 0; candidate <= maxMonth() && searched < MAX_SEARCH_MONTHS; searched++) {
          if (firstFreeDay(await availability.loadMonth(candidate))) return candidate;
          candidate = addMonths(candidate, 1);
        }
        return undefined;
      },
      (found) => {
        if (!found) notice.value = 'none';
        else notice.value = found === first ? null : { from: first };
        showMonth(found ?? first);
      },
      fail('dates', () => chooseDuration(option)),
    );
  }

  /**
   * Shows month `m` (clamped to the bookable range), checks its days, and prefetches the next. Unless
   * keyboard focus brought it there (`keepFocus`), the calendar's tab stop goes to the month's first free
   * day, once known, unless the visitor has moved it meanwhile.
   */
  function showMonth(m: string, keepFocus?: boolean): void {
    const target = clamp(m, minMonth(), maxMonth());
    month.value = target;
    // The tab stop until then (none set where keyboard focus keeps it): the first free day when known, else today
    // when it is in the month (the first one shown), else the 1st (`-31` bounds any month's days as text).
    const placeholder = keepFocus ? null : (firstFreeDay(monthDates.peek()) ?? clamp(bounds.peek().today, `${target}-01`, `${target}-31`));
    if (placeholder) focused.value = placeholder;
    void runLoad(
      // The check stops when another month is shown (the runner aborts this call) or the stores end.
      (options) => availability.checkMonth(target, options.signal),
      (list) => {
        const free = firstFreeDay(list);
        if (free && focused.peek() === placeholder) focused.value = free;
        const next = addMonths(target, 1);
        if (next <= maxMonth()) void runPrefetch(() => availability.prefetchMonth(next));
      },
      fail('dates', () => showMonth(target, keepFocus)),
    );
  }

  const focusDay = (day: string): void => {
    const target = clamp(day, `${minMonth()}-01`, `${maxMonth()}-${daysInMonth(maxMonth())}`);
    focused.value = target;
    if (target.slice(0, 7) !== month.peek()) showMonth(target.slice(0, 7), true);
  };

  const chooseDate = (day: string): void => {
    // An open day means a duration was chosen: before one, no month is shown, so no day is open.
    if (!openDay(monthDates.peek(), day)) return;
    date.value = day;
    focused.value = day;
    taken.value = null;
    step.value = 'time';
    ctx.emit('booking:date-selected', { agentId, date: day, timezone: shownZone(), durationMinutes: minutes() });

    loadSlots();
  };

  /** Fetches the chosen day's free times; `then` runs once they are in. */
  function loadSlots(then?: () => void): void {
    const day = date.peek();
    if (!day) return;
    void runSlots(
      () => availability.loadSlots(day),
      then,
      fail('slots', () => loadSlots(then)),
    );
  }

  const chooseSlot = (chosen: Slot): void => {
    const option = duration.peek();
    if (!option) return;
    slot.value = chosen;
    taken.value = null;
    setProblem(null);
    step.value = 'form';
    ctx.emit('booking:slot-selected', {
      agentId,
      date: chosen.date,
      time: chosen.time,
      timezone: agentZone(),
      start: chosen.instant.toISOString(),
      duration: option,
    });
  };

  /** Checks the answers of the fields `only` holds, else of all; what it finds, in the config's order, is what is shown. Returns the first. */
  function validate(only?: ReadonlyMap<string, unknown>): string | undefined {
    const found = new Map<string, FieldError>();
    for (const f of fields()) {
      const error = (!only || only.has(f.id)) && fieldError(f, answers.peek().get(f.id) ?? '');
      if (error) found.set(f.id, error);
    }
    errors.value = found;
    return found.keys().next().value;
  }

  const answer = (id: string, value: string): void => {
    answers.value = new Map(answers.peek()).set(id, value);
    // Once shown, an error follows the answer as it is typed; the other fields' answers have not changed.
    const shownErrors = errors.peek();
    if (shownErrors.has(id)) validate(shownErrors);
  };

  const submitForm = (): string | undefined => {
    const first = validate();
    if (first === undefined) step.value = 'review';
    return first;
  };

  function create(): void {
    const currentConfig = config.peek();
    const option = duration.peek();
    const chosen = slot.peek();
    if (submitting.peek() || !currentConfig || !option || !chosen) return;
    const { date: day, time } = chosen;
    setProblem(null);
    void runCreate(
      (options) =>
        client
          .create(
            {
              agentId,
              conversationId: ctx.conversationId(),
              date: day,
              time,
              durationOptionId: option.id,
              formData: formData(currentConfig.form_fields, answers.peek()),
            },
            options,
          )
          .catch(async (error: unknown) => {
            // The spec names no "taken" status or code: the day's slots tell whether the time is gone.
            if (!MAYBE_TAKEN.includes(classify(error)?.kind)) throw error;

            // The cached slots are from before: the day is fetched again.
            const fresh = await availability.refetchAgentDay(option.duration_minutes, day).catch(() => {
              throw error;
            });
            if (fresh.some((s) => s.time === time && s.available)) throw error;
            return { error };
          }),
      (result) => {
        if ('booking' in result) {
          const created = result.booking;
          booking.value = created;
          step.value = 'done';
          // Booked: nothing is left under way for the next page.
          ctx.progress.clear();
          remember(ctx, created, currentConfig.booking_title);
          ctx.emit('booking:created', { agentId, booking: created, ...(ctx.utm ? { utm: ctx.utm } : {}) });
          return;
        }
        reportFailure(ctx, 'create', result.error);
        // The month's availability changed: fetch it again, so the calendar is ready when the visitor goes back.
        availability.forgetMonth(option.duration_minutes, day.slice(0, 7));
        void runPrefetch(() => availability.loadMonth(month.peek()));
        taken.value = chosen;
        step.value = 'time';
      },
      (error) => {
        // A refusal is about the answers (or says what is wrong): shown next to the form, every answer kept.
        if (fail('create', create)(error)?.kind === 'refused') step.value = 'form';
      },
    );
  }

  const slots = (): Slot[] | null => {
    const day = date.value;
    return day ? availability.slotsOn(day) : null;
  };

  const back = (): void => {
    // Offered only where canGoBack says: there is a step before.
    setProblem(null);
    step.value = FLOW[FLOW.indexOf(step.peek()) - 1] ?? step.peek();
  };

  load();

  return {
    ...problems,
    step,
    config,
    duration,
    durations,
    shownZone,
    bounds,
    month,
    monthDates,
    focused,
    notice,
    date,
    slots,
    slot,
    taken,
    answers,
    errors,
    submitting,
    booking,
    canGoBack,
    agentZone,
    showMonth,
    focusDay,
    chooseDuration,
    chooseDate,
    chooseSlot,
    answer,
    submitForm,
    create,
    back,
    switchZone() {
      availability.switchZone();
      showMonth(month.peek(), true);
      if (step.peek() === 'time') loadSlots();
    },
    again() {
      // The booking stays until the next one replaces it: only the done step reads it, and start() leaves that step.
      availability.clear();
      start();
    },
    underWay: () => pending !== undefined || UNDER_WAY.includes(step.peek()),
    progress() {
      if (pending) return pending;
      const current = step.peek();
      const option = duration.peek();
      // Begun by the visitor: a day chosen, or a duration where there was a choice (one alone opens the calendar by itself).
      const begun = current !== 'date' || durations().length > 1;
      if (!option || !isProgressStep(current) || !begun) return undefined;
      const day = date.peek();
      const chosen = slot.peek();
      const withTime = current === 'form' || current === 'review';
      return {
        step: current,
        durationId: option.id,
        ...(day && (withTime || current === 'time') && { date: day }),
        ...(chosen && withTime && { slot: { date: chosen.date, time: chosen.time } }),
        answers: boundedAnswers(answers.peek()),
        inAgentZone: shownZone() !== ctx.visitorTimeZone,
      };
    },
    forget() {
      pending = undefined;
      ctx.progress.clear();
      const current = config.peek();
      // Before the config is in, its answer starts afresh: nothing is pending.
      if (!current) return;
      answers.value = prefilledAnswers(current.form_fields, ctx.prefill);
      errors.value = new Map();
      duration.value = null;
      date.value = null;
      slot.value = null;
      taken.value = null;
      setProblem(null);
      start();
    },
  };
}
