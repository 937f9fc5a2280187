// My booking: find a booking by code (typed or remembered), see it, and cancel it when allowed.
import { useId, useRef } from 'preact/hooks';
import { zonedToInstant } from '../../core/time';
import type { LookupBookingResponse } from '../../core/types';
import { formatStart } from './intl';
import { Facts, statusWord, Step, storeFor, useStepFocus, whenRows } from './parts';
import { createLookupStore, type LookupStore } from './store';
import type { BookingStrings } from './strings';
import type { BookingContext, BookingViewProps } from './types';

interface Env {
  store: LookupStore;
  t: BookingStrings;
  ctx: BookingContext;
}

const stores = new WeakMap<BookingContext, LookupStore>();

export function LookupView({ context, strings }: BookingViewProps) {
  const store = storeFor(stores, context, createLookupStore);
  const root = useRef<HTMLDivElement>(null);
  const result = store.result.value;
  const asking = store.asking.value;
  useStepFocus(root, !result ? 'find' : asking ? 'ask' : 'result');
  const env: Env = { store, t: strings, ctx: context };
  return (
    <div class="aw-b" ref={root}>
      {!result ? <Find {...env} /> : asking ? <Ask env={env} result={result} /> : <Result env={env} result={result} />}
    </div>
  );
}

function Find({ store, t, ctx }: Env) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const invalid = store.invalid.value;
  const remembered = ctx.remembered.list.value;
  return (
    <Step
      heading={t.lookupHeading}
      t={t}
      problem={store.problem.value}
      notFound={t.notFound}
      onSubmit={() => {
        if (!store.find()) input.current?.focus();
      }}
      actions={
        <button type="submit" class="aw-b-btn" disabled={store.busy.value}>
          {t.find}
        </button>
      }
    >
      {remembered.length > 0 && (
        <>
          <h3 class="aw-b-h3">{t.rememberedHeading}</h3>
          <ul class="aw-b-choices">
            {remembered.map((r) => (
              <li key={r.code}>
                <button type="button" class="aw-b-choice" onClick={() => store.find(r.code)}>
                  <span class="aw-b-code">{r.code}</span> {[r.title, formatStart(ctx.locale, r.date, r.time, r.timezone, ctx.visitorTimeZone), statusWord(t, r.status)]
                    .filter(Boolean)
                    .join(' · ')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <div class="aw-b-field">
        <label for={id}>{t.code}</label>
        <input
          id={id}
          ref={input}
          value={store.code.value}
          autocomplete="off"
          autocapitalize="characters"
          spellcheck={false}
          aria-invalid={invalid ? 'true' : undefined}
          aria-describedby={invalid ? `${id}-error ${id}-hint` : `${id}-hint`}
          onInput={(e) => store.type(e.currentTarget.value)}
        />
        <p id={`${id}-hint`} class="aw-b-hint">
          {t.codeHint}
        </p>
        {invalid && (
          <p id={`${id}-error`} class="aw-b-error">
            {t.invalidCode}
          </p>
        )}
      </div>
    </Step>
  );
}

/** The booking's code, status, time in both zones and duration. */
function bookingRows(env: Env, { booking: b }: LookupBookingResponse): [string, string][] {
  return [
    [env.t.code, b.booking_code],
    [env.t.status, statusWord(env.t, b.status)],
    ...whenRows(env.ctx, b.timezone, zonedToInstant(b.booking_date, b.start_time, b.timezone)),
    [env.t.duration, b.duration_label],
  ];
}

function Result({ env, result }: { env: Env; result: LookupBookingResponse }) {
  const { store, t } = env;
  const cancelled = store.cancelled.value;
  return (
    <Step
      heading={result.booking.booking_title || t.lookupHeading}
      t={t}
      problem={store.problem.value}
      notFound={t.notFound}
      onBack={store.reset}
      backLabel={t.lookupAnother}
      actions={
        result.canCancel && (
          <button type="button" class="aw-b-btn" onClick={() => store.ask(true)}>
            {t.cancelBooking}
          </button>
        )
      }
    >
      {cancelled && (
        <p role="status" class="aw-b-note">
          {cancelled}
        </p>
      )}
      <Facts rows={bookingRows(env, result)} />
      {!result.canCancel && !cancelled && result.cancelReason && <p class="aw-b-note">{result.cancelReason}</p>}
    </Step>
  );
}

function Ask({ env, result }: { env: Env; result: LookupBookingResponse }) {
  const { store, t } = env;
  return (
    <Step
      heading={t.cancelAsk}
      t={t}
      problem={store.problem.value}
      notFound={t.notFound}
      onBack={() => store.ask(false)}
      backLabel={t.keep}
      onSubmit={store.cancel}
      actions={
        <button type="submit" class="aw-b-btn" disabled={store.busy.value}>
          {t.cancelYes}
        </button>
      }
    >
      <p>{t.cancelWarn}</p>
      <Facts rows={bookingRows(env, result)} />
    </Step>
  );
}
