// The Book view: duration, day, time, details, review, confirmation. State and requests live in the store.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useMemo, useRef } from 'preact/hooks';
import { zonedToInstant } from '../../core/time';
import type { Booking, FormField } from '../../core/types';
import { fmt } from '../format';
import { googleCalendarUrl, icsText, type CalendarEvent } from './add-to-calendar';
import { Calendar } from './Calendar';
import { fieldPurpose } from './fields';
import { formatDate, formatInstant, MONTH, slotViews, zoneName, type SlotView } from './intl';
import { Facts, statusWord, Step, storeFor, useStepFocus, whenRows } from './parts';
import { createBookingStore, type BookingStore } from './store';
import type { BookingStrings } from './strings';
import type { BookingContext, BookingViewProps } from './types';

interface Env {
  store: BookingStore;
  t: BookingStrings;
  ctx: BookingContext;
}

const stores = new WeakMap<BookingContext, BookingStore>();

export function BookingView({ context, strings }: BookingViewProps) {
  const store = storeFor(stores, context, createBookingStore);
  const root = useRef<HTMLDivElement>(null);
  const step = store.step.value;
  useStepFocus(root, step);
  const env: Env = { store, t: strings, ctx: context };
  return (
    <div class="aw-b" ref={root}>
      {step === 'loading' ? (
        <StepFrame env={env} heading={strings.bookHeading}>
          {!store.problem.value && <p role="status">{strings.loading}</p>}
        </StepFrame>
      ) : step === 'duration' ? (
        <DurationStep {...env} />
      ) : step === 'date' ? (
        <DateStep {...env} />
      ) : step === 'time' ? (
        <TimeStep {...env} />
      ) : step === 'form' ? (
        <FormStep {...env} />
      ) : step === 'review' ? (
        <ReviewStep {...env} />
      ) : (
        <DoneStep {...env} />
      )}
    </div>
  );
}

type FrameProps = {
  env: Env;
  heading: string;
  onSubmit?: () => void;
  actions?: ComponentChildren;
  children?: ComponentChildren;
};

/** A Book step with the store's failure and Back wired in. */
function StepFrame({ env: { store, t }, ...rest }: FrameProps) {
  return (
    <Step
      t={t}
      problem={store.problem.value}
      notFound={t.unavailable}
      onBack={store.canGoBack.value ? store.back : undefined}
      {...rest}
    />
  );
}

function Intro({ store }: Env) {
  const c = store.config.value;
  return c ? (
    <div>
      <p class="aw-b-title">{c.booking_title}</p>
      {c.booking_description && <p>{c.booking_description}</p>}
    </div>
  ) : null;
}

function DurationStep(env: Env) {
  const { store, t } = env;
  return (
    <StepFrame env={env} heading={t.durationHeading}>
      <Intro {...env} />
      <ul class="aw-b-choices">
        {store.durations.value.map((option) => (
          <li key={option.id}>
            <button type="button" class="aw-b-choice" onClick={() => store.chooseDuration(option)}>
              {option.label}
            </button>
          </li>
        ))}
      </ul>
    </StepFrame>
  );
}

function DateStep(env: Env) {
  const { store, t, ctx } = env;
  const notice = store.notice.value;
  return (
    <StepFrame env={env} heading={t.dateHeading}>
      {store.durations.value.length === 1 ? <Intro {...env} /> : <p class="aw-b-sub">{store.duration.value?.label}</p>}
      <p role="status" class="aw-b-note">
        {notice === 'none'
          ? t.noneFree
          : notice
            ? fmt(t.jumped, { from: formatDate(ctx.locale, notice.from, MONTH), to: formatDate(ctx.locale, store.month.value, MONTH) })
            : ''}
      </p>
      <Calendar store={store} t={t} locale={ctx.locale} />
    </StepFrame>
  );
}

/** The visible text (time, and the day when it differs) comes first, so speech input can say what it sees. */
function slotName(t: BookingStrings, zone: string, view: SlotView): string {
  return fmt(t.slotName, { time: view.day ? `${view.label} ${view.day}` : view.label, zone });
}

function SlotButtons({ env: { store, t }, views, zone }: { env: Env; views: SlotView[]; zone: string }) {
  return (
    <ul class="aw-b-slots">
      {views.map((view) => (
        <li key={view.time}>
          <button type="button" class="aw-b-slot" aria-label={slotName(t, zone, view)} onClick={() => store.chooseSlot(view.time)}>
            {view.label}
            {view.day && <span class="aw-b-other-day"> {view.day}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}

function TimeStep(env: Env) {
  const { store, t, ctx } = env;
  const day = store.date.value ?? '';
  const agentZone = store.zone();
  const differs = ctx.visitorTimeZone !== agentZone;
  const shown = differs && !store.agentClock.value ? ctx.visitorTimeZone : agentZone;
  const other = shown === agentZone ? ctx.visitorTimeZone : agentZone;
  const shownName = zoneName(ctx.locale, shown);
  const slots = store.slots.value;
  const taken = store.taken.value;
  const views = slots && slotViews(ctx.locale, day, slots, agentZone, shown);
  return (
    <StepFrame env={env} heading={t.timeHeading}>
      <p class="aw-b-sub">{formatDate(ctx.locale, day)}</p>
      <p class="aw-b-zone">
        {fmt(t.timesIn, { zone: shownName })}
        {differs && (
          <>
            {' · '}
            <button type="button" class="aw-b-link" onClick={store.toggleClock}>
              {fmt(t.showIn, { zone: zoneName(ctx.locale, other) })}
            </button>
          </>
        )}
      </p>
      {taken && (
        <div role="alert" class="aw-b-taken">
          <p>{fmt(t.taken, { time: formatInstant(ctx.locale, shown, zonedToInstant(day, taken, agentZone)) })}</p>
          {slots && <SlotButtons env={env} views={slotViews(ctx.locale, day, store.nearest.value, agentZone, shown)} zone={shownName} />}
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
}

const INPUT_TYPES = ['text', 'email', 'tel', 'url', 'number'];

function FormStep(env: Env) {
  const { store, t } = env;
  const id = useId();
  const inputs = useRef<Record<string, HTMLElement | null>>({});
  const fields = store.config.value?.form_fields ?? [];
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
      {fields.map((field, i) => (
        <Field key={field.id} env={env} field={field} id={`${id}-${i}`} refs={inputs.current} />
      ))}
    </StepFrame>
  );
}

function Field({ env: { store, t }, field, id, refs }: { env: Env; field: FormField; id: string; refs: Record<string, HTMLElement | null> }) {
  const error = store.errors.value[field.id];
  const purpose = fieldPurpose(field);
  const props = {
    id,
    name: field.id,
    value: store.answers.value[field.id] ?? '',
    placeholder: field.placeholder || undefined,
    required: field.required,
    autocomplete: purpose ?? 'off',
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    ref: (el: HTMLElement | null) => {
      refs[field.id] = el;
    },
    onInput: (e: Event) => {
      if (e.currentTarget instanceof HTMLInputElement || e.currentTarget instanceof HTMLTextAreaElement)
        store.answer(field.id, e.currentTarget.value);
    },
  };
  const type = purpose === 'email' || purpose === 'tel' ? purpose : INPUT_TYPES.includes(field.inputType) ? field.inputType : 'text';
  return (
    <div class="aw-b-field">
      <label for={id}>
        {field.label}
        {!field.required && <span class="aw-b-optional"> {t.optional}</span>}
      </label>
      {field.type === 'textarea' ? <textarea rows={3} {...props} /> : <input type={type} {...props} />}
      {error && (
        <p id={`${id}-error`} class="aw-b-error">
          {error === 'email' ? t.invalidEmail : fmt(t.required, { label: field.label })}
        </p>
      )}
    </div>
  );
}

/** The answers as label/value rows, in the config's field order. */
function answerRows(fields: readonly FormField[], answers: Record<string, string>): [string, string][] {
  return fields.flatMap((f): [string, string][] => {
    const v = answers[f.id]?.trim();
    return v ? [[f.label, v]] : [];
  });
}

function ReviewStep(env: Env) {
  const { store, t, ctx } = env;
  const c = store.config.value;
  const day = store.date.value;
  const time = store.slot.value;
  const submitting = store.submitting.value;
  if (!c || !day || !time) return null;
  return (
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
      <p class="aw-b-title">{c.booking_title}</p>
      <Facts
        rows={[
          ...whenRows(ctx, c.timezone, zonedToInstant(day, time, c.timezone)),
          [t.duration, store.duration.value?.label ?? ''],
          ...answerRows(c.form_fields, store.answers.value),
        ]}
      />
    </StepFrame>
  );
}

function calendarEvent(t: BookingStrings, title: string, b: Booking): CalendarEvent {
  const start = zonedToInstant(b.booking_date, b.start_time, b.timezone);
  return {
    uid: `${b.booking_code}@agent-widget`,
    title,
    details: `${fmt(t.icsDetails, { code: b.booking_code })}\n${b.duration_label}`,
    start,
    end: new Date(start.getTime() + b.duration_minutes * 60_000),
  };
}

function DoneStep(env: Env) {
  const { store, t, ctx } = env;
  const b = store.booking.value;
  const c = store.config.value;
  const event = useMemo(() => (b && c ? calendarEvent(t, c.booking_title, b) : null), [b, c, t]);
  const icsUrl = useMemo(
    () => event && URL.createObjectURL(new Blob([icsText(event, ctx.now?.() ?? new Date())], { type: 'text/calendar;charset=utf-8' })),
    [event],
  );
  useEffect(() => () => {
    if (icsUrl) URL.revokeObjectURL(icsUrl);
  }, [icsUrl]);
  if (!b || !c || !event || !icsUrl) return null;
  return (
    <StepFrame
      env={env}
      heading={b.status === 'pending' ? t.pendingHeading : t.doneHeading}
      actions={
        <button type="button" class="aw-b-btn aw-b-quiet" onClick={store.again}>
          {t.bookAnother}
        </button>
      }
    >
      <p class="aw-b-title">{c.booking_title}</p>
      <Facts
        rows={[
          [t.code, <strong class="aw-b-code">{b.booking_code}</strong>],
          [t.status, statusWord(t, b.status)],
          ...whenRows(ctx, b.timezone, event.start),
          [t.duration, b.duration_label],
          ...answerRows(c.form_fields, b.form_data),
        ]}
      />
      <p class="aw-b-add">
        <a class="aw-b-btn aw-b-quiet" href={googleCalendarUrl(event)} target="_blank" rel="noopener noreferrer">
          {t.google}
        </a>
        <a class="aw-b-btn aw-b-quiet" href={icsUrl} download={`${b.booking_code}.ics`}>
          {t.ics}
        </a>
      </p>
    </StepFrame>
  );
}
