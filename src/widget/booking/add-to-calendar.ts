// Add-to-calendar: a Google Calendar template link, an Outlook on the web link and an iCalendar (RFC 5545)
// file, all in UTC.
// The event's title says what the appointment is (its duration's label, and with whom), not the booking page's heading.
export interface CalendarEvent {
  uid: string;
  title: string;
  details: string;
  start: Date;
  end: Date;
}

/** 20261124T150000Z */
const utcStamp = (d: Date): string => d.toISOString().replace(/[-:]|\.\d+/g, '');

export const googleCalendarUrl = (e: CalendarEvent): string => {
  return (
    'https://calendar.google.com/calendar/render?action=TEMPLATE' +
    `&text=${encodeURIComponent(e.title)}&dates=${utcStamp(e.start)}/${utcStamp(e.end)}&details=${encodeURIComponent(e.details)}`
  );
};

/** Outlook on the web's (Outlook.com and Microsoft 365) compose link, times in UTC. */
export const outlookCalendarUrl = (e: CalendarEvent): string => {
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: e.title,
    startdt: e.start.toISOString(),
    enddt: e.end.toISOString(),
    body: e.details,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params.toString()}`;
};

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 §3.3.11). */
const escapeText = (s: string): string => s.replace(/[\\;,]/g, '\\$&').replace(/\r?\n/g, '\\n');

/** Lines longer than 75 octets continue on the next line after CRLF and a space (§3.1). */
const fold = (line: string): string => {
  let out = '';
  let octets = 0;
  for (const ch of line) {
    // A string's Blob holds its UTF-8 bytes.
    const n = new Blob([ch]).size;
    if (octets + n > 75) {
      out += '\r\n ';
      octets = 1;
    }
    out += ch;
    octets += n;
  }
  return out;
};

export const icsText = (e: CalendarEvent, stamp: Date): string => {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//agent-widget//booking//EN',
    // No METHOD: with one (RFC 5546), an ORGANIZER becomes required, and we have no address to give.
    'BEGIN:VEVENT',
    `UID:${escapeText(e.uid)}`,
    `DTSTAMP:${utcStamp(stamp)}`,
    `DTSTART:${utcStamp(e.start)}`,
    `DTEND:${utcStamp(e.end)}`,
    `SUMMARY:${escapeText(e.title)}`,
    `DESCRIPTION:${escapeText(e.details)}`,
    'END:VEVENT',
    'END:VCALENDAR',
    // Every line ends in CRLF, the last one too.
    '',
  ]
    .map(fold)
    .join('\r\n');
};
