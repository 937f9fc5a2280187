// What the shell gives the Book view and the My booking view.
import type { BookingStrings } from '../i18n/booking-strings';
import type { BookingStores } from './state';

export interface BookingViewProps {
  stores: BookingStores;
  strings: BookingStrings;
}
