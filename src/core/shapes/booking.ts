// The public booking endpoints' answers (api-spec §2 Booking, Booking config; §4 Booking), written
// once: the widget checks every answer with these, and the sandbox answers with their types.
// Required is what the flow cannot work without; the rest is optional with a default (see
// ../spec-assumptions for the defaults that are assumptions).
import { isNonEmptyString } from '../guards';
import { array, boolean, number, object, optional, record, string, where, type Infer, type Schema } from '../schema';
import { isIsoDate, isTimeZone } from '../time';

const text = where(string, isNonEmptyString, 'a non-empty string');
/** Text that may be absent, which reads as empty. */
const optionalText = optional(string, '');
const isoDate = where(string, isIsoDate, 'a day as YYYY-MM-DD');
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
/** HH:MM or HH:MM:SS. */
const clockTime = where(string, (v) => TIME.test(v), 'a time as HH:MM or HH:MM:SS');
/** HH:MM, also read from HH:MM:SS: slots and create speak HH:MM (api-spec §4). */
const slotTime: Schema<string> = (value, path) => clockTime(value, path).slice(0, 5);
const minutes = where(number, (v) => Number.isInteger(v) && v > 0, 'a whole number of minutes');
/** An IANA zone this runtime knows; everything the visitor sees is computed in it. */
const zone = where(string, isTimeZone, 'an IANA time zone');
/** Answers come back as text; a number or boolean is shown as written. */
const answer: Schema<string> = (value, path) =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : optionalText(value, path);

export const durationOption = object({
  id: text,
  label: optionalText,
  duration_minutes: minutes,
});

export const formField = object({
  id: text,
  type: optional(string, 'input_field'),
  label: optionalText,
  required: optional(boolean, false),
  inputType: optional(string, 'text'),
  placeholder: optionalText,
});

export const bookingConfig = object({
  booking_title: optionalText,
  booking_description: optionalText,
  timezone: zone,
  duration_options: array(durationOption),
  min_notice_hours: optional(number, 0),
  /** Absent: see spec-assumptions DEFAULT_HORIZON_DAYS. */
  max_advance_days: optional(where(number, (v) => v >= 0, 'a number of days')),
  form_fields: optional(array(formField), []),
  allow_user_cancellation: optional(boolean, false),
  cancellation_notice_hours: optional(number, 0),
});

export const bookingDate = object({
  date: isoDate,
  available: boolean,
  /** Present when available. */
  slotCount: optional(number),
});

export const bookingSlot = object({ time: slotTime, available: boolean });

const bookingFields = {
  id: optionalText,
  booking_code: text,
  booking_date: isoDate,
  start_time: clockTime,
  end_time: optional(clockTime),
  duration_minutes: minutes,
  duration_label: optionalText,
  timezone: zone,
  /** pending or confirmed on creation; the word after cancelling is not shown (spec-assumptions). */
  status: optionalText,
  form_data: optional(record(answer), {}),
};
export const booking = object(bookingFields);

export const bookingWithDisplay = object({
  ...bookingFields,
  booking_title: optionalText,
  display_date: optionalText,
  display_time: optionalText,
});

export const bookingConfigResponse = object({ config: bookingConfig });
export const bookingDatesResponse = object({
  month: optional(string),
  timezone: optional(string),
  dates: array(bookingDate),
});
export const bookingSlotsResponse = object({
  date: optional(string),
  timezone: optional(string),
  duration: optional(durationOption),
  slots: array(bookingSlot),
});
export const createBookingResponse = object({ booking });
export const lookupBookingResponse = object({
  booking: bookingWithDisplay,
  canCancel: optional(boolean, false),
  /** Given when canCancel is false. */
  cancelReason: optional(string),
});
export const cancelBookingResponse = object({ message: optionalText });

export type DurationOption = Infer<typeof durationOption>;
export type FormField = Infer<typeof formField>;
export type BookingConfig = Infer<typeof bookingConfig>;
export type BookingDate = Infer<typeof bookingDate>;
export type BookingSlot = Infer<typeof bookingSlot>;
export type Booking = Infer<typeof booking>;
export type BookingWithDisplay = Infer<typeof bookingWithDisplay>;
