// What the shell gives the Book view and the My booking view.
import type { BookingStrings } from '../i18n/booking-strings';
import type { BookingStores } from './state';

export interface BookingViewProps {
  stores: BookingStores;
  strings: BookingStrings;
}

export interface LookupViewProps extends BookingViewProps {
  /** Shows the Book view (after a cancel, to book another time). */
  openBooking: () => void;
}
