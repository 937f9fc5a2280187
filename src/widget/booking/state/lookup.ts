// My booking: find a booking by its code (typed or remembered), and cancel it when the service allows.
import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { CANCELLED_STATUS } from '../../../core/spec-assumptions';
import { zonedToInstant } from '../../../core/time';
import type { Booking, BookingConfig, LookupBookingResponse } from '../../../core/types';
import { isBookingCode } from '../../../core/validate';
import type { BookingContext } from '../types';
import { createProblems, remember, reportFailure, type Failures } from './report';
import type { Requests } from './requests';

/**
 * Why a booking cannot be cancelled online, said in the visitor's language where the config tells which
 * rule the service applied: its notice period (`hours` before the start) has begun, or cancelling online
 * is off. Else the service's own sentence (`cancelReason`, in the service's language) is all there is.
 */
export type CancelRefusal = { kind: 'notice'; hours: number } | { kind: 'disabled' } | { kind: 'service'; message: string };

/** A looked-up booking as shown. */
export interface LookupResult extends LookupBookingResponse {
  /**
   * A cancel made here went through. The view confirms it in the visitor's language; the service's own
   * message (in the service's language) goes to the page with the booking:cancelled event.
   */
  cancelledHere?: boolean;
  /** Why the service will not cancel it, once known (the config is asked for first); none while it can be. */
  refusal?: CancelRefusal;
}

const HOUR_MS = 3_600_000;

/** Pending and confirmed bookings are the ones the config's cancel rules apply to; no other status can be cancelled. */
const underCancelRules = (booking: Booking): boolean => booking.status === 'pending' || booking.status === 'confirmed';

/**
 * The cancel rule (spec: "Booking status") a refused booking breaks, as far as `config` and the clock
 * tell; undefined when neither explains the refusal (another status, or a rule of the service's own).
 */
export function refusalOf(config: BookingConfig, booking: Booking, now: Date): CancelRefusal | undefined {
  if (!underCancelRules(booking)) return undefined;
  if (!config.allow_user_cancellation) return { kind: 'disabled' };
  const hours = config.cancellation_notice_hours;
  const start = zonedToInstant(booking.booking_date, booking.start_time, booking.timezone);
  return hours > 0 && now.getTime() > start.getTime() - hours * HOUR_MS ? { kind: 'notice', hours } : undefined;
}

export interface LookupStore extends Failures {
  /** The code field's text, written by the view as the visitor types. */
  readonly code: Signal<string>;
  readonly invalid: ReadonlySignal<boolean>;
  /** A lookup or a cancel is on its way. */
  readonly requestPending: ReadonlySignal<boolean>;
  readonly result: ReadonlySignal<LookupResult | null>;
  /** The "Cancel this booking?" question is on screen; written by the view. */
  readonly asking: Signal<boolean>;
  /** Looks up the typed code, or `picked` (a remembered one); false when the code is not valid. */
  find(picked?: string): boolean;
  cancel(): void;
  /** Back to the code field. */
  reset(): void;
}

/** Codes are typed by people: case, spaces, and a missing dash are tolerated. */
export function readBookingCode(input: string): string {
  return input
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/^BK-?(?=[A-Z0-9]{6}$)/, 'BK-');
}

export function createLookupStore(ctx: BookingContext, requests: Requests): LookupStore {
  const { client, agentId } = ctx;
  const code = signal('');
  const invalid = signal(false);
  const requestPending = signal(false);
  const result = signal<LookupResult | null>(null);
  const asking = signal(false);
  const problems = createProblems(ctx);
  const { fail, set: setProblem } = problems;
  const runLookup = requests.latest(requestPending);
  const runCancel = requests.latest(requestPending);
  /** Shows `res` (null: the code field), without the question. */
  const show = (res: LookupResult | null) => {
    result.value = res;
    asking.value = false;
  };
  /**
   * The config, asked for once and only when a refusal needs explaining; null when it cannot be had (the
   * host hears why, with the error event), and then asked for again next time. The visitor is not told:
   * the service's sentence stands in.
   */
  let config: Promise<BookingConfig | null> | undefined;
  const readConfig = () =>
    (config ??= client.config({ agentId }, { signal: requests.signal }).then(
      (answer) => answer.config,
      (error: unknown) => {
        config = undefined;
        reportFailure(ctx, 'config', error);
        return null;
      },
    ));
  /** Shows `res` with its refusal in words, once known: from the config where its rules apply, else the service's sentence. */
  const showResult = (res: LookupResult) => {
    show(res);
    if (res.canCancel) return;
    const service: CancelRefusal = { kind: 'service', message: res.cancelReason ?? '' };
    if (!underCancelRules(res.booking)) {
      show({ ...res, refusal: service });
      return;
    }
    void readConfig().then((answer) => {
      // Nothing is written after dispose(), nor over another result (Look up another, a new find).
      if (requests.signal.aborted || result.peek() !== res) return;
      result.value = { ...res, refusal: (answer && refusalOf(answer, res.booking, ctx.now())) ?? service };
    });
  };

  function find(picked?: string): boolean {
    // A remembered code picked fills the field; the typed one is written back unchanged, which signals ignore.
    const value = readBookingCode((code.value = picked ?? code.peek()));
    const ok = isBookingCode(value);
    invalid.value = !ok;
    // The problem on screen goes: fail() clears it as the lookup is sent.
    if (ok)
      void runLookup(
        (options) => client.lookup({ agentId, code: value }, options),
        (res) => {
          showResult(res);
          remember(ctx, res.booking, res.booking.booking_title);
        },
        fail('lookup', () => find(value)),
      );
    else setProblem(null);
    return ok;
  }

  function cancel(): void {
    const current = result.peek();
    if (!current || requestPending.peek()) return;
    const b = current.booking;
    const bookingCode = b.booking_code;
    setProblem(null);
    void runCancel(
      (options) => client.cancel({ agentId, bookingCode }, options),
      ({ message }) => {
        const gone = { ...b, status: CANCELLED_STATUS };
        ctx.remembered.setStatus(bookingCode, CANCELLED_STATUS);
        ctx.emit('booking:cancelled', { agentId, code: bookingCode, booking: gone, message });
        // The visitor may have moved on (Look up another) while the cancel was on its way.
        if (result.peek() !== current) return;
        // The view stops offering the cancel: the status is cancelled.
        show({ ...current, booking: gone, cancelledHere: true });
      },
      (error) => {
        if (result.peek() !== current) return;
        // A refusal is the cancel reason: say it where the reason goes, and stop offering the cancel control.
        // The service's sentence went to the page with the error event; the visitor reads it in their language.
        const p = fail('cancel', cancel)(error);
        if (p?.kind === 'refused') {
          setProblem(null);
          showResult({ ...current, canCancel: false, cancelReason: p.message });
        }
      },
    );
  }

  return {
    ...problems,
    code,
    invalid,
    requestPending,
    result,
    asking,
    find,
    cancel,
    reset() {
      show(null);
      setProblem(null);
      code.value = '';
    },
  };
}
