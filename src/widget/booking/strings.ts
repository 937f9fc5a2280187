// Every visible string of the booking flow (English). The shell merges this into its one dictionary,
// and init({ strings }) overrides any key.
export const bookingStrings = {
  bookHeading: 'Book a time',
  lookupHeading: 'My booking',
};

export type BookingStrings = typeof bookingStrings;
