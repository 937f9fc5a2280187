// Pieces shared by the Book and My booking views.
import { Component, type ComponentChildren } from 'preact';
import { CANCELLED_STATUS } from '../../core/spec-assumptions';
import { zonedToInstant } from '../../core/time';
import type { Booking, BookingStatus } from '../../core/types';
import { fmt } from '../i18n/format';
import { formatSpan, zoneName } from './intl';
import type { Failures, Problem } from './state';
import type { Strings } from '../i18n';
import type { BookingStrings } from '../i18n/booking-strings';
import type { BookingContext } from './types';

/** What a step shows of its store: the failure, and the retry that goes with it; Back, where the store has steps of its own. */
interface Failing extends Failures {
  canGoBack?(): boolean;
  back?(): void;
}

/** What every step of either view gets: its store, the strings and the context. */
export interface Env<S extends Failing = Failing> {
  store: S;
  /** The booking's words, and the few shared with the chat (Copied). */
  t: Strings;
  ctx: BookingContext;
}

/**
 * A view's root, which moves focus to the step's heading when the step changes: focus that was in the
 * view was lost with the old step's elements. Not on first render (the shell owns that focus), not
 * when the visitor has put focus elsewhere, such as on the tabs or on the host page, and not in a panel
 * that opened by itself (the next page of the site, a booking coming back) before the visitor has come
 * to the view: their focus stays on the page.
 */
export class StepView extends Component<{ step: string; asked: () => boolean; children: ComponentChildren }> {
  /** The visitor has clicked in the view or put focus in it. */
  private visited = false;
  private visit = () => {
    this.visited = true;
  };

  override componentDidUpdate(previous: { step: string }): void {
    if (previous.step === this.props.step || !(this.visited || this.props.asked())) return;
    // Drawn by render() below, so base is the div.
    const view = this.base as HTMLElement;
    // The document's active element: our shadow host while focus is anywhere in the widget, the page's own
    // element when the visitor is on the page, and the body (never null: the page has one) only when focus
    // was lost with the old step.
    const doc = view.ownerDocument;
    if (doc.activeElement !== doc.body) return;
    // The step's safe default where it has one (Keep booking), else its heading.
    (view.querySelector<HTMLElement>('[data-default]') ?? view.querySelector<HTMLElement>('.heading'))?.focus();
  }

  render() {
    // Keyed by the step: a new step's controls and live regions are new elements, none reused from the last.
    return (
      <div class="booking" key={this.props.step} onClick={this.visit} onFocusIn={this.visit}>
        {this.props.children}
      </div>
    );
  }
}

interface StepProps {
  env: Env;
  heading: string;
  /** Back, or the step's other way on (Look up another, Book another), drawn first and quiet; by default the store's Back, where it offers one. */
  onBack?: (() => void) | undefined;
  backLabel?: string;
  /** Back is the safe choice the step starts on: focus goes to it rather than to the heading. */
  backIsDefault?: boolean;
  /** Submits the step; returns the name or id of the form control that is invalid, which takes focus. */
  onSubmit?: () => string | undefined | void;
  /** The step reports a success: its heading carries the success mark. */
  ok?: boolean;
  actions?: ComponentChildren;
  children?: ComponentChildren;
}

/**
 * What the visitor is told of a failure: the words of its kind, the service's own words for a refusal
 * (it says what is wrong), else the generic message.
 */
function failureText(t: BookingStrings, problem: Problem): string {
  switch (problem.kind) {
    case 'offline':
      return t.networkError;
    case 'unreachable':
    case 'timeout':
      return t.unreachable;
    case 'unavailable':
    case 'misconfigured':
      return t.unavailable;
    case 'notFound':
      return t.notFound;
    case 'busy':
      return t.busy;
    case 'refused':
      return problem.message ?? t.serverError;
    case 'invalid':
    case 'server':
      return t.serverError;
  }
}

/** One step: its heading (the focus target, an h3 under the panel's title), content, the failure if any, then Back and the step's actions. */
export function Step({
  env: { store, t },
  heading,
  onBack = store.canGoBack?.() ? store.back : undefined,
  backLabel = t.back,
  backIsDefault,
  onSubmit,
  ok,
  actions,
  children,
}: StepProps) {
  const problem = store.problem.value;
  return (
    <form
      class="step"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const invalid = onSubmit?.();
        // An input or a textarea; a RadioNodeList (fields of one id, which a config may repeat) is not focusable.
        const control = invalid ? event.currentTarget.elements.namedItem(invalid) : null;
        if (control instanceof HTMLElement) control.focus();
      }}
    >
      {/* h3: the panel's title (the dialog's name) is the h2, and each step is a section of the view under it. */}
      <h3 class={ok ? 'heading ok' : 'heading'} tabIndex={-1}>
        {heading}
      </h3>
      {children}
      {problem && (
        <div role="alert" class="problem">
          <p>{failureText(t, problem)}</p>
          {problem.retryable && (
            <button type="button" class="btn" onClick={store.retry}>
              {t.retry}
            </button>
          )}
        </div>
      )}
      {(onBack || actions) && (
        <div class="row">
          {onBack && (
            <button type="button" class="btn quiet" data-default={backIsDefault ? '' : undefined} onClick={onBack}>
              {backLabel}
            </button>
          )}
          {actions}
        </div>
      )}
    </form>
  );
}

/** One row of a description list. */
export interface Fact {
  label: string;
  value: ComponentChildren;
}

/** Facts as a description list. */
export function Facts({ rows }: { rows: Fact[] }) {
  return (
    <dl>
      {rows.map(({ label, value }) => (
        <div>
          <dt dir="auto">{label}</dt>
          <dd dir="auto">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * When: the appointment from start to end on the visitor's clock, their zone named once; and where the
 * agent's zone is another, the same span once on the agent's clock. One row, not a row per zone labelled
 * by the zone's name.
 */
export const whenFact = ({ t, ctx }: Env, agentZone: string, start: Date, end: Date): Fact => {
  const { locale, visitorTimeZone } = ctx;
  const said = (template: string, zone: string) =>
    fmt(template, { time: formatSpan(locale, zone, start, end), zone: zoneName(locale, zone, start, end) });
  return {
    label: t.when,
    value: (
      <>
        <span class="line">{said(t.whenVisitor, visitorTimeZone)}</span>
        {visitorTimeZone !== agentZone && (
          <>
            {' '}
            <span class="line sub">{said(t.whenAgent, agentZone)}</span>
          </>
        )}
      </>
    ),
  };
};

/**
 * The duration's row: its label, which names what was booked. Without one there is no row: the When
 * row's span already says how long it is.
 */
export const durationFacts = ({ t }: Env, label: string): Fact[] => (label ? [{ label: t.duration, value: label }] : []);

/** The status in words; a word the spec does not name is shown as the service wrote it, without underscores. */
export function statusWord(t: BookingStrings, status: string): string {
  switch (status) {
    case 'confirmed':
      return t.confirmed;
    case 'pending':
      return t.pending;
    case CANCELLED_STATUS:
      return t.cancelled;
    default:
      return status.replace(/_/g, ' ');
  }
}

/**
 * A booking's latest known status. The remembered bookings are the one place every view reads it
 * from, so a cancel in My booking (or in another tab) reaches the Book view's confirmation.
 */
export const statusOf = (ctx: BookingContext, booking: Booking): BookingStatus =>
  ctx.remembered.list.value.find((remembered) => remembered.code === booking.booking_code)?.status ?? booking.status;

/** A booking's code (as `code` when given), status, when, and duration. */
export const bookingRows = (env: Env, booking: Booking, code: ComponentChildren = booking.booking_code): Fact[] => {
  const { t, ctx } = env;
  const status = statusOf(ctx, booking);
  const start = zonedToInstant(booking.booking_date, booking.start_time, booking.timezone);
  return [
    { label: t.code, value: code },
    ...(status ? [{ label: t.status, value: statusWord(t, status) }] : []),
    whenFact(env, booking.timezone, start, new Date(+start + booking.duration_minutes * 60_000)),
    ...durationFacts(env, booking.duration_label),
  ];
};
