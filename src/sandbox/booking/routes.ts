// The six public /booking/public endpoints (no key).
import { addDays, daysInMonth } from '../../core/time';
import type {
  BookingConfigResponse,
  BookingDatesResponse,
  BookingSlotsResponse,
  CancelBookingResponse,
  CreateBookingResponse,
  LookupBookingResponse,
} from '../../core/types';
import { isBookingCode, isHHMM, isIsoDate, isYearMonth, normalizeBookingCode } from '../../core/validate';
import { isRecordValue, queryFields, queryInteger, readJsonObject, requireString, type Fields } from '../input';
import { badRequest, ok } from '../responses';
import { publicRoute, type Route } from '../router';
import { slotsForDay } from './availability';
import {
  availabilityRules,
  bookableAgent,
  cancelBooking,
  cancellationRefusal,
  createBooking,
  durationByMinutes,
  findBooking,
  shortestDuration,
  validateFormData,
  withDisplay,
} from './engine';

const BASE = '/booking/public';

function requireFormat(fields: Fields, name: string, valid: (v: string) => boolean, expected: string): string {
  const value = requireString(fields, name);
  if (!valid(value)) throw badRequest(`${name} must be ${expected}.`);
  return value;
}

const requireDate = (fields: Fields): string => requireFormat(fields, 'date', isIsoDate, 'a real day as YYYY-MM-DD');

function requireCode(fields: Fields, name: string): string {
  const code = normalizeBookingCode(requireString(fields, name));
  if (!isBookingCode(code)) throw badRequest(`${name} must be a booking code like BK-A1B2C3.`);
  return code;
}

export const bookingRoutes: Route[] = [
  publicRoute('GET', `${BASE}/config`, async ({ url, state }) => {
    const agent = bookableAgent(state, requireString(queryFields(url), 'agentId'));
    return ok<Omit<BookingConfigResponse, 'success'>>({ config: structuredClone(agent.booking.config) });
  }),

  publicRoute('GET', `${BASE}/dates`, async ({ url, state, now }) => {
    const query = queryFields(url);
    const agent = bookableAgent(state, requireString(query, 'agentId'));
    const month = requireFormat(query, 'month', isYearMonth, 'YYYY-MM');
    const minutes = queryInteger(url, 'durationMinutes');
    const { config } = agent.booking;
    const duration = minutes === undefined ? shortestDuration(config) : durationByMinutes(config, minutes);
    const rules = availabilityRules(state, agent, now);
    const dates = Array.from({ length: daysInMonth(month) }, (_, i) => {
      const date = addDays(`${month}-01`, i);
      const slotCount = slotsForDay(rules, date, duration.duration_minutes).filter((s) => s.available).length;
      return slotCount > 0 ? { date, available: true, slotCount } : { date, available: false };
    });
    return ok<Omit<BookingDatesResponse, 'success'>>({ month, timezone: config.timezone, dates });
  }),

  publicRoute('GET', `${BASE}/slots`, async ({ url, state, now }) => {
    const query = queryFields(url);
    const agent = bookableAgent(state, requireString(query, 'agentId'));
    const date = requireDate(query);
    const minutes = queryInteger(url, 'durationMinutes');
    if (minutes === undefined) throw badRequest('durationMinutes is required.');
    const { config } = agent.booking;
    const duration = durationByMinutes(config, minutes);
    const slots = slotsForDay(availabilityRules(state, agent, now), date, minutes).map(({ time, available }) => ({
      time,
      available,
    }));
    return ok<Omit<BookingSlotsResponse, 'success'>>({
      date,
      timezone: config.timezone,
      duration: { ...duration },
      slots,
    });
  }),

  publicRoute('POST', `${BASE}/create`, async ({ request, state, now }) => {
    const body = await readJsonObject(request);
    const agent = bookableAgent(state, requireString(body, 'agentId'));
    const { config } = agent.booking;
    const conversationId = requireString(body, 'conversationId');
    const date = requireDate(body);
    const time = requireFormat(body, 'time', isHHMM, 'HH:MM (24-hour)');
    const durationOptionId = requireString(body, 'durationOptionId');
    const duration = config.duration_options.find((d) => d.id === durationOptionId);
    if (!duration) throw badRequest(`durationOptionId must be one of ${config.duration_options.map((d) => d.id).join(', ')}.`);
    const formData = body.formData;
    if (!isRecordValue(formData)) throw badRequest('formData is required (an object keyed by form field id).');
    const booking = createBooking(
      state,
      agent,
      { conversationId, date, time, duration, formData: validateFormData(config, formData) },
      now,
    );
    return ok<Omit<CreateBookingResponse, 'success'>>({ booking });
  }),

  publicRoute('GET', `${BASE}/lookup`, async ({ url, state, now }) => {
    const query = queryFields(url);
    const agent = bookableAgent(state, requireString(query, 'agentId'));
    const record = findBooking(state, agent.id, requireCode(query, 'code'));
    const { config } = agent.booking;
    const refusal = cancellationRefusal(config, record, now);
    const booking = withDisplay(config, record.booking);
    return ok<Omit<LookupBookingResponse, 'success'>>(
      refusal ? { booking, canCancel: false, cancelReason: refusal.reason } : { booking, canCancel: true },
    );
  }),

  publicRoute('POST', `${BASE}/cancel`, async ({ request, state, now }) => {
    const body = await readJsonObject(request);
    const agent = bookableAgent(state, requireString(body, 'agentId'));
    const record = findBooking(state, agent.id, requireCode(body, 'bookingCode'));
    return ok<Omit<CancelBookingResponse, 'success'>>({ message: cancelBooking(agent.booking.config, record, now) });
  }),
];
