// Placeholder until the booking flow lands (issue 5): the shell's contract is in ./types.
import { h } from 'preact';
import type { BookingViewProps } from './types';

export { bookingStrings, type BookingStrings } from './strings';
export type * from './types';
export const bookingCss = '';

export function BookingView({ strings }: BookingViewProps) {
  return h('h2', { tabIndex: -1 }, strings.bookHeading);
}

export function LookupView({ strings }: BookingViewProps) {
  return h('h2', { tabIndex: -1 }, strings.lookupHeading);
}
