// Every visible string of the booking flow (English), with Loading and Try again from the launcher's
// (./launcher-strings: the stand-in panel says them too). ./index merges them into the one dictionary,
// and init({ strings }) overrides any key. "{name}" placeholders are filled with ./format `fmt`.
import type { LauncherStrings } from './launcher-strings';

export const bookingStrings = {
  bookHeading: 'Book a time',
  lookupHeading: 'My booking',
  back: 'Back',
  next: 'Continue',
  unavailable: 'Booking is not available here right now. Please check back later.',
  networkError: 'We could not reach the booking service. Check your connection and try again.',
  unreachable: "We can't reach the booking service right now. Please try again in a moment.",
  serverError: 'Something went wrong. Please try again.',
  busy: 'The booking service is busy. Please try again in a moment.',

  durationHeading: 'How long do you need?',
  dateHeading: 'Choose a day',
  prevMonth: 'Previous month',
  nextMonth: 'Next month',
  jumped: 'No free times in {from}. Showing {to}, the first month with free times.',
  noneFree: 'No free times to book right now.',
  dayLabel: '{date}, {status}',
  timesCount: 'one: {count} time available | other: {count} times available',
  timesSome: 'times available',
  timesNone: 'not available',
  timesChecking: 'checking for times',
  checkingDays: 'Checking which days have free times in your time zone…',

  timeHeading: 'Choose a time',
  timesIn: 'Times in {zone}',
  showIn: 'show in {zone}',
  slotName: '{time}, {zone}',
  noSlots: 'No free times are left on this day. Please choose another.',
  taken: 'Sorry, {time} was just taken. The nearest free times:',

  formHeading: 'Your details',
  optional: '(optional)',
  required: '{label} is required.',
  invalidEmail: 'Enter an email address like name@example.com.',

  reviewHeading: 'Check and confirm',
  when: 'When',
  /** The appointment on the visitor's clock ({time}: day, start and end) and their zone's name. */
  whenVisitor: '{time} (your time, {zone})',
  /** The same, on the business's clock, when its zone is another. */
  whenAgent: '{time} ({zone}, our time)',
  duration: 'Duration',
  confirm: 'Confirm booking',
  confirming: 'Booking…',

  doneHeading: 'You are booked',
  pendingHeading: 'Booking requested',
  cancelledHeading: 'Booking cancelled',
  code: 'Booking code',
  copyCode: 'Copy code',
  status: 'Status',
  confirmed: 'Confirmed',
  pending: 'Pending: awaiting confirmation',
  cancelled: 'Cancelled',
  google: 'Add to Google Calendar',
  outlook: 'Add to Outlook',
  opensNewTab: '(opens in a new tab)',
  /** The calendar event's title: the appointment ({what}: its duration's label) and the business ({who}: the widget's title). */
  eventTitle: '{what} with {who}',
  ics: 'Download calendar file (.ics)',
  icsDetails: 'Booking code {code}',
  bookAnother: 'Book another time',

  codeHint: 'It looks like BK-A1B2C3.',
  invalidCode: 'Enter a code like BK-A1B2C3.',
  find: 'Find booking',
  notFound: 'No booking found with that code.',
  rememberedHeading: 'Your bookings',
  cancelBooking: 'Cancel booking',
  cancelAsk: 'Cancel this booking?',
  cancelWarn: 'This cannot be undone.',
  cancelYes: 'Yes, cancel it',
  keep: 'Keep booking',
  /** Why My booking offers no cancel, from the config: the notice period ({count}: hours) has begun, or cancelling online is off. */
  cancelTooLate:
    "one: This booking can no longer be cancelled online: cancellations need {count} hour's notice. | other: This booking can no longer be cancelled online: cancellations need {count} hours' notice.",
  cancelDisabled: 'This booking cannot be cancelled online.',
  cancelContact: 'To cancel or change it, please send us a message.',
  messageUs: 'Send a message',
  lookupAnother: 'Look up another code',
};

export type BookingStrings = typeof bookingStrings & Pick<LauncherStrings, 'loading' | 'retry'>;
