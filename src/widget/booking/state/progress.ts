// A booking under way, kept across the pages of the site and reloads: the duration, the day, the time,
// the step and every answer, in the storage the conversation uses (the owner's data-persist), under the
// same TTL and budget (../../platform/storage). Kept when the page is hidden, which a link followed, a
// reload or a closed tab does first, not on every keystroke; removed once the booking is made.
import { isRecord } from '../../../core/guards';
import { isIsoDate } from '../../../core/time';
import { isText, type Store } from '../../platform/storage';
import { listen } from '../../platform/listen';

/** The steps a booking under way is on; the review and the form come back only with their time. */
const STEPS = ['duration', 'date', 'time', 'form', 'review'] as const;
export type ProgressStep = (typeof STEPS)[number];

/** The longest answer kept: a form field's answer, not a document. */
export const MAX_KEPT_ANSWER_CHARS = 4_000;
/** The most answers kept: more fields than any booking form asks. */
const MAX_KEPT_ANSWERS = 50;
/** An id as long as this is no duration option's. */
const MAX_ID_CHARS = 200;
const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface BookingProgress {
  step: ProgressStep;
  /** The chosen duration option's id. */
  durationId: string;
  /** The chosen day, in the zone the calendar was shown in. */
  date?: string;
  /** The chosen time, as the API gave it (agent zone): on the form and review steps. */
  slot?: { date: string; time: string };
  /** Answers by form field id. */
  answers: Record<string, string>;
  /** Days and times were shown in the agent's zone. */
  inAgentZone: boolean;
}

export const isProgressStep = (value: unknown): value is ProgressStep => (STEPS as readonly unknown[]).includes(value);
const isDay = (value: unknown): value is string => isText(value) && isIsoDate(value);

/** At most MAX_KEPT_ANSWERS text answers, each cut to MAX_KEPT_ANSWER_CHARS; anything else is left out. */
export function boundedAnswers(entries: Iterable<[string, unknown]>): Record<string, string> {
  const kept = new Map<string, string>();
  for (const [id, answer] of entries) {
    if (kept.size >= MAX_KEPT_ANSWERS) break;
    if (id.length <= MAX_ID_CHARS && isText(answer)) kept.set(id, answer.slice(0, MAX_KEPT_ANSWER_CHARS));
  }
  // From a Map: an id such as `__proto__` is an own key of the result, as JSON writes it.
  return Object.fromEntries(kept);
}

/**
 * Stored data may be old, from another version, or edited by hand: what does not fit is dropped. A
 * step without what it needs is the step before it that has it (a form without its time is the time
 * step, a time step without its day the calendar).
 */
export function parseProgress(value: unknown): BookingProgress | undefined {
  if (!isRecord(value)) return undefined;
  const { step, durationId, date, slot, answers, inAgentZone } = value;
  if (!isProgressStep(step) || !isText(durationId) || !durationId || durationId.length > MAX_ID_CHARS) return undefined;
  const day = isDay(date) ? date : undefined;
  const time =
    isRecord(slot) && isDay(slot.date) && isText(slot.time) && CLOCK_TIME.test(slot.time)
      ? { date: slot.date, time: slot.time }
      : undefined;
  let kept: ProgressStep = step;
  if ((kept === 'form' || kept === 'review') && !time) kept = 'time';
  if (kept === 'time' && !day) kept = 'date';
  return {
    step: kept,
    durationId,
    ...(day && { date: day }),
    ...(time && (kept === 'form' || kept === 'review') && { slot: time }),
    answers: isRecord(answers) ? boundedAnswers(Object.entries(answers)) : {},
    inAgentZone: inAgentZone === true,
  };
}

export interface ProgressMemory {
  /** What the last page kept, checked; an entry that does not fit is removed. */
  read(): BookingProgress | undefined;
  /** Keeps `progress`; undefined (nothing under way) removes what this page kept or read. */
  keep(progress: BookingProgress | undefined): void;
  /** Removes the kept progress, whoever wrote it: the booking is made, or the owner's reset(). */
  clear(): void;
  /**
   * Runs `listener` each time the page's visibility changes (it is hidden first by a link followed, a
   * reload or a closed tab), as the chat keeps its typed text, until the returned function is called.
   */
  onVisibilityChange(listener: () => void): () => void;
}

export function createProgressMemory(store: Store, win: Window): ProgressMemory {
  /** Something is stored that a later keep() must update or remove; nothing else touches the storage. */
  let stored = false;
  return {
    read() {
      const raw = store.read('booking-progress');
      const progress = parseProgress(raw);
      if (raw !== undefined && !progress) store.remove('booking-progress');
      stored = progress !== undefined;
      return progress;
    },
    keep(progress) {
      if (progress) {
        // Over the budget or storage full: the last kept progress stays, older but the visitor's own.
        stored = store.write('booking-progress', progress) || stored;
      } else if (stored) {
        store.remove('booking-progress');
        stored = false;
      }
    },
    clear() {
      store.remove('booking-progress');
      stored = false;
    },
    onVisibilityChange: (listener) => listen(win.document, 'visibilitychange', listener),
  };
}
