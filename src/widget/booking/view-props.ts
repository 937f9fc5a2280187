// What the shell gives the Book view and the My booking view.
import type { Strings } from '../i18n';
import type { BookingStores } from './state';

export interface BookingViewProps {
  stores: BookingStores;
  strings: Strings;
  /**
   * The panel was asked for (the launcher, open()) rather than opened by itself on the next page of the
   * site: a new step may take focus before the visitor has come to the view.
   */
  asked(): boolean;
}

export interface LookupViewProps extends BookingViewProps {
  /** Shows the Book view (after a cancel, to book another time). */
  openBooking: () => void;
  /** Shows the chat (to ask about a booking that cannot be cancelled online). */
  openChat: () => void;
}
