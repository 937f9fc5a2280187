// The Book view: duration, day, time, details, review, confirmation. State and requests live in the store.
import type { ComponentChildren, FunctionComponent, TargetedEvent } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { zonedToInstant } from '../../core/time';
import type { FormField } from '../../core/types';
import { fmt } from '../i18n/format';
import { googleCalendarUrl, icsText } from './add-to-calendar';
import { Calendar } from './Calendar';
import { fieldPurpose, filled, type Answers } from './fields';
import { durationText, formatDate, formatInstant, MONTH, slotViews, zoneName, type SlotView } from './intl';
import { bookingRows, Facts, Step, useStepFocus, whenRows, type Env as StepEnv, type Row } from './parts';
import type { BookingFlow, Step as StepName } from './state';
import type { BookingViewProps } from './types';
import { reactive } from '../platform/reactive';

type Env = StepEnv<BookingFlow>;

export const BookingView = reactive(function BookingView({ stores, strings }: BookingViewProps) {
  const store = stores.flow();
  const context = stores.context;
  const root = useRef<HTMLDivElement>(null);
  const step = store.step.value;
  useStepFocus(root, step);
  const View = STEPS[step];
  return (
    <div class="aw-b" ref={root}>
      <View store={store} t={strings} ctx={context} />
    </div>
  );
});

type FrameProps = {
  env: Env;
  heading: string;
  onSubmit?: () => void;
  actions?: ComponentChildren;
  children?: ComponentChildren;
};

/** A Book step with the store's failure and Back wired in. */
const StepFrame = reactive(function StepFrame(props: FrameProps) {
  const { store, t } = props.env;
  return <Step notFound={t.unavailable} onBack={store.canGoBack.value ? store.back : undefined} {...props} />;
});

const LoadingStep = reactive(function LoadingStep(env: Env) {
  return (
    <StepFrame env={env} heading={env.t.bookHeading}>
      {!env.store.problem.value && <p role="status">{env.t.loading}</p>}
    </StepFrame>
  );
});

const Intro = reactive(function Intro({ store }: Env) {
  const c = store.config.value;
  return c ? (
    <div>
      <p class="aw-b-title" dir="auto">{c.booking_title}</p>
      {c.booking_description && <p dir="auto">{c.booking_description}</p>}
    </div>
  ) : null;
});

/** The chosen duration, in words. */
const durationOf = ({ store, ctx }: Env): string => {
  const d = store.duration.value;
  return d ? durationText(ctx.locale, d.label, d.duration_minutes) : '';
};

const DurationStep = reactive(function DurationStep(env: Env) {
  const { store, t } = env;
  return (
    <StepFrame env={env} heading={t.durationHeading}>
      <Intro {...env} />
      <ul class="aw-b-choices">
        {store.durations.value.map((option) => (
          <li key={option.id}>
            <button type="button" class="aw-b-choice" onClick={() => store.chooseDuration(option)}>
              <bdi>{durationText(env.ctx.locale, option.label, option.duration_minutes)}</bdi>
            </button>
          </li>
        ))}
      </ul>
    </StepFrame>
  );
});

const DateStep = reactive(function DateStep(env: Env) {
  const { store, t, ctx } = env;
  const notice = store.notice.value;
  const monthName = (m: string) => formatDate(ctx.locale, m, MONTH);
  return (
    <StepFrame env={env} heading={t.dateHeading}>
      {store.durations.value.length === 1 ? <Intro {...env} /> : (
        <p class="aw-b-sub">
          <bdi>{durationOf(env)}</bdi>
        </p>
      )}
      <p role="status" class="aw-b-note">
        {notice === 'none' ? t.noneFree : notice ? fmt(t.jumped, { from: monthName(notice.from), to: monthName(store.month.value) }) : ''}
      </p>
      <Calendar store={store} t={t} locale={ctx.locale} />
    </StepFrame>
  );
});

/** Slot buttons; the visible text (time, and the day when it differs) comes first in the name, so speech input can say what it sees. */
function SlotButtons({ env: { store, t }, views, zone }: { env: Env; views: SlotView[]; zone: string }) {
  return (
    <ul class="aw-b-slots">
      {views.map(({ time, label, day }) => (
        <li key={time}>
          <button
            type="button"
            class="aw-b-slot"
            aria-label={fmt(t.slotName, { time: day ? `${label} ${day}` : label, zone })}
            onClick={() => store.chooseSlot(time)}
          >
            {label}
            {day && <span class="aw-b-other-day"> {day}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}

const TimeStep = reactive(function TimeStep(env: Env) {
  const { store, t, ctx } = env;
  const { locale, visitorTimeZone } = ctx;
  const day = store.date.value ?? '';
  const agentZone = store.zone();
  const differs = visitorTimeZone !== agentZone;
  const agentClock = store.agentClock;
  const shown = differs && !agentClock.value ? visitorTimeZone : agentZone;
  const shownName = zoneName(locale, shown);
  const slots = store.slots.value;
  const taken = store.taken.value;
  const views = slots && slotViews(locale, day, slots, agentZone, shown);
  return (
    <StepFrame env={env} heading={t.timeHeading}>
      <p class="aw-b-sub">{formatDate(locale, day)}</p>
      <p class="aw-b-zone">
        {fmt(t.timesIn, { zone: shownName })}
        {differs && (
          <>
            {' · '}
            <button type="button" class="aw-b-link" onClick={() => (agentClock.value = !agentClock.value)}>
              {fmt(t.showIn, { zone: zoneName(locale, shown === agentZone ? visitorTimeZone : agentZone) })}
            </button>
          </>
        )}
      </p>
      {taken && (
        <div role="alert" class="aw-b-taken">
          <p>{fmt(t.taken, { time: formatInstant(locale, shown, zonedToInstant(day, taken, agentZone)) })}</p>
          {slots && <SlotButtons env={env} views={slotViews(locale, day, store.nearest.value, agentZone, shown)} zone={shownName} />}
        </div>
      )}
      {!views ? (
        <p role="status" class="aw-b-skeleton">
          {t.loading}
        </p>
      ) : views.length ? (
        <SlotButtons env={env} views={views} zone={shownName} />
      ) : (
        <p>{t.noSlots}</p>
      )}
    </StepFrame>
  );
});

const INPUT_TYPES = ['text', 'email', 'tel', 'url', 'number'];

const FormStep = reactive(function FormStep(env: Env) {
  const { store, t } = env;
  const inputs = useRef<Record<string, HTMLElement | null>>({});
  return (
    <StepFrame
      env={env}
      heading={t.formHeading}
      onSubmit={() => {
        const invalid = store.submitForm();
        if (invalid) inputs.current[invalid]?.focus();
      }}
      actions={
        <button type="submit" class="aw-b-btn">
          {t.next}
        </button>
      }
    >
      {/* Fixed ids: each widget has its own shadow root, and this form is drawn once in it. */}
      {store.config.value?.form_fields.map((field, i) => (
        <Field key={field.id} env={env} field={field} id={`aw-b-f${i}`} refs={inputs.current} />
      ))}
    </StepFrame>
  );
});

const Field = reactive(function Field({ env: { store, t }, field, id, refs }: { env: Env; field: FormField; id: string; refs: Record<string, HTMLElement | null> }) {
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
    ref: (el: HTMLElement | null) => {
      refs[name] = el;
    },
    onInput: (e: TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) => store.answer(name, e.currentTarget.value),
  };
  const type = purpose === 'email' || purpose === 'tel' ? purpose : INPUT_TYPES.includes(inputType) ? inputType : 'text';
  return (
    <div class="aw-b-field">
      <label for={id}>
        <bdi>{label}</bdi>
        {!required && <span class="aw-b-optional"> {t.optional}</span>}
      </label>
      {field.type === 'textarea' ? <textarea rows={3} {...props} /> : <input type={type} {...props} />}
      {error && (
        <p id={`${id}-error`} class="aw-b-error">
          {error === 'email' ? t.invalidEmail : fmt(t.required, { label })}
        </p>
      )}
    </div>
  );
});

/** The answers as label/value rows, in the config's field order. */
const answerRows = (fields: readonly FormField[], answers: Answers): Row[] =>
  filled(fields, answers).map(([field, v]) => [field.label || field.id, v]);

const ReviewStep = reactive(function ReviewStep(env: Env) {
  const { store, t, ctx } = env;
  const c = store.config.value;
  const day = store.date.value;
  const time = store.slot.value;
  const submitting = store.submitting.value;
  return c && day && time ? (
    <StepFrame
      env={env}
      heading={t.reviewHeading}
      onSubmit={store.create}
      actions={
        <button type="submit" class="aw-b-btn" disabled={submitting} aria-busy={submitting ? 'true' : undefined}>
          {submitting ? t.confirming : t.confirm}
        </button>
      }
    >
      <p class="aw-b-title" dir="auto">{c.booking_title}</p>
      <Facts
        rows={[
          ...whenRows(ctx, c.timezone, zonedToInstant(day, time, c.timezone)),
          [t.duration, durationOf(env)],
          ...answerRows(c.form_fields, store.answers.value),
        ]}
      />
    </StepFrame>
  ) : null;
});

const DoneStep = reactive(function DoneStep(env: Env) {
  const { store, t, ctx } = env;
  const b = store.booking.value;
  const c = store.config.value;
  const added = useMemo(() => {
    if (!b || !c) return null;
    const start = zonedToInstant(b.booking_date, b.start_time, b.timezone);
    const what = durationText(ctx.locale, b.duration_label, b.duration_minutes);
    const event = {
      uid: `${b.booking_code}@agent-widget`,
      title: ctx.title ? fmt(t.eventTitle, { what, who: ctx.title }) : what,
      details: fmt(t.icsDetails, { code: b.booking_code }),
      start,
      end: new Date(start.getTime() + b.duration_minutes * 60_000),
    };
    const ics = new Blob([icsText(event, ctx.now?.() ?? new Date())], { type: 'text/calendar;charset=utf-8' });
    return { google: googleCalendarUrl(event), ics: URL.createObjectURL(ics) };
  }, [b, c, t]);
  useEffect(() => () => added && URL.revokeObjectURL(added.ics), [added]);
  return b && c && added ? (
    <StepFrame
      env={env}
      heading={b.status === 'pending' ? t.pendingHeading : t.doneHeading}
      actions={
        <button type="button" class="aw-b-btn aw-b-quiet" onClick={store.again}>
          {t.bookAnother}
        </button>
      }
    >
      <p class="aw-b-title" dir="auto">{c.booking_title}</p>
      <Facts rows={[...bookingRows(env, b, <strong class="aw-b-code">{b.booking_code}</strong>), ...answerRows(c.form_fields, new Map(Object.entries(b.form_data)))]} />
      <p class="aw-b-add">
        <a class="aw-b-btn aw-b-quiet" href={added.google} target="_blank" rel="noopener noreferrer">
          {t.google}
          <span class="aw-sr"> {t.opensNewTab}</span>
        </a>
        <a class="aw-b-btn aw-b-quiet" href={added.ics} download={`${b.booking_code}.ics`}>
          {t.ics}
        </a>
      </p>
    </StepFrame>
  ) : null;
});

const STEPS: Record<StepName, FunctionComponent<Env>> = {
  loading: LoadingStep,
  duration: DurationStep,
  date: DateStep,
  time: TimeStep,
  form: FormStep,
  review: ReviewStep,
  done: DoneStep,
};
