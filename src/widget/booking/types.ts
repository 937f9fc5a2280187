// The contract between the widget shell (panel, stores, persistence, events) and the booking flow.
// The shell renders <BookingView> and <LookupView> with these props; the booking flow owns everything inside.
import type { ReadonlySignal } from '@preact/signals';
import type { BookingClient } from '../../core/booking-client';
import type { BookingStatus } from '../../core/types';
import type { BookingEventMap } from '../platform/events';
import type { ProgressMemory } from './state/progress';

/** A booking code the visitor made or looked up on this device, kept per agent. */
export interface RememberedBooking {
  code: string;
  /** Agent-zone date and time, for the picker's label. */
  date: string;
  time: string;
  title?: string;
  status: BookingStatus;
  /** The agent's IANA zone, so the picker can show the start on the visitor's clock. */
  timezone?: string;
}

/** Persistence of remembered codes, implemented by the shell over the visitor's chosen storage. */
export interface RememberedBookings {
  readonly list: ReadonlySignal<RememberedBooking[]>;
  remember(booking: RememberedBooking): void;
  setStatus(code: string, status: BookingStatus): void;
}

export type BookingEmit = <K extends keyof BookingEventMap>(type: K, payload: BookingEventMap[K]) => void;

export interface BookingContext {
  agentId: string;
  client: BookingClient;
  /** The service's base URL the client calls, for the owner's console lines. */
  apiBase: string;
  /** The business, as the widget's title names it (for the calendar event's title). */
  title?: string;
  /** BCP 47 locale for Intl formatting (dates, 12/24 hour). */
  locale: string;
  /** The visitor's IANA zone; defaults to Intl's resolved zone. */
  visitorTimeZone: string;
  /** The chat's conversation id, else a stable per-visitor generated id (the shell decides). */
  conversationId: () => string;
  remembered: RememberedBookings;
  /** Where a booking under way is kept across pages and reloads (./state/progress over the visitor's chosen storage). */
  progress: ProgressMemory;
  emit: BookingEmit;
  /** Values to prefill form fields, keyed by form field id (or by `name` / `email` matching the field's inputType). */
  prefill?: Record<string, string>;
  /** Extra fields for booking:created (UTM parameters), when the owner opted in. */
  utm?: Record<string, string>;
  /** The clock for "today" and calendar stamps: the shell's (its `now` option), which tests set. */
  now: () => Date;
}
