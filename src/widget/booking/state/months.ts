// The calendar's months: each month's dates per duration, fetched once and shared by whoever asks
// (the month shown, the prefetch of the next, the search for a first free day). A fetch belongs to
// the cache, not to the caller that started it: a caller that stops waiting does not abort it for
// the others; dispose() aborts them all.
import { signal, type ReadonlySignal } from '@preact/signals-core';
import type { BookingClient } from '../../../core/booking-client';
import type { BookingDate } from '../../../core/types';
import { createRequests } from './requests';

export interface MonthCache {
  /** Dates by monthKey(minutes, month); undefined until fetched, or after drop(). */
  readonly dates: ReadonlySignal<Record<string, BookingDate[] | undefined>>;
  /** A month's dates: from the cache, from the fetch already on its way, or fetched now. */
  get(minutes: number, month: string): Promise<BookingDate[]>;
  /** Forgets a month, e.g. after a slot in it was taken. */
  drop(minutes: number, month: string): void;
  clear(): void;
  dispose(): void;
}

export const monthKey = (minutes: number, month: string): string => `${minutes}/${month}`;

export function createMonthCache(client: BookingClient, agentId: string): MonthCache {
  const dates = signal<Record<string, BookingDate[] | undefined>>({});
  const inflight = new Map<string, Promise<BookingDate[]>>();
  const requests = createRequests();
  const set = (key: string, value: BookingDate[] | undefined) => {
    dates.value = { ...dates.peek(), [key]: value };
  };

  return {
    dates,
    get(minutes, month) {
      const key = monthKey(minutes, month);
      const cached = dates.peek()[key];
      if (cached) return Promise.resolve(cached);
      let pending = inflight.get(key);
      if (!pending) {
        pending = client
          .dates({ agentId, month, durationMinutes: minutes }, { signal: requests.signal })
          .then((res) => {
            set(key, res.dates);
            return res.dates;
          })
          .finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      return pending;
    },
    drop: (minutes, month) => set(monthKey(minutes, month), undefined),
    clear() {
      dates.value = {};
    },
    dispose: requests.dispose,
  };
}
