// The booking flow as the shell sees it: two views, their strings, their CSS (adopted by the shell's
// shadow root), and the contract types.
import css from './booking.css?inline';

export type * from './types';
export { createBookingStores, type BookingStores } from './state';
export { BookingView } from './BookingView';
export { LookupView } from './LookupView';
export const bookingCss: string = css;
