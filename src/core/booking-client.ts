// The public booking client: the six /booking/public endpoints, no key, inputs checked before
// any request so a bad argument is named instead of answered with a vague 400, and every answer
// checked against the spec's shape (an `invalid_response` ApiError when it does not fit).
import { createHttp, type Http, type HttpOptions } from './http';
import {
  bookingConfigResponse,
  bookingDatesResponse,
  bookingSlotsResponse,
  cancelBookingResponse,
  createBookingResponse,
  lookupBookingResponse,
} from './shapes/booking';
import type {
  BookingConfigResponse,
  BookingDatesQuery,
  BookingDatesResponse,
  BookingSlotsQuery,
  BookingSlotsResponse,
  CancelBookingRequest,
  CancelBookingResponse,
  CreateBookingRequest,
  CreateBookingResponse,
  LookupBookingQuery,
  LookupBookingResponse,
} from './types';
import { check, isBookingCode, isHHMM, isIsoDate, isYearMonth, normalizeBookingCode, requireId } from './validate';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface BookingClient {
  config(agentId: string, options?: CallOptions): Promise<BookingConfigResponse>;
  dates(query: BookingDatesQuery, options?: CallOptions): Promise<BookingDatesResponse>;
  slots(query: BookingSlotsQuery, options?: CallOptions): Promise<BookingSlotsResponse>;
  create(request: CreateBookingRequest, options?: CallOptions): Promise<CreateBookingResponse>;
  lookup(query: LookupBookingQuery, options?: CallOptions): Promise<LookupBookingResponse>;
  cancel(request: CancelBookingRequest, options?: CallOptions): Promise<CancelBookingResponse>;
}

const isPositiveInteger = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;

export function createBookingClient(options: HttpOptions): BookingClient {
  const http: Http = createHttp(options);
  const base = '/booking/public';

  return {
    config(agentId, call) {
      requireId(agentId, 'agentId');
      return http(`${base}/config`, bookingConfigResponse, { query: { agentId }, signal: call?.signal });
    },
    dates(q, call) {
      requireId(q.agentId, 'agentId');
      check(typeof q.month === 'string' && isYearMonth(q.month), 'month', 'expected YYYY-MM.');
      if (q.durationMinutes !== undefined)
        check(isPositiveInteger(q.durationMinutes), 'durationMinutes', 'expected a positive whole number.');
      return http(`${base}/dates`, bookingDatesResponse, {
        query: { agentId: q.agentId, month: q.month, durationMinutes: q.durationMinutes },
        signal: call?.signal,
      });
    },
    slots(q, call) {
      requireId(q.agentId, 'agentId');
      check(typeof q.date === 'string' && isIsoDate(q.date), 'date', 'expected a real day as YYYY-MM-DD.');
      check(isPositiveInteger(q.durationMinutes), 'durationMinutes', 'expected a positive whole number.');
      return http(`${base}/slots`, bookingSlotsResponse, {
        query: { agentId: q.agentId, date: q.date, durationMinutes: q.durationMinutes },
        signal: call?.signal,
      });
    },
    create(req, call) {
      requireId(req.agentId, 'agentId');
      requireId(req.conversationId, 'conversationId');
      check(typeof req.date === 'string' && isIsoDate(req.date), 'date', 'expected a real day as YYYY-MM-DD.');
      check(typeof req.time === 'string' && isHHMM(req.time), 'time', 'expected HH:MM (24-hour).');
      requireId(req.durationOptionId, 'durationOptionId');
      check(
        typeof req.formData === 'object' && req.formData !== null && !Array.isArray(req.formData),
        'formData',
        'expected an object keyed by form field id.',
      );
      return http(`${base}/create`, createBookingResponse, { method: 'POST', body: req, signal: call?.signal });
    },
    lookup(q, call) {
      requireId(q.agentId, 'agentId');
      const code = normalizeBookingCode(String(q.code ?? ''));
      check(isBookingCode(code), 'code', 'expected a booking code like BK-A1B2C3.');
      return http(`${base}/lookup`, lookupBookingResponse, { query: { agentId: q.agentId, code }, signal: call?.signal });
    },
    cancel(req, call) {
      requireId(req.agentId, 'agentId');
      const bookingCode = normalizeBookingCode(String(req.bookingCode ?? ''));
      check(isBookingCode(bookingCode), 'bookingCode', 'expected a booking code like BK-A1B2C3.');
      return http(`${base}/cancel`, cancelBookingResponse, { method: 'POST', body: { agentId: req.agentId, bookingCode }, signal: call?.signal });
    },
  };
}
