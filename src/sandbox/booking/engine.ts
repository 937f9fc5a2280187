// The booking rules: creation (form, slot still free), the three cancellation rules in the
// spec's order, and unique codes. Refusals are HttpErrors with stable codes:
//   slot_unavailable           400  the time is off the grid, too soon, beyond the horizon, or taken
//   booking_not_cancellable    400  rule 1: the status is not pending or confirmed
//   cancellation_disabled      400  rule 2: allow_user_cancellation is false
//   cancellation_notice_passed 400  rule 3: less than cancellation_notice_hours before the start
import { CANCELLED_STATUS } from '../../core/spec-assumptions';
import type { Booking, BookingConfig, BookingWithDisplay, DurationOption } from '../../core/types';
import { instantToZoned } from '../../core/time';
import { isEmail } from '../../core/validate';
import { newId, UPPER_ALNUM, type Random } from '../random';
import { badRequest, type HttpError, notFound } from '../responses';
import type { AgentRecord, BookingRecord, SandboxState } from '../state';
import { gridSlots, slotRefusal, type AvailabilityRules, type SlotRefusal } from './availability';
import { displayDate, displayTimeRange } from './display';

const HOUR_MS = 3_600_000;
/** Longest accepted form answer; the spec shows none, this keeps the sandbox's memory bounded. */
export const MAX_FORM_VALUE_LENGTH = 2000;

export type BookableAgent = AgentRecord & { booking: NonNullable<AgentRecord['booking']> };

export function bookableAgent(state: SandboxState, agentId: string): BookableAgent {
  const agent = state.agents.get(agentId);
  if (!agent) throw notFound('Agent not found.');
  const { booking } = agent;
  if (!booking) throw notFound('Booking is not enabled for this agent.');
  return { ...agent, booking };
}

export function availabilityRules(state: SandboxState, agent: BookableAgent, now: Date): AvailabilityRules {
  return {
    config: agent.booking.config,
    hours: agent.booking.hours,
    busy: state.bookings.filter((b) => b.agentId === agent.id && b.booking.status !== CANCELLED_STATUS),
    now,
  };
}

export function durationByMinutes(config: BookingConfig, minutes: number): DurationOption {
  const option = config.duration_options.find((d) => d.duration_minutes === minutes);
  if (!option) throw badRequest(`durationMinutes must be one of ${config.duration_options.map((d) => d.duration_minutes).join(', ')}.`);
  return option;
}

export function shortestDuration(config: BookingConfig): DurationOption {
  const [first, ...rest] = config.duration_options;
  if (!first) throw notFound('Booking has no duration options for this agent.');
  return rest.reduce((min, d) => (d.duration_minutes < min.duration_minutes ? d : min), first);
}

/**
 * The answers keyed by form field id, trimmed. Unknown keys are rejected (not silently dropped) so
 * a client that sends answers under the wrong keys learns it at once.
 */
export function validateFormData(config: BookingConfig, formData: Record<string, unknown>): Record<string, string> {
  const known = new Set(config.form_fields.map((f) => f.id));
  const unknown = Object.keys(formData).filter((k) => !known.has(k));
  if (unknown.length > 0) throw badRequest(`formData has unknown field(s): ${unknown.join(', ')}.`);
  const answers: Record<string, string> = {};
  for (const field of config.form_fields) {
    const raw = formData[field.id];
    if (raw !== undefined && typeof raw !== 'string') throw badRequest(`formData.${field.id} must be a string.`);
    const value = (raw ?? '').trim();
    if (value.length > MAX_FORM_VALUE_LENGTH) throw badRequest(`formData.${field.id} is longer than ${MAX_FORM_VALUE_LENGTH} characters.`);
    if (value === '') {
      if (field.required) throw badRequest(`${field.label} is required (formData.${field.id}).`);
      continue;
    }
    if (field.inputType === 'email' && !isEmail(value))
      throw badRequest(`${field.label} must be a valid email address (formData.${field.id}).`);
    answers[field.id] = value;
  }
  return answers;
}

const SLOT_MESSAGES: Record<SlotRefusal | 'off_grid', (config: BookingConfig) => string> = {
  off_grid: () => 'That time is not available: it is not one of the bookable times for that day.',
  notice: (c) => `That time is not available: bookings need at least ${c.min_notice_hours} hours' notice.`,
  horizon: (c) => `That time is not available: bookings can be made at most ${c.max_advance_days} days ahead.`,
  taken: () => 'That time is no longer available: someone else just booked it. Please choose another time.',
};

function slotUnavailable(reason: SlotRefusal | 'off_grid', config: BookingConfig): HttpError {
  return badRequest(SLOT_MESSAGES[reason](config), 'slot_unavailable');
}

/** A BK-XXXXXX code not in `issued` (which it joins), so no code is ever reused. */
export function uniqueBookingCode(random: Random, issued: Set<string>): string {
  let code: string;
  do code = `BK-${random.string(UPPER_ALNUM, 6)}`;
  while (issued.has(code));
  issued.add(code);
  return code;
}

const seconds = (hhmm: string): string => `${hhmm}:00`;

export interface NewBooking {
  conversationId: string;
  date: string;
  time: string;
  duration: DurationOption;
  formData: Record<string, string>;
}

export function createBooking(state: SandboxState, agent: BookableAgent, input: NewBooking, now: Date): Booking {
  const { config } = agent.booking;
  const slot = gridSlots(input.date, input.duration.duration_minutes, agent.booking.hours, config.timezone).find(
    (s) => s.time === input.time,
  );
  if (!slot) throw slotUnavailable('off_grid', config);
  const refusal = slotRefusal(availabilityRules(state, agent, now), input.date, slot);
  if (refusal) throw slotUnavailable(refusal, config);

  const booking: Booking = {
    id: newId(state.random, 'bkg'),
    booking_code: uniqueBookingCode(state.random, state.issuedCodes),
    booking_date: input.date,
    start_time: seconds(input.time),
    end_time: seconds(instantToZoned(new Date(slot.endMs), config.timezone).time),
    duration_minutes: input.duration.duration_minutes,
    duration_label: input.duration.label,
    timezone: config.timezone,
    status: state.pendingBookings ? 'pending' : 'confirmed',
    form_data: input.formData,
  };
  state.bookings.push({
    agentId: agent.id,
    conversationId: input.conversationId,
    booking,
    startMs: slot.startMs,
    endMs: slot.endMs,
  });
  return { ...booking, form_data: { ...booking.form_data } };
}

export function findBooking(state: SandboxState, agentId: string, code: string): BookingRecord {
  const record = state.bookings.find((b) => b.agentId === agentId && b.booking.booking_code === code);
  if (!record) throw notFound('No booking with that code.');
  return record;
}

/** The first cancellation rule the booking fails, as a stable code and a sentence for the visitor. */
export function cancellationRefusal(config: BookingConfig, record: BookingRecord, now: Date): { code: string; reason: string } | undefined {
  const { status } = record.booking;
  if (status !== 'pending' && status !== 'confirmed')
    // CANCELLED_STATUS is the only other status the sandbox ever sets.
    return { code: 'booking_not_cancellable', reason: 'This booking has already been cancelled.' };
  if (!config.allow_user_cancellation)
    return {
      code: 'cancellation_disabled',
      reason: 'Bookings cannot be cancelled online. Please contact us to change or cancel.',
    };
  if (now.getTime() > record.startMs - config.cancellation_notice_hours * HOUR_MS)
    return {
      code: 'cancellation_notice_passed',
      reason:
        `Bookings can be cancelled up to ${config.cancellation_notice_hours} hours before the appointment; ` + 'that time has passed.',
    };
  return undefined;
}

export function cancelBooking(config: BookingConfig, record: BookingRecord, now: Date): string {
  const refusal = cancellationRefusal(config, record, now);
  if (refusal) throw badRequest(refusal.reason, refusal.code);
  record.booking.status = CANCELLED_STATUS;
  return `Booking ${record.booking.booking_code} has been cancelled.`;
}

export function withDisplay(config: BookingConfig, booking: Booking): BookingWithDisplay {
  return {
    ...booking,
    form_data: { ...booking.form_data },
    booking_title: config.booking_title,
    display_date: displayDate(booking.booking_date),
    display_time: displayTimeRange(booking.start_time, booking.end_time ?? booking.start_time),
  };
}
