// The booking views' stores, created on first use (the views are drawn only when opened) and kept
// while the widget lives, so leaving a view and coming back keeps the visitor's progress; a booking
// under way is kept for the next page too (./progress).
import type { BookingContext } from '../types';
import { createBookingFlow, type BookingFlow } from './flow';
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
  /** A booking is under way: a duration chosen and not yet booked, or the last page's coming back. */
  underWay(): boolean;
  /** The owner's reset(): a booking under way is forgotten, here and in storage. */
  reset(): void;
  /** Keeps a booking under way for the next page, then aborts every request in flight; nothing is written after it. */
  dispose(): void;
}

export function createBookingStores(context: BookingContext): BookingStores {
  // The two stores' requests: dispose() ends them all.
  const requests = createRequests();
  let flow: BookingFlow | undefined;
  let lookup: LookupStore | undefined;
  // Only a flow that was made has progress to keep: a page that never showed Book leaves the stored one as it is.
  const keep = () => {
    if (flow) context.progress.keep(flow.progress());
  };
  const stopKeeping = context.progress.onVisibilityChange(keep);
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
    underWay: () => flow?.underWay() ?? false,
    reset() {
      if (flow) flow.forget();
      else context.progress.clear();
    },
    dispose() {
      // A remount (an app changing routes) keeps it too.
      keep();
      stopKeeping();
      requests.dispose();
    },
  };
}
