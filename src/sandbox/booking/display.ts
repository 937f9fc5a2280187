// The lookup's display_date and display_time, e.g. 'Monday, November 24, 2026' and
// '10:00 AM - 10:30 AM'. Built by hand rather than with Intl so the text is identical on every
// ICU version (newer ones put a narrow no-break space before AM/PM).
import { weekday } from '../../core/time';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function displayDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[weekday(date)] ?? ''}, ${MONTHS[m - 1] ?? ''} ${d}, ${y}`;
}

/** 'HH:MM' or 'HH:MM:SS' as '10:00 AM'. */
export function displayClock(time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  return `${hour12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

export function displayTimeRange(start: string, end: string): string {
  return `${displayClock(start)} - ${displayClock(end)}`;
}
