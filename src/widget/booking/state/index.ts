// The booking views' stores, created on first use (the views are drawn only when opened) and kept
// while the widget lives, so leaving a view and coming back keeps the visitor's progress.
import type { BookingContext } from '../types';
import { createBookingFlow, type BookingFlow, type Step } from './flow';
import { createLookupStore, type LookupStore } from './lookup';
import { createRequests } from './requests';

export type { BookingFlow, Step } from './flow';
export type { CalendarDay, Slot } from './availability';
export type { CancelRefusal, LookupResult, LookupStore } from './lookup';
export type { Failures, Problem } from './report';
export { nearest } from './flow';
export { openDay } from './availability';
export { readBookingCode } from './lookup';

export interface BookingStores {
  readonly context: BookingContext;
  flow(): BookingFlow;
  lookup(): LookupStore;
  /** A booking is under way: a duration chosen and not yet booked. */
  underWay(): boolean;
  /** Aborts every request in flight; nothing is written after it. */
  dispose(): void;
}

/** The steps of a booking begun and not made yet. */
const UNDER_WAY: readonly Step[] = ['date', 'time', 'form', 'review'];

export function createBookingStores(context: BookingContext): BookingStores {
  // The two stores' requests: dispose() ends them all.
  const requests = createRequests();
  let flow: BookingFlow | undefined;
  let lookup: LookupStore | undefined;
  return {
    context,
    flow() {
      flow ??= createBookingFlow(context, requests);
      return flow;
    },
    lookup() {
      lookup ??= createLookupStore(context, requests);
      return lookup;
    },
    underWay: () => flow !== undefined && UNDER_WAY.includes(flow.step.peek()),
    dispose: requests.dispose,
  };
}
