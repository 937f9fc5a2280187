// The public booking client: the six /booking/public endpoints, no key, every answer checked against
// the spec's shape (an `invalid_response` ApiError when it does not fit). Its arguments come from the
// widget's own flow, which checks what the visitor typed (a booking code) before asking.
import { createHttp, type Http, type HttpOptions } from './http';
import type { Schema } from './schema';
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

/** Passed on to ./http as they are, with the call's query or body. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface BookingClient {
  config(query: { agentId: string }, options?: CallOptions): Promise<BookingConfigResponse>;
  dates(query: BookingDatesQuery, options?: CallOptions): Promise<BookingDatesResponse>;
  slots(query: BookingSlotsQuery, options?: CallOptions): Promise<BookingSlotsResponse>;
  create(request: CreateBookingRequest, options?: CallOptions): Promise<CreateBookingResponse>;
  lookup(query: LookupBookingQuery, options?: CallOptions): Promise<LookupBookingResponse>;
  cancel(request: CancelBookingRequest, options?: CallOptions): Promise<CancelBookingResponse>;
}

/** `query` comes from our own flow (visitor input is checked there); every answer is checked here. */
export function createBookingClient(options: HttpOptions): BookingClient {
  const http: Http = createHttp(options);
  const get =
    <Q extends object, T>(endpoint: string, schema: Schema<T>) =>
    (query: Q, call?: CallOptions) =>
      http(`/booking/public/${endpoint}`, schema, { ...call, query });
  // A body makes the call a POST (./http).
  const post =
    <B extends object, T>(endpoint: string, schema: Schema<T>) =>
    (body: B, call?: CallOptions) =>
      http(`/booking/public/${endpoint}`, schema, { ...call, body });
  return {
    config: get('config', bookingConfigResponse),
    dates: get('dates', bookingDatesResponse),
    slots: get('slots', bookingSlotsResponse),
    create: post('create', createBookingResponse),
    lookup: get('lookup', lookupBookingResponse),
    cancel: post('cancel', cancelBookingResponse),
  };
}
