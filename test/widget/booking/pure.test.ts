import ICAL from 'ical.js';
import { describe, expect, test } from 'vitest';
import type { Booking, FormField } from '../../../src/core/types';
import { DEMO_BOOKING_CONFIG } from '../../../src/sandbox';
import { googleCalendarUrl, icsText } from '../../../src/widget/booking/add-to-calendar';
import { fieldError, fieldPurpose, formData, prefilledAnswers } from '../../../src/widget/booking/fields';
import { readBookingCode } from '../../../src/widget/booking/state';
import { refusalOf } from '../../../src/widget/booking/state/lookup';

const event = {
  uid: 'BK-ABC123@agent-widget',
  title: 'Physio; knee, left\\right',
  details: 'Line one\nLine two',
  start: new Date('2026-11-23T14:00:00Z'),
  end: new Date('2026-11-23T14:30:00Z'),
};

describe('add to calendar', () => {
  test('the .ics escapes text, uses CRLF, and folds long lines at 75 octets', () => {
    const long = { ...event, details: 'ü'.repeat(100) };
    const text = icsText(long, new Date('2026-11-21T15:00:00Z'));
    const lines = text.split('\r\n');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(lines).toContain('SUMMARY:Physio\\; knee\\, left\\\\right');
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    for (const line of lines) expect(bytes(line)).toBeLessThanOrEqual(75);
    const description = text.slice(text.indexOf('DESCRIPTION:')).split('\r\nEND:VEVENT')[0] ?? '';
    expect(description.replace(/\r\n /g, '')).toBe(`DESCRIPTION:${'ü'.repeat(100)}`);
    expect(icsText(event, new Date(0))).toContain('DESCRIPTION:Line one\\nLine two\r\n');
  });

  test('a real iCalendar parser (ical.js) reads the event back: UTC times, title, uid, and no METHOD without an ORGANIZER', () => {
    const calendar = new ICAL.Component(ICAL.parse(icsText({ ...event, details: 'é'.repeat(80) }, new Date('2026-11-21T15:00:00Z'))));
    expect(calendar.getFirstPropertyValue('method')).toBeNull();
    const vevent = calendar.getFirstSubcomponent('vevent');
    if (!vevent) throw new Error('no VEVENT');
    const parsed = new ICAL.Event(vevent);
    expect(parsed.summary).toBe(event.title);
    expect(parsed.uid).toBe(event.uid);
    expect(parsed.description).toBe('é'.repeat(80));
    expect(parsed.startDate.toJSDate().toISOString()).toBe('2026-11-23T14:00:00.000Z');
    expect(parsed.endDate.toJSDate().toISOString()).toBe('2026-11-23T14:30:00.000Z');
    expect(parsed.startDate.zone.tzid).toBe('UTC');
  });

  test('the Google link carries the UTC start and end', () => {
    const url = new URL(googleCalendarUrl(event));
    expect(url.searchParams.get('dates')).toBe('20261123T140000Z/20261123T143000Z');
    expect(url.searchParams.get('text')).toBe(event.title);
    expect(url.searchParams.get('details')).toBe(event.details);
  });
});

test.each([
  ['bk-abc123', 'BK-ABC123'],
  ['  BK-ABC123  ', 'BK-ABC123'],
  ['bk abc 123', 'BK-ABC123'],
  ['BKABC123', 'BK-ABC123'],
  ['BK-ABC12', 'BK-ABC12'],
])('the code %j is read as %j', (typed, read) => {
  expect(readBookingCode(typed)).toBe(read);
});

const field = (id: string, inputType: string, required = true): FormField => ({
  id,
  type: 'input_field',
  label: id,
  required,
  inputType,
  placeholder: '',
});

describe('form fields', () => {
  test('purpose comes from inputType, else from the id', () => {
    expect(fieldPurpose(field('contact', 'email'))).toBe('email');
    expect(fieldPurpose(field('work_email', 'text'))).toBe('email');
    expect(fieldPurpose(field('full_name', 'text'))).toBe('name');
    expect(fieldPurpose(field('phone', 'text'))).toBe('tel');
    expect(fieldPurpose(field('company_name', 'text'))).toBeUndefined();
  });

  test('prefill by id wins over prefill by purpose', () => {
    const fields = [field('name', 'text'), field('contact', 'email'), field('notes', 'text', false)];
    expect(Object.fromEntries(prefilledAnswers(fields, { name: 'Ada', email: 'a@b.co', contact: 'c@d.co' }))).toEqual({
      name: 'Ada',
      contact: 'c@d.co',
      notes: '',
    });
  });

  test('required and email rules; empty optional answers are not sent', () => {
    const email = field('email', 'email', false);
    expect(fieldError(field('name', 'text'), '  ')).toBe('required');
    expect(fieldError(email, '')).toBeUndefined();
    expect(fieldError(email, 'a@b')).toBe('email');
    expect(fieldError(email, ' a@b.co ')).toBeUndefined();
    expect(
      formData(
        [field('name', 'text'), email],
        new Map([
          ['name', ' Ada '],
          ['email', ''],
        ]),
      ),
    ).toEqual({ name: 'Ada' });
    expect(formData([], new Map())).toEqual({});
  });

  test('field ids that name Object.prototype members are plain ids: no false "required", sent as own keys', () => {
    const fields = [field('__proto__', 'text'), field('constructor', 'text'), field('toString', 'text', false)];
    const answers = prefilledAnswers(fields, {});
    expect([...answers.values()]).toEqual(['', '', '']);
    expect(fields.map((f) => fieldError(f, answers.get(f.id) ?? ''))).toEqual(['required', 'required', undefined]);
    const sent = formData(
      fields,
      new Map([
        ['__proto__', 'a'],
        ['constructor', 'b'],
        ['toString', ''],
      ]),
    );
    expect(JSON.parse(JSON.stringify(sent))).toEqual(JSON.parse('{"__proto__":"a","constructor":"b"}'));
    expect(Object.keys(sent)).toEqual(['__proto__', 'constructor']);
  });
});

describe('why a booking cannot be cancelled', () => {
  const config = { ...DEMO_BOOKING_CONFIG, cancellation_notice_hours: 24 };
  /** Monday 23 November 2026, 09:00 in New York (14:00 UTC). */
  const booking: Booking = {
    id: 'b1',
    booking_code: 'BK-ABC123',
    booking_date: '2026-11-23',
    start_time: '09:00',
    end_time: '09:30',
    duration_minutes: 30,
    duration_label: '',
    timezone: 'America/New_York',
    status: 'confirmed',
    form_data: {},
  };
  test('the notice period begins cancellation_notice_hours before the start, as the service counts it', () => {
    expect(refusalOf(config, booking, new Date('2026-11-22T14:00:00Z'))).toBeUndefined();
    expect(refusalOf(config, booking, new Date('2026-11-22T14:00:01Z'))).toEqual({ kind: 'notice', hours: 24 });
    expect(refusalOf({ ...config, cancellation_notice_hours: 0 }, booking, new Date('2026-11-23T13:59:00Z'))).toBeUndefined();
  });

  test('cancelling online off is said before the notice; another status is left to the service', () => {
    expect(refusalOf({ ...config, allow_user_cancellation: false }, booking, new Date('2026-11-23T13:00:00Z'))).toEqual({
      kind: 'disabled',
    });
    expect(refusalOf(config, { ...booking, status: 'cancelled' }, new Date('2026-11-23T13:00:00Z'))).toBeUndefined();
  });
});
