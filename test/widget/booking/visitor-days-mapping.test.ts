// The month's days in the visitor's zone, found from the agent days' slots, against a fixed service: a New
// York agent whose days and times are written out here, and visitors far away, half an hour off, in the
// same zone, and across summer-time switches. Each count below is worked out by hand in its comment.
import { signal } from '@preact/signals';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import type { BookingClient } from '../../../src/core/booking-client';
import type { BookingConfig, DurationOption } from '../../../src/core/types';
import { ApiError } from '../../../src/core/http';
import { DEMO_BOOKING_CONFIG } from '../../../src/sandbox';
import {
  CHECKS_AT_ONCE,
  createAvailability,
  MAX_DAY_CHECKS,
  type AgentRange,
  type CalendarDay,
} from '../../../src/widget/booking/state/availability';
import { createRequests } from '../../../src/widget/booking/state/requests';
import { makeContext } from './helpers';

const AGENT = 'America/New_York';
const THIRTY: DurationOption = { id: 'consult-30', label: '30 min consultation', duration_minutes: 30 };

/** HH:MM every 30 minutes from `from` up to and including `to`. */
function halfHours(from: string, to: string): string[] {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  const times: string[] = [];
  for (let m = minutes(from); m <= minutes(to); m += 30)
    times.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  return times;
}

/** Monday to Friday, 09:00 to 16:30 in New York: 16 times a day. */
const weekdays = (day: string): string[] => {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6 ? [] : halfHours('09:00', '16:30');
};

/** Every half hour of every day, as a service lists a wall clock: 2:00 and 2:30 on 8 March do not exist in New York. */
const allDay = (day: string): string[] => halfHours('00:00', '23:30').filter((time) => day !== '2026-03-08' || !time.startsWith('02:'));

interface FakeService {
  client: BookingClient;
  /** The agent days whose slots were asked for, in order. */
  asked: string[];
  /** The most slots requests that were on their way at once. */
  mostAtOnce: number;
  /** Slots requests aborted before their answer. */
  aborted: string[];
  /** Lets the held slots answers go (with `hold`). */
  release(): void;
}

/**
 * The service of an agent in New York whose open times are `timesOf(day)`; `hold` keeps slots answers until
 * release(); `failOn` answers that day's first slots request with a 500; `busyOn` answers that day's first slots request
 * with a 429 that asks to wait 30 s.
 */
function fakeService(timesOf: (day: string) => string[], options: { hold?: boolean; failOn?: string; busyOn?: string } = {}): FakeService {
  let busy = options.busyOn;
  let failing = options.failOn;
  const held: (() => void)[] = [];
  let releasing = !options.hold;
  let atOnce = 0;
  const service: FakeService = {
    asked: [],
    mostAtOnce: 0,
    aborted: [],
    release() {
      releasing = true;
      for (const go of held.splice(0)) go();
    },
    client: {
      config: () => Promise.reject(new Error('not used')),
      create: () => Promise.reject(new Error('not used')),
      lookup: () => Promise.reject(new Error('not used')),
      cancel: () => Promise.reject(new Error('not used')),
      async dates({ month }) {
        const count = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).getUTCDate();
        const dates = Array.from({ length: count }, (_, i) => {
          const date = `${month}-${String(i + 1).padStart(2, '0')}`;
          const times = timesOf(date).length;
          return times ? { date, available: true, slotCount: times } : { date, available: false };
        });
        return { success: true, month, timezone: AGENT, dates };
      },
      slots({ date }, call) {
        service.asked.push(date);
        atOnce++;
        service.mostAtOnce = Math.max(service.mostAtOnce, atOnce);
        return new Promise((resolve, reject) => {
          const answer = () => {
            atOnce--;
            if (call?.signal?.aborted) return;
            if (date === failing) {
              failing = undefined;
              reject(new ApiError('Server error', { kind: 'http', status: 500 }));
            } else if (date === busy) {
              busy = undefined;
              reject(new ApiError('Too many requests', { kind: 'http', status: 429, retryAfter: 30 }));
            } else
              resolve({
                success: true,
                date,
                timezone: AGENT,
                duration: THIRTY,
                slots: timesOf(date).map((time) => ({ time, available: true })),
              });
          };
          call?.signal?.addEventListener('abort', () => {
            service.aborted.push(date);
            reject(new ApiError('The request was cancelled.', { kind: 'aborted' }));
          });
          if (releasing) queueMicrotask(answer);
          else held.push(answer);
        });
      },
    },
  };
  return service;
}

/** The agent's bookable range: from `today` (New York, at midnight there) to `last`. */
function rangeFrom(today: string, last: string): AgentRange {
  const midnight = new Date(`${today}T05:00:00Z`);
  return { now: midnight, today, last };
}

function availabilityFor(visitorTimeZone: string, service: FakeService, range: AgentRange) {
  const { ctx, events } = makeContext('https://fixed.test', { client: service.client, visitorTimeZone });
  const config = signal<BookingConfig | null>({ ...DEMO_BOOKING_CONFIG, timezone: AGENT });
  const requests = createRequests();
  const availability = createAvailability({ ctx, requests, config, duration: signal(THIRTY), range: signal(range) });
  return { availability, events, requests };
}

/** Each day of the list with times, and how many (undefined: not counted). */
const offered = (list: CalendarDay[] | undefined) =>
  Object.fromEntries((list ?? []).filter((day) => day.available).map((day) => [day.date.slice(5), day.slotCount]));

/** The days of a list the visitor may pick, by weekday name. */
const weekdayOf = (date: string) => ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(`${date}T12:00:00Z`).getUTCDay()];

describe('a New York agent open 09:00 to 16:30 on weekdays, November 2026', () => {
  const november = rangeFrom('2026-11-02', '2026-12-31');

  test('Auckland (+13, 18 hours ahead): each New York day is the next Auckland day, so Sundays and Mondays have no times', async () => {
    const service = fakeService(weekdays);
    const { availability } = availabilityFor('Pacific/Auckland', service, november);
    const list = await availability.checkMonth('2026-11', new AbortController().signal);
    const days = offered(list);
    // New York's 09:00 to 16:30 is 03:00 to 10:30 the next day in Auckland.
    expect(new Set(Object.keys(days).map((day) => weekdayOf(`2026-${day}`)))).toEqual(new Set(['Tue', 'Wed', 'Thu', 'Fri', 'Sat']));
    expect(Object.keys(days)).toHaveLength(20);
    expect(new Set(Object.values(days))).toEqual(new Set([16]));
    expect(list?.find((day) => day.date === '2026-11-23')).toEqual({ date: '2026-11-23', available: false, slotCount: 0 });
    // One request per open New York day the month overlaps: 2 to 30 November, weekdays.
    expect(service.asked).toHaveLength(21);
    expect(new Set(service.asked).size).toBe(21);
    expect(service.mostAtOnce).toBeLessThanOrEqual(CHECKS_AT_ONCE);
  });

  test('December in Auckland: no Monday is offered, and the months share the day they overlap', async () => {
    const service = fakeService(weekdays);
    const { availability } = availabilityFor('Pacific/Auckland', service, november);
    await availability.checkMonth('2026-11', new AbortController().signal);
    const list = await availability.checkMonth('2026-12', new AbortController().signal);
    const mondays = (list ?? []).filter((day) => weekdayOf(day.date) === 'Mon');
    expect(mondays.map((day) => day.available)).toEqual([false, false, false, false]);
    // Tuesday 1 December is New York's Monday 30 November, already fetched for November.
    expect(offered(list)['12-01']).toBe(16);
    expect(service.asked.filter((day) => day === '2026-11-30')).toHaveLength(1);
  });

  test.each([
    // 18:00 to 01:30 in Dubai: 09:00 to 14:30 (12 times) on the day, 15:00 to 16:30 (4) after midnight.
    ['Dubai (+4)', 'Asia/Dubai', { Mon: 12, Tue: 16, Sat: 4, Sun: undefined }],
    // 23:00 to 06:30 in Tokyo: 2 times on the day, 14 after midnight.
    ['Tokyo (+9)', 'Asia/Tokyo', { Mon: 2, Tue: 16, Sat: 14, Sun: undefined }],
    // 19:30 to 03:00 in Kolkata: 09:00 to 13:00 (9 times) on the day, 13:30 to 16:30 (7) after midnight.
    ['Kolkata (+5:30)', 'Asia/Kolkata', { Mon: 9, Tue: 16, Sat: 7, Sun: undefined }],
    // 00:30 to 08:00 the next day in Adelaide (+10:30 on summer time).
    ['Adelaide (+10:30)', 'Australia/Adelaide', { Mon: undefined, Tue: 16, Sat: 16, Sun: undefined }],
  ])('%s: each day holds the times that fall on it', async (_, zone, expected) => {
    const service = fakeService(weekdays);
    const { availability } = availabilityFor(zone, service, november);
    const days = offered(await availability.checkMonth('2026-11', new AbortController().signal));
    // The week of Monday 16 November, in the visitor's zone.
    const week = { Mon: days['11-16'], Tue: days['11-17'], Sat: days['11-21'], Sun: days['11-22'] };
    expect(week).toEqual(expected);
  });

  test('in the agent zone each day is the agent day: counted from the dates, with no slots request', async () => {
    const service = fakeService(weekdays);
    const { availability } = availabilityFor(AGENT, service, november);
    const days = offered(await availability.checkMonth('2026-11', new AbortController().signal));
    expect(days['11-16']).toBe(16);
    expect(days['11-21']).toBeUndefined();
    expect(Object.keys(days)).toHaveLength(21);
    expect(service.asked).toEqual([]);
  });

  test('a zone whose offset agrees all month (Toronto) sends no slots request either', async () => {
    const service = fakeService(weekdays);
    const { availability } = availabilityFor('America/Toronto', service, november);
    expect(Object.keys(offered(await availability.checkMonth('2026-11', new AbortController().signal)))).toHaveLength(21);
    expect(service.asked).toEqual([]);
  });
});

describe('while the check runs', () => {
  test('days not known yet are checking, not offered; each is known as its answer comes; another month stops the check', async () => {
    const service = fakeService(weekdays, { hold: true });
    const { availability } = availabilityFor('Pacific/Auckland', service, rangeFrom('2026-11-02', '2026-12-31'));
    const stop = new AbortController();
    const checked = availability.checkMonth('2026-11', stop.signal);
    await expect.poll(() => service.asked.length).toBe(CHECKS_AT_ONCE);
    const list = availability.daysOfMonth('2026-11') ?? [];
    expect(list.find((day) => day.date === '2026-11-03')).toEqual({ date: '2026-11-03', available: false, checking: true });
    // A day no open New York day overlaps (Sunday 8: Saturday and Sunday there) is known at once.
    expect(list.find((day) => day.date === '2026-11-08')).toEqual({ date: '2026-11-08', available: false, slotCount: 0 });
    expect(list.some((day) => day.available)).toBe(false);

    stop.abort();
    await checked;
    // The four on their way were aborted, and no other was asked for.
    expect(service.aborted).toHaveLength(CHECKS_AT_ONCE);
    expect(service.asked).toHaveLength(CHECKS_AT_ONCE);
    // Every day but the four Sundays overlaps an open New York day: unknown until the month is checked again.
    expect(availability.daysOfMonth('2026-11')?.filter((day) => day.checking)).toHaveLength(25);
  });

  test('a failed slots request: the rest is not asked for, the unknown days are offered without a count, the failure is reported once, and the month shown again asks again', async () => {
    const service = fakeService(weekdays, { failOn: '2026-11-02' });
    const { availability, events } = availabilityFor('Pacific/Auckland', service, rangeFrom('2026-11-02', '2026-12-31'));
    const list = await availability.checkMonth('2026-11', new AbortController().signal);
    // The first four were on their way together; the failure stopped the rest.
    expect(service.asked).toHaveLength(CHECKS_AT_ONCE);
    expect(list?.find((day) => day.date === '2026-11-03')).toEqual({ date: '2026-11-03', available: true });
    expect(list?.find((day) => day.date === '2026-11-04')).toEqual({ date: '2026-11-04', available: true, slotCount: 16 });
    expect(list?.some((day) => day.checking)).toBe(false);
    expect(events.filter((event) => event.type === 'error')).toEqual([
      { type: 'error', payload: expect.objectContaining({ scope: 'booking', request: 'slots', status: 500 }) },
    ]);

    const again = await availability.checkMonth('2026-11', new AbortController().signal);
    expect(again?.find((day) => day.date === '2026-11-03')).toEqual({ date: '2026-11-03', available: true, slotCount: 16 });
    expect(Object.keys(offered(again))).toHaveLength(20);
    // The three answered the first time are not asked for again.
    expect(service.asked).toHaveLength(21 + 1);
  });
});

describe('a busy service (429)', () => {
  test('the check waits until the reset, its days still checking, then asks again and counts every day; nothing is reported', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const service = fakeService(weekdays, { busyOn: '2026-11-03' });
    const { availability, events } = availabilityFor('Pacific/Auckland', service, rangeFrom('2026-11-02', '2026-12-31'));
    let list: CalendarDay[] | undefined;
    void availability.checkMonth('2026-11', new AbortController().signal).then((checked) => (list = checked));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(list).toBeUndefined();
    expect(availability.daysOfMonth('2026-11')?.find((day) => day.date === '2026-11-04')?.checking).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(list).toBeDefined());
    expect(Object.keys(offered(list))).toHaveLength(20);
    expect(list?.some((day) => day.checking || (day.available && day.slotCount === undefined))).toBe(false);
    expect(service.asked.filter((day) => day === '2026-11-03')).toHaveLength(2);
    expect(events).toEqual([]);
  });
});

describe('the budget of checks', () => {
  test('months checked one after another stop asking at MAX_DAY_CHECKS; the days left are offered as the dates tell', async () => {
    const service = fakeService(allDay);
    const { availability } = availabilityFor('Europe/Berlin', service, rangeFrom('2026-01-01', '2026-12-31'));
    let list: CalendarDay[] | undefined;
    for (const month of ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'])
      list = await availability.checkMonth(month, new AbortController().signal);
    expect(service.asked).toHaveLength(MAX_DAY_CHECKS);
    expect(new Set(service.asked).size).toBe(MAX_DAY_CHECKS);
    // January to May overlap 1 January to 31 May in New York (151 days); 9 more of June's are asked for.
    expect(offered(list)['06-05']).toBe(48);
    expect(list?.find((day) => day.date === '2026-06-20')).toEqual({ date: '2026-06-20', available: true });
    expect(list?.some((day) => day.checking)).toBe(false);
  });
});

describe('summer-time switches, every half hour open', () => {
  test("New York's 25-hour 1 November, seen from Berlin: the times of each Berlin day, and none twice", async () => {
    const service = fakeService(allDay);
    const { availability } = availabilityFor('Europe/Berlin', service, rangeFrom('2026-10-01', '2026-12-31'));
    const days = offered(await availability.checkMonth('2026-11', new AbortController().signal));
    // Berlin's 1 November is 19:00 to 24:00 on 31 October in New York (10 times), then 00:00 to 18:00 on
    // 1 November, which the fall back stretches to 19 hours: its wall clock lists 00:00 to 17:30 once (36).
    expect(days['11-01']).toBe(46);
    // Berlin's 2 November: 18:00 to 24:00 on 1 November (12), 00:00 to 18:00 on 2 November (36).
    expect(days['11-02']).toBe(48);
    expect(
      availability
        .slotsOn('2026-11-01')
        ?.map((slot) => `${slot.date} ${slot.time}`)
        .slice(9, 12),
    ).toEqual(['2026-10-31 23:30', '2026-11-01 00:00', '2026-11-01 00:30']);
  });

  test("Berlin's 25-hour 25 October holds 50 half hours, its 23-hour 29 March 46", async () => {
    const autumn = fakeService(allDay);
    const berlinInOctober = availabilityFor('Europe/Berlin', autumn, rangeFrom('2026-10-01', '2026-12-31')).availability;
    expect(offered(await berlinInOctober.checkMonth('2026-10', new AbortController().signal))['10-25']).toBe(50);

    const spring = fakeService(allDay);
    const berlinInMarch = availabilityFor('Europe/Berlin', spring, rangeFrom('2026-03-01', '2026-04-30')).availability;
    const march = offered(await berlinInMarch.checkMonth('2026-03', new AbortController().signal));
    expect(march['03-29']).toBe(46);
    // New York's 8 March lists no 2:00 or 2:30 (they do not exist): Berlin's 8 March (18:00 on the 7th to
    // 19:00 on the 8th there, New York on standard time until 02:00) holds 12 + 36 times.
    expect(march['03-08']).toBe(48);
  });
});
