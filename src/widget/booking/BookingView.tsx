// The Book view: duration, day, time, details, review, confirmation. State and requests live in the store.
import type { FunctionComponent, TargetedEvent } from 'preact';
import { CANCELLED_STATUS } from '../../core/spec-assumptions';
import { daysInMonth, zonedToInstant } from '../../core/time';
import type { BookingConfig, FormField } from '../../core/types';
import { fmt } from '../i18n/format';
import { googleCalendarUrl, icsText, outlookCalendarUrl } from './add-to-calendar';
import { CopyCode } from './CopyCode';
import { BookableInView } from './BookableInView';
import { Calendar } from './Calendar';
import { fieldPurpose, filled, type Answers } from './fields';
import { durationText, formatDate, formatInstant, labelStatesLength, monthName, zoneName } from './intl';
import { bookingRows, durationFacts, Facts, statusOf, Step, StepView, whenFact, type Env as StepEnv, type Fact } from './parts';
import { nearest, type BookingFlow, type Slot, type Step as StepName } from './state';
import type { BookingViewProps } from './view-props';

type Env = StepEnv<BookingFlow>;

interface StepProps {
  env: Env;
}

export function BookingView({ stores, strings, asked }: BookingViewProps) {
  const store = stores.flow();
  const CurrentStep = STEPS[store.step.value];
  return (
    <StepView step={store.step.value} asked={asked}>
      <CurrentStep env={{ store, t: strings, ctx: stores.context }} />
    </StepView>
  );
}

function LoadingStep({ env }: StepProps) {
  return (
    <Step env={env} heading={env.t.bookHeading}>
      {!env.store.problem.value && <p role="status">{env.t.loading}</p>}
    </Step>
  );
}

/** The booking page's title. */
const pageTitle = (config: BookingConfig) => (
  <p class="booking-title" dir="auto">
    {config.booking_title}
  </p>
);

/** The booking page's title and description; given the config in the step's render, so that step re-renders with it. */
const intro = (config: BookingConfig | null) =>
  config && (
    <div>
      {pageTitle(config)}
      {config.booking_description && <p dir="auto">{config.booking_description}</p>}
    </div>
  );

/** Duration `d` (the chosen one, unless given), in words. */
const durationOf = ({ store, ctx }: Env, d = store.duration.value): string =>
  d ? durationText(ctx.locale, d.label, d.duration_minutes) : '';

function DurationStep({ env }: StepProps) {
  const { store, t, ctx } = env;
  return (
    <Step env={env} heading={t.durationHeading}>
      {intro(store.config.value)}
      <ul class="choices">
        {store.durations().map((option) => (
          <li>
            <button type="button" class="choice" onClick={() => store.chooseDuration(option)}>
              <bdi>{durationOf(env, option)}</bdi>
              {/* The length in words, unless the label says it already (or is it: an option without a label). */}
              {/* The space separates the two in the button's name; a flex item's leading space is not drawn. */}
              {option.label && !labelStatesLength(option.label, option.duration_minutes) && (
                <span class="sub"> {durationText(ctx.locale, '', option.duration_minutes)}</span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </Step>
  );
}

/** What the month shown says of itself: nothing free within the horizon, a jump from an empty month, or nothing. */
const monthNotice = ({ store, t, ctx }: Env): string => {
  const notice = store.notice.value;
  if (notice === 'none') return t.noneFree;
  if (notice) return fmt(t.jumped, { from: monthName(ctx.locale, notice.from), to: monthName(ctx.locale, store.month.value) });
  return '';
};

function DateStep({ env }: StepProps) {
  const { store, t } = env;
  const month = store.month.value;
  return (
    <Step env={env} heading={t.dateHeading}>
      {store.durations().length === 1 ? (
        intro(store.config.value)
      ) : (
        <p class="sub">
          <bdi>{durationOf(env)}</bdi>
        </p>
      )}
      <p role="status" class="note">
        {monthNotice(env)}
      </p>
      {zoneLine(env, `${month}-01`, `${month}-${daysInMonth(month)}`)}
      <BookableInView>
        <Calendar env={env} />
      </BookableInView>
    </Step>
  );
}

/**
 * "Times in <zone> · show in <other zone>", the zones named as of the days `from` to `to` on show.
 * The switch is offered when the visitor's zone is not the agent's. Called in the view, which so
 * redraws when the shown zone changes.
 */
const zoneLine = ({ store, t, ctx }: Env, from: string, to: string) => {
  const { locale, visitorTimeZone } = ctx;
  const agentZone = store.agentZone();
  const name = (zone: string) => zoneName(locale, zone, zonedToInstant(from, '00:00', zone), zonedToInstant(to, '23:59', zone));
  const shown = store.shownZone();
  return (
    <p class="sub">
      {fmt(t.timesIn, { zone: name(shown) })}
      {visitorTimeZone !== agentZone && (
        <>
          {' · '}
          <button type="button" class="link" onClick={store.switchZone}>
            {fmt(t.showIn, { zone: name(shown === agentZone ? visitorTimeZone : agentZone) })}
          </button>
        </>
      )}
    </p>
  );
};

/**
 * Slot buttons; the visible time comes first in the name, so speech input can say what it sees, then the
 * zone as of that time. `--aw-b-n`, the longest label in characters, sizes the grid's columns so that no
 * label wraps, whatever the locale's time format.
 */
const slotButtons = ({ store, t, ctx }: Env, slots: Slot[]) => {
  const zone = store.shownZone();
  const views = slots.map((slot) => [slot, formatInstant(ctx.locale, zone, slot.instant)] as const);
  return (
    <ul class="slots" style={{ '--aw-b-n': Math.max(...views.map(([, label]) => label.length)) }}>
      {views.map(([slot, label]) => (
        // Unkeyed: the buttons keep no state, and a list that changes in place (another zone shown) is redrawn in order.
        <li>
          <button
            type="button"
            class="slot"
            aria-label={fmt(t.slotName, { time: label, zone: zoneName(ctx.locale, zone, slot.instant) })}
            onClick={() => store.chooseSlot(slot)}
          >
            {label}
          </button>
        </li>
      ))}
    </ul>
  );
};

function TimeStep({ env }: StepProps) {
  const { store, t, ctx } = env;
  const day = store.date.value ?? '';
  const slots = store.slots();
  const taken = store.taken.value;
  return (
    <Step env={env} heading={t.timeHeading}>
      <p class="sub">{formatDate(ctx.locale, day)}</p>
      {zoneLine(env, day, day)}
      {taken && (
        <div role="alert" class="taken">
          <p>{fmt(t.taken, { time: formatInstant(ctx.locale, store.shownZone(), taken.instant) })}</p>
          {slots && slotButtons(env, nearest(slots, taken))}
        </div>
      )}
      {slots ? (
        slotsOrNone(env, slots)
      ) : (
        <p role="status" class="skeleton">
          {t.loading}
        </p>
      )}
    </Step>
  );
}

/** The day's times, or that there are none. */
const slotsOrNone = (env: Env, slots: Slot[]) => (slots.length ? slotButtons(env, slots) : <p>{env.t.noSlots}</p>);

function FormStep({ env }: StepProps) {
  const { store, t } = env;
  return (
    <Step
      env={env}
      heading={t.formHeading}
      onSubmit={store.submitForm}
      actions={
        <button type="submit" class="btn">
          {t.next}
        </button>
      }
    >
      {/* Fixed ids: each widget has its own shadow root, and this form is drawn once in it. Unkeyed: the
          config's fields are fixed while shown. */}
      {store.config.value?.form_fields.map((field, i) => fieldView(env, field, `field-${i}`))}
    </Step>
  );
}

/** Email and tel come with the field's purpose, url and number as the config gives them; the rest is text. */
const inputTypeOf = (purpose: string | undefined, inputType: string): string => {
  if (purpose === 'email' || purpose === 'tel') return purpose;
  if (inputType === 'url' || inputType === 'number') return inputType;
  return 'text';
};

/** One field of the form; called in the view, which so redraws as answers and errors change. */
const fieldView = ({ store, t }: Env, field: FormField, id: string) => {
  const { id: name, required, inputType } = field;
  const label = field.label || name;
  const error = store.errors.value.get(name);
  const purpose = fieldPurpose(field);
  const props = {
    id,
    name,
    value: store.answers.value.get(name) ?? '',
    placeholder: field.placeholder || undefined,
    dir: 'auto' as const,
    required,
    autocomplete: purpose ?? 'off',
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    onInput: (e: TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) => store.answer(name, e.currentTarget.value),
  };
  const type = inputTypeOf(purpose, inputType);
  return (
    <div class="field">
      <label for={id}>
        <bdi>{label}</bdi>
        {!required && <span class="sub"> {t.optional}</span>}
      </label>
      {field.type === 'textarea' ? <textarea rows={3} {...props} /> : <input type={type} {...props} />}
      {error && (
        <p id={`${id}-error`} class="error">
          {error === 'email' ? t.invalidEmail : fmt(t.required, { label })}
        </p>
      )}
    </div>
  );
};

/** The answers as label/value rows, in the config's field order. */
const answerRows = (fields: readonly FormField[], answers: Answers): Fact[] =>
  filled(fields, answers).map(([field, answer]) => ({ label: field.label || field.id, value: answer }));

function ReviewStep({ env }: StepProps) {
  const { store, t } = env;
  const config = store.config.value;
  const chosen = store.slot.value;
  const duration = store.duration.value;
  const minutes = duration?.duration_minutes ?? 0;
  const submitting = store.submitting.value;
  return (
    config &&
    chosen && (
      <Step
        env={env}
        heading={t.reviewHeading}
        onSubmit={store.create}
        actions={
          <button type="submit" class="btn" disabled={submitting} aria-busy={submitting ? 'true' : undefined}>
            {submitting ? t.confirming : t.confirm}
          </button>
        }
      >
        {pageTitle(config)}
        <Facts
          rows={[
            whenFact(env, config.timezone, chosen.instant, new Date(+chosen.instant + minutes * 60_000)),
            ...durationFacts(env, duration?.label ?? ''),
            ...answerRows(config.form_fields, store.answers.value),
          ]}
        />
      </Step>
    )
  );
}

/** The last step's heading: booked, pending confirmation, or cancelled since. */
const doneHeading = (t: Env['t'], status: string): string => {
  if (status === CANCELLED_STATUS) return t.cancelledHeading;
  return status === 'pending' ? t.pendingHeading : t.doneHeading;
};

function DoneStep({ env }: StepProps) {
  const { store, t, ctx } = env;
  const booking = store.booking.value;
  const config = store.config.value;
  if (!booking || !config) return null;
  // The booking as an event, for the calendar links and the .ics file.
  const start = zonedToInstant(booking.booking_date, booking.start_time, booking.timezone);
  const what = durationText(ctx.locale, booking.duration_label, booking.duration_minutes);
  const event = {
    uid: `${booking.booking_code}@agent-widget`,
    title: ctx.title ? fmt(t.eventTitle, { what, who: ctx.title }) : what,
    details: fmt(t.icsDetails, { code: booking.booking_code }),
    start,
    end: new Date(+start + booking.duration_minutes * 60_000),
  };
  // Cancelled (in My booking, or in another tab): said in the heading, and nothing left to add to a calendar.
  const status = statusOf(ctx, booking);
  const gone = status === CANCELLED_STATUS;
  return (
    <Step env={env} heading={doneHeading(t, status)} ok={status === 'confirmed'} onBack={store.again} backLabel={t.bookAnother}>
      {pageTitle(config)}
      {/* Right under the heading, where a phone's screen still shows them. */}
      {!gone && (
        <p class="row calendar-links">
          <a class="btn quiet" href={googleCalendarUrl(event)} target="_blank" rel="noopener noreferrer">
            {t.google}
            <span class="sr"> {t.opensNewTab}</span>
          </a>
          <a class="btn quiet" href={outlookCalendarUrl(event)} target="_blank" rel="noopener noreferrer">
            {t.outlook}
            <span class="sr"> {t.opensNewTab}</span>
          </a>
          {/* A data: URL rather than an object URL: nothing to revoke, so the step needs no unmount work. */}
          <a
            class="btn quiet"
            href={`data:text/calendar;charset=utf-8,${encodeURIComponent(icsText(event, ctx.now()))}`}
            download={`${booking.booking_code}.ics`}
          >
            {t.ics}
          </a>
        </p>
      )}
      <Facts
        rows={[
          ...bookingRows(env, booking, <CopyCode code={booking.booking_code} t={t} />),
          ...answerRows(config.form_fields, new Map(Object.entries(booking.form_data))),
        ]}
      />
    </Step>
  );
}

/**
 * Each step is a component: it re-renders on the signals it reads, the view above only on the step.
 * StepView draws each step anew, so none reuses the last one's elements.
 */
const STEPS: Record<StepName, FunctionComponent<StepProps>> = {
  loading: LoadingStep,
  duration: DurationStep,
  date: DateStep,
  time: TimeStep,
  form: FormStep,
  review: ReviewStep,
  done: DoneStep,
};
