// The booking codes the visitor made or looked up on this device, per agent, in the visitor's storage
// (../../platform/storage): what My booking lists.
import { signal } from '@preact/signals';
import { recordsIn } from '../../../core/guards';
import { isTimeZone } from '../../../core/time';
import type { BookingStatus } from '../../../core/types';
import { isIsoDate } from '../../../core/time';
import { isText, type Store } from '../../platform/storage';
import type { RememberedBooking, RememberedBookings } from '../types';

/** The most codes kept: the newest. */
export const MAX_BOOKINGS = 20;

/** Stored data may be old or edited: only entries with the required fields come back, each field checked. */
const parseBookings = (value: unknown): RememberedBooking[] =>
  recordsIn(value)
    .flatMap(({ code, date, time, status, title, timezone }): RememberedBooking[] => {
      // What the My booking list formats must be a real day, a time and a zone this browser knows.
      return isText(code) && isText(date) && isIsoDate(date) && isText(time) && /^\d\d:\d\d$/.test(time) && isText(status)
        ? [{ code, date, time, status, ...(isText(title) && { title }), ...(isText(timezone) && isTimeZone(timezone) && { timezone }) }]
        : [];
    })
    .slice(0, MAX_BOOKINGS);

export interface RememberedBookingsStore extends RememberedBookings {
  clear(): void;
  dispose(): void;
}

/** Booking codes the visitor made or looked up here, newest first, kept in the chosen storage. */
export function createRememberedBookings(store: Store): RememberedBookingsStore {
  const list = signal(parseBookings(store.read('bookings')));
  const save = (next: RememberedBooking[]) => {
    list.value = next;
    store.write('bookings', next);
  };
  const stop = store.watch('bookings', (value) => {
    list.value = parseBookings(value);
  });
  return {
    list,
    remember(booking) {
      save([booking, ...list.value.filter((b) => b.code !== booking.code)].slice(0, MAX_BOOKINGS));
    },
    setStatus(code: string, status: BookingStatus) {
      if (list.value.some((b) => b.code === code)) save(list.value.map((b) => (b.code === code ? { ...b, status } : b)));
    },
    clear() {
      list.value = [];
      store.remove('bookings');
    },
    dispose: stop,
  };
}
