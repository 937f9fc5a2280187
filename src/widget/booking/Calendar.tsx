// The month grid, after the WAI-ARIA APG date picker grid: one tab stop (roving tabindex), arrows
// by day and week, Home/End to the week's ends, PageUp/PageDown by month, Enter/Space to choose.
// Unavailable days stay focusable (aria-disabled) so the arrows can cross them, and so do days whose
// times are still being checked: not offered until known, said to be checked, and a polite status says
// the month is being checked while any is.
import { Component, type TargetedKeyboardEvent } from 'preact';
import { addDays, addMonths, daysInMonth, weekday } from '../../core/time';
import { fmt, plural } from '../i18n/format';
import { formatDate, monthName, weekStart } from './intl';
import type { Env } from './parts';
import { openDay, type BookingFlow, type CalendarDay } from './state';

/** The same day of the month `k` months away, or that month's last day. */
const shiftMonth = (date: string, k: number): string => {
  const m = addMonths(date.slice(0, 7), k);
  return addDays(`${m}-01`, Math.min(Number(date.slice(8)), daysInMonth(m)) - 1);
};

interface CalendarProps {
  env: Env<BookingFlow>;
}

export class Calendar extends Component<CalendarProps> {
  /** Focus moved to a day not drawn yet (another month's): the day takes focus once drawn. */
  focusPending = false;

  override componentDidUpdate(): void {
    if (this.focusPending) this.focusDay();
  }

  /** Focuses the store's focused day; until it is drawn, `focusPending` says it is still to do. */
  focusDay(): void {
    // Drawn by render() below, so base is the calendar's div.
    const day = (this.base as HTMLElement | undefined)?.querySelector<HTMLElement>(`[data-date="${this.props.env.store.focused.peek()}"]`);
    day?.focus();
    this.focusPending = !day;
  }

  override render({ env: { store, t, ctx } }: CalendarProps) {
    const { locale } = ctx;
    const month = store.month.value;
    const list = store.monthDates.value;
    const focused = store.focused.value;
    const selected = store.date.value;
    const { today, last } = store.bounds.value;
    const first = `${month}-01`;
    const label = monthName(locale, month);
    const start = weekStart(locale);
    /** A day's column: 0 is the locale's first day of the week. */
    const column = (day: string) => (weekday(day) - start + 7) % 7;
    /** A day's times, in words: being checked, none, some (not counted yet), or how many. */
    const availability = (entry: CalendarDay | undefined): string => {
      if (!entry?.available) return entry?.checking ? t.timesChecking : t.timesNone;
      return entry.slotCount === undefined ? t.timesSome : plural(locale, t.timesCount, entry.slotCount);
    };
    const checking = !!list?.some((entry) => entry.checking);
    const lead = column(first);
    // Whole weeks from the one holding the 1st; days of other months are drawn as empty cells.
    const weeks = Array.from({ length: Math.ceil((lead + daysInMonth(month)) / 7) }, (_, w) =>
      Array.from({ length: 7 }, (_, i) => addDays(first, w * 7 + i - lead)),
    );
    const stop = focused.startsWith(month) ? focused : first;

    const onKeyDown = (e: TargetedKeyboardEvent<HTMLTableElement>) => {
      // Only the days' buttons take focus in the grid, so a key comes from one. Enter and Space are theirs: a button's own activation clicks it.
      const from = (e.target as HTMLElement).dataset.date as string;
      const ahead = getComputedStyle(e.currentTarget).direction === 'rtl' ? -1 : 1;
      const col = column(from);
      const moves: Record<string, string> = {
        ArrowRight: addDays(from, ahead),
        ArrowLeft: addDays(from, -ahead),
        ArrowDown: addDays(from, 7),
        ArrowUp: addDays(from, -7),
        Home: addDays(from, -col),
        End: addDays(from, 6 - col),
        PageDown: shiftMonth(from, 1),
        PageUp: shiftMonth(from, -1),
      };
      const to = moves[e.key];
      if (!to) return;
      e.preventDefault();
      store.focusDay(to);
      // A day of this month is already drawn; one of another month is focused once it is.
      this.focusDay();
    };

    return (
      <div>
        <div class="row">
          <button
            type="button"
            class="nav"
            aria-label={t.prevMonth}
            disabled={month <= today.slice(0, 7)}
            onClick={() => store.showMonth(addMonths(month, -1))}
          >
            {/* The label names the button (its content is not read). U+2039/U+203A are bidi-mirrored: they
                point the right way in RTL too. */}
            ‹
          </button>
          <p aria-live="polite">{label}</p>
          <button
            type="button"
            class="nav"
            aria-label={t.nextMonth}
            disabled={month >= last.slice(0, 7)}
            onClick={() => store.showMonth(addMonths(month, 1))}
          >
            ›
          </button>
        </div>
        <table class="cal" role="grid" aria-label={label} aria-busy={!list || undefined} onKeyDown={onKeyDown}>
          <thead>
            <tr>
              {weeks[0]?.map((day) => (
                // The narrow letter repeats (Tuesday and Thursday are both "T"): assistive tech gets the full name.
                // Unkeyed: a header keeps no state, and the seven are redrawn in place.
                <th>
                  <span aria-hidden="true">{formatDate(locale, day, { weekday: 'narrow' })}</span>
                  <span class="sr">{formatDate(locale, day, { weekday: 'long' })}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              // A week's first day gives all its days, in order: the cells need no keys of their own.
              <tr key={week[0]}>
                {week.map((day) => {
                  if (!day.startsWith(month)) return <td role="gridcell" />;
                  const open = openDay(list, day);
                  const status = list ? availability(list.find((entry) => entry.date === day)) : '';
                  const name = formatDate(locale, day);
                  return (
                    <td role="gridcell" aria-selected={day === selected || undefined}>
                      <button
                        type="button"
                        class="day"
                        data-date={day}
                        tabIndex={day === stop ? 0 : -1}
                        aria-label={status ? fmt(t.dayLabel, { date: name, status }) : name}
                        aria-disabled={!open || undefined}
                        aria-current={day === today ? 'date' : undefined}
                        onClick={() => store.chooseDate(day)}
                      >
                        {Number(day.slice(8))}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {/* Below the grid, so the days do not move when it comes and goes. */}
        <p role="status" class="sub">
          {checking ? t.checkingDays : ''}
        </p>
      </div>
    );
  }
}
