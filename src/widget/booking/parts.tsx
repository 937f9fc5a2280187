// Pieces shared by the Book and My booking views.
import type { ComponentChildren, RefObject } from 'preact';
import type { ReadonlySignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { zonedToInstant } from '../../core/time';
import type { Booking } from '../../core/types';
import { formatInstant, zoneName } from './intl';
import type { Problem } from './store';
import type { BookingStrings } from './strings';
import type { BookingContext } from './types';

/** What every step of either view gets: its store (with a `problem`), the strings and the context. */
export interface Env<S extends { problem: ReadonlySignal<Problem | null> } = { problem: ReadonlySignal<Problem | null> }> {
  store: S;
  t: BookingStrings;
  ctx: BookingContext;
}

/** A store per context object, so leaving a view and coming back keeps the visitor's progress. */
export function storeFor<S>(stores: WeakMap<BookingContext, S>, ctx: BookingContext, create: (ctx: BookingContext) => S): S {
  let store = stores.get(ctx);
  if (!store) stores.set(ctx, (store = create(ctx)));
  return store;
}

/**
 * Moves focus to the step's heading when the step changes: focus that was in the view, or was lost
 * with the old step's controls. Not on first render (the shell owns that focus), and not when the
 * visitor has put focus elsewhere, such as on the tabs.
 */
export function useStepFocus(root: RefObject<HTMLElement>, step: string): void {
  const shown = useRef(step);
  useLayoutEffect(() => {
    const view = root.current;
    if (shown.current === step || !view) return;
    shown.current = step;
    const scope = view.getRootNode();
    const active = scope instanceof Document || scope instanceof ShadowRoot ? scope.activeElement : null;
    if (active && active !== view.ownerDocument.body && !view.contains(active)) return;
    view.querySelector<HTMLElement>('h2')?.focus();
  }, [step]);
}

interface StepProps {
  env: Env;
  heading: string;
  /** What a 404 means here; "not found" by default. */
  notFound?: string;
  onBack?: (() => void) | undefined;
  backLabel?: string;
  onSubmit?: () => void;
  actions?: ComponentChildren;
  children?: ComponentChildren;
}

/** One step: its heading (the focus target), content, the failure if any, then Back and the step's actions. */
export function Step({ env: { store, t }, heading, notFound = t.notFound, onBack, backLabel = t.back, onSubmit, actions, children }: StepProps) {
  const problem = store.problem.value;
  return (
    <form
      class="aw-b-step"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit?.();
      }}
    >
      <h2 class="aw-b-h" tabIndex={-1}>
        {heading}
      </h2>
      {children}
      {problem && (
        <div role="alert" class="aw-b-problem">
          <p>{problem.kind === 'notFound' ? notFound : problem.kind === 'network' ? t.networkError : (problem.message ?? t.serverError)}</p>
          {problem.retry && (
            <button type="button" class="aw-b-btn" onClick={problem.retry}>
              {t.retry}
            </button>
          )}
        </div>
      )}
      {(onBack || actions) && (
        <div class="aw-b-actions">
          {onBack && (
            <button type="button" class="aw-b-btn aw-b-quiet" onClick={onBack}>
              {backLabel}
            </button>
          )}
          {actions}
        </div>
      )}
    </form>
  );
}

export type Row = [string, ComponentChildren];

/** Rows of a description list. */
export function Facts({ rows }: { rows: Row[] }) {
  return (
    <dl class="aw-b-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The same instant on the visitor's clock and, when it differs, the agent's: one row per zone. */
export function whenRows(ctx: BookingContext, agentZone: string, instant: Date): Row[] {
  return [...new Set([ctx.visitorTimeZone, agentZone])].map((zone) => [
    zoneName(ctx.locale, zone),
    formatInstant(ctx.locale, zone, instant, true),
  ]);
}

export function statusWord(t: BookingStrings, status: string): string {
  return status === 'confirmed' ? t.confirmed : status === 'pending' ? t.pending : status === 'cancelled' ? t.cancelled : status;
}

/** A booking's code (as `code` when given), status, start in both zones and duration. */
export function bookingRows({ t, ctx }: Env, b: Booking, code: ComponentChildren = b.booking_code): Row[] {
  return [
    [t.code, code],
    [t.status, statusWord(t, b.status)],
    ...whenRows(ctx, b.timezone, zonedToInstant(b.booking_date, b.start_time, b.timezone)),
    [t.duration, b.duration_label],
  ];
}
