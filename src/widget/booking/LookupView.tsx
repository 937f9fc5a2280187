// My booking: find a booking by code (typed or remembered), see it, and cancel it when allowed.
import { CANCELLED_STATUS } from '../../core/spec-assumptions';
import { formatStart } from './intl';
import { bookingRows, Facts, statusOf, statusWord, Step, StepView, type Env as StepEnv } from './parts';
import { plural } from '../i18n/format';
import type { CancelRefusal, LookupResult, LookupStore } from './state';
import type { LookupViewProps } from './view-props';

type Env = StepEnv<LookupStore>;

export function LookupView({ stores, strings, asked, openBooking, openChat }: LookupViewProps) {
  const store = stores.lookup();
  const result = store.result.value;
  const asking = store.asking.value;
  const env: Env = { store, t: strings, ctx: stores.context };
  // Each step is a component: it re-renders on the signals it reads, this view only on which step it is.
  if (!result) {
    return (
      <StepView step="find" asked={asked}>
        <FindStep env={env} />
      </StepView>
    );
  }
  return (
    <StepView step={asking ? 'ask' : 'result'} asked={asked}>
      {asking ? (
        <CancelStep env={env} result={result} />
      ) : (
        <ResultStep env={env} result={result} openBooking={openBooking} openChat={openChat} />
      )}
    </StepView>
  );
}

function FindStep({ env }: { env: Env }) {
  const { store, t, ctx } = env;
  const invalid = store.invalid.value;
  const remembered = ctx.remembered.list.value;
  return (
    <Step
      env={env}
      heading={t.lookupHeading}
      onSubmit={() => (store.find() ? undefined : 'find')}
      actions={
        <button type="submit" class="btn" disabled={store.requestPending.value}>
          {t.find}
        </button>
      }
    >
      {remembered.length > 0 && (
        <>
          <h4>{t.rememberedHeading}</h4>
          <ul class="choices">
            {remembered.map(({ code, title, date, time, timezone, status }) => (
              <li key={code}>
                <button type="button" class="choice" onClick={() => store.find(code)}>
                  <span class="code" dir="ltr">
                    {code}
                  </span>{' '}
                  {[title, formatStart(ctx.locale, date, time, timezone, ctx.visitorTimeZone), statusWord(t, status)]
                    .filter(Boolean)
                    .join(' · ')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {/* Ids are fixed: each widget has its own shadow root, and this view is drawn once in it. */}
      <div class="field">
        <label for="find">{t.code}</label>
        <input
          id="find"
          value={store.code.value}
          autocomplete="off"
          autocapitalize="characters"
          spellcheck={false}
          aria-invalid={invalid ? 'true' : undefined}
          aria-describedby={invalid ? 'find-error find-hint' : 'find-hint'}
          onInput={(event) => {
            store.code.value = event.currentTarget.value;
          }}
        />
        <p id="find-hint" class="sub">
          {t.codeHint}
        </p>
        {invalid && (
          <p id="find-error" class="error">
            {t.invalidCode}
          </p>
        )}
      </div>
    </Step>
  );
}

interface ResultProps {
  env: Env;
  result: LookupResult;
}

/** Why the booking cannot be cancelled online, in the visitor's words where the config says which rule it is. */
const refusalText = ({ t, ctx }: Env, refusal: CancelRefusal): string => {
  switch (refusal.kind) {
    case 'notice':
      return `${plural(ctx.locale, t.cancelTooLate, refusal.hours)} ${t.cancelContact}`;
    case 'disabled':
      return `${t.cancelDisabled} ${t.cancelContact}`;
    case 'service':
      return refusal.message;
  }
};

/**
 * The booking found; after a cancel made here, said above it, with the way to book another time; when it
 * cannot be cancelled online, why, with the way to ask (the chat).
 */
function ResultStep({ env, result, openBooking, openChat }: ResultProps & Pick<LookupViewProps, 'openBooking' | 'openChat'>) {
  const { store, t, ctx } = env;
  const { cancelledHere, refusal } = result;
  // Not after a cancel made in the Book view's tab or another one, which the status says.
  const cancelled = statusOf(ctx, result.booking) === CANCELLED_STATUS;
  const canCancel = result.canCancel && !cancelled;
  const cancelButton = canCancel && (
    <button
      type="button"
      class="btn danger"
      onClick={() => {
        store.asking.value = true;
      }}
    >
      {t.cancelBooking}
    </button>
  );
  const bookAnother = cancelledHere && (
    <button type="button" class="btn" onClick={openBooking}>
      {t.bookAnother}
    </button>
  );
  // Our rules (notice, disabled) come with the way to ask; the service's own sentence says its own.
  const said = !canCancel && !cancelled && refusal && refusalText(env, refusal);
  const askUs = said && refusal.kind !== 'service' && (
    <button type="button" class="btn" onClick={openChat}>
      {t.messageUs}
    </button>
  );
  return (
    <Step
      env={env}
      heading={result.booking.booking_title || t.lookupHeading}
      onBack={store.reset}
      backLabel={t.lookupAnother}
      actions={cancelButton || bookAnother || askUs}
    >
      {cancelledHere && (
        <p role="status" class="outcome">
          {t.cancelledHeading}
        </p>
      )}
      <Facts rows={bookingRows(env, result.booking)} />
      {said && <p class="note">{said}</p>}
    </Step>
  );
}

/** "Cancel this booking?": Keep booking is the safe default (focus starts there), the cancel looks destructive. */
function CancelStep({ env, result }: ResultProps) {
  const { store, t } = env;
  return (
    <Step
      env={env}
      heading={t.cancelAsk}
      onBack={() => {
        store.asking.value = false;
      }}
      backLabel={t.keep}
      backIsDefault
      onSubmit={store.cancel}
      actions={
        <button type="submit" class="btn danger" disabled={store.requestPending.value}>
          {t.cancelYes}
        </button>
      }
    >
      <p>{t.cancelWarn}</p>
      <Facts rows={bookingRows(env, result.booking)} />
    </Step>
  );
}
