import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { describe, expect, test } from 'vitest';
import {
  addDays,
  addMonths,
  daysAcross,
  daysInMonth,
  instantToZoned,
  isUnambiguousWallTime,
  weekday,
  zonedToInstant,
} from '../../src/core/time';
import { isEmail, isIsoDate } from '../../src/core/validate';

describe('wall clock <-> instant in the agent zone', () => {
  test('New York is UTC-5 in winter and UTC-4 in summer', () => {
    expect(zonedToInstant('2026-11-24', '10:00', 'America/New_York').toISOString()).toBe('2026-11-24T15:00:00.000Z');
    expect(zonedToInstant('2026-07-01', '10:00:00', 'America/New_York').toISOString()).toBe('2026-07-01T14:00:00.000Z');
    expect(instantToZoned(new Date('2026-11-24T15:00:00Z'), 'Asia/Tokyo')).toEqual({ date: '2026-11-25', time: '00:00' });
  });

  test('a spring-forward gap time does not exist; a fall-back time is ambiguous', () => {
    expect(isUnambiguousWallTime('2026-03-08', '02:30', 'America/New_York')).toBe(false);
    expect(isUnambiguousWallTime('2026-11-01', '01:30', 'America/New_York')).toBe(false);
    expect(isUnambiguousWallTime('2026-11-01', '09:00', 'America/New_York')).toBe(true);
    expect(isUnambiguousWallTime('2026-03-08', '03:00', 'America/New_York')).toBe(true);
  });

  test('a gap time reads with the offset before the gap; an ambiguous time is the earlier instant', () => {
    expect(zonedToInstant('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(zonedToInstant('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  // date-fns-tz is the oracle: the Intl implementation must agree with it on every unambiguous wall
  // time and every instant, around real transitions, in zones with odd offsets and half-hour DST.
  const zones = [
    'America/New_York',
    'Europe/Berlin',
    'Europe/London',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'Pacific/Chatham',
    'America/Santiago',
    'Asia/Tokyo',
    'UTC',
  ];
  test.each(zones)('agrees with date-fns-tz in %s across a year, every 4 hours and 1 minute', (zone) => {
    const start = Date.UTC(2026, 0, 1);
    const stepMs = 241 * 60_000;
    let checked = 0;
    for (let t = start; t < start + 366 * 86_400_000; t += stepMs) {
      const instant = new Date(t);
      const wall = instantToZoned(instant, zone);
      expect(`${wall.date} ${wall.time}`).toBe(formatInTimeZone(instant, zone, 'yyyy-MM-dd HH:mm'));
      if (isUnambiguousWallTime(wall.date, wall.time, zone)) {
        const back = zonedToInstant(wall.date, wall.time, zone).getTime();
        expect(back).toBe(fromZonedTime(`${wall.date}T${wall.time}:00`, zone).getTime());
        expect(back).toBe(t - (t % 60_000));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  test('calendar arithmetic does not depend on any zone', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(daysInMonth('2028-02')).toBe(29);
    expect(weekday('2026-11-24')).toBe(2);
  });

  test('date and email formats', () => {
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isEmail('ada@example.com')).toBe(true);
    expect(isEmail('ada@example')).toBe(false);
    expect(isEmail('ada example@x.com')).toBe(false);
  });
});

describe("a day of one zone across another's days", () => {
  test("Auckland's Tuesday is the afternoon of Monday and the morning of Tuesday in Berlin", () => {
    expect(daysAcross('2026-11-24', 'Pacific/Auckland', 'Europe/Berlin')).toEqual({ days: ['2026-11-23', '2026-11-24'], exact: false });
    expect(daysAcross('2026-11-24', 'America/Los_Angeles', 'Europe/Berlin')).toEqual({ days: ['2026-11-24', '2026-11-25'], exact: false });
  });

  test('the same day in zones whose midnights agree is exactly one day, in winter and in summer', () => {
    expect(daysAcross('2026-11-24', 'Europe/Paris', 'Europe/Berlin')).toEqual({ days: ['2026-11-24'], exact: true });
    expect(daysAcross('2026-07-01', 'America/New_York', 'America/Toronto')).toEqual({ days: ['2026-07-01'], exact: true });
  });

  test("days of 23 and 25 hours: the visitor's own, and one the other zone changes in", () => {
    // Los Angeles falls back on 1 November (25 hours: 07:00Z to 08:00Z next day), Berlin is already on winter time.
    expect(daysAcross('2026-11-01', 'America/Los_Angeles', 'Europe/Berlin')).toEqual({ days: ['2026-11-01', '2026-11-02'], exact: false });
    // Berlin springs forward on 29 March: London's 29 March runs from 01:00 to 02:00 the next day in Berlin.
    expect(daysAcross('2026-03-29', 'Europe/London', 'Europe/Berlin')).toEqual({ days: ['2026-03-29', '2026-03-30'], exact: false });
    // New York's 23-hour 8 March lies within Bogotá's (which keeps UTC-5) but is not all of it.
    expect(daysAcross('2026-03-08', 'America/New_York', 'America/Bogota')).toEqual({ days: ['2026-03-08'], exact: false });
  });
});
