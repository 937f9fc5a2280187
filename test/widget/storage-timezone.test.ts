// Remembered bookings keep the agent's zone across a reload, so "Your bookings" can show the start on
// the visitor's clock rather than the agent's wall-clock time.
import { afterEach, describe, expect, test } from 'vitest';
import type { RememberedBooking } from '../../src/widget/booking/types';
import { createRememberedBookings } from '../../src/widget/booking/state/remembered';
import { createStore, storageKey } from '../../src/widget/platform/storage';

const T0 = Date.UTC(2026, 10, 20, 12);
const env = { win: window, now: () => T0 };
const BOOKING: RememberedBooking = {
  code: 'BK-AAAAAA',
  date: '2026-11-24',
  time: '10:00',
  status: 'confirmed',
  title: 'Consultation',
  timezone: 'America/New_York',
};

afterEach(() => {
  localStorage.clear();
});

/** A fresh page load: a new store over the same storage. */
const reload = () => createRememberedBookings(createStore('local', 'a1', env)).list.value;

/** What another version (or a hand edit) left in storage. */
function stored(value: unknown[]): void {
  localStorage.setItem(storageKey('a1', 'bookings'), JSON.stringify({ at: T0, value }));
}

describe('remembered bookings and the agent timezone', () => {
  test('the timezone survives a reload with the rest of the booking', () => {
    createRememberedBookings(createStore('local', 'a1', env)).remember(BOOKING);
    expect(reload()).toEqual([BOOKING]);
  });

  test('a booking stored without a timezone still loads, without one', () => {
    const { timezone: _dropped, ...withoutZone } = BOOKING;
    stored([withoutZone]);
    expect(reload()).toEqual([withoutZone]);
    expect(reload()[0]).not.toHaveProperty('timezone');
  });

  test('a timezone that is not a string is dropped, the booking kept', () => {
    stored([
      { ...BOOKING, timezone: 42 },
      { ...BOOKING, code: 'BK-BBBBBB', timezone: null },
    ]);
    expect(reload()).toEqual([
      { code: 'BK-AAAAAA', date: '2026-11-24', time: '10:00', status: 'confirmed', title: 'Consultation' },
      { code: 'BK-BBBBBB', date: '2026-11-24', time: '10:00', status: 'confirmed', title: 'Consultation' },
    ]);
  });

  test('a second tab sees the timezone too', () => {
    const remembered = createRememberedBookings(createStore('local', 'a1', env));
    const newValue = JSON.stringify({ at: T0, value: [BOOKING] });
    window.dispatchEvent(new StorageEvent('storage', { key: storageKey('a1', 'bookings'), newValue, storageArea: localStorage }));
    expect(remembered.list.value[0]?.timezone).toBe('America/New_York');
  });

  test('malformed entries are still skipped', () => {
    stored([null, 'BK-CCCCCC', { ...BOOKING, code: 7 }, BOOKING]);
    expect(reload()).toEqual([BOOKING]);
  });
});
