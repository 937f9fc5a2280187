// A modal panel keeps Tab inside itself: from its last tab stop Tab wraps to the first, and Shift+Tab
// from its first (or from the panel itself) wraps to the last.

/** What Tab can reach: disabled controls, hidden views and roving-tabindex tabs not current are skipped. */
const TAB_STOPS = 'a[href],button,input,textarea,[tabindex]';

function tabStops(panel: HTMLElement): HTMLElement[] {
  return Array.from(panel.querySelectorAll<HTMLElement>(TAB_STOPS)).filter(
    (item) => item.tabIndex >= 0 && !item.matches(':disabled') && !item.closest('[hidden]'),
  );
}

/** Handles a Tab keydown inside `panel`: at the edge it leaves by, focus wraps round instead. */
export function keepTabInside(panel: HTMLElement, event: KeyboardEvent): void {
  const stops = tabStops(panel);
  // Reversed for Shift+Tab, so the edge to leave by is always the last stop and the wrap target the first.
  if (event.shiftKey) stops.reverse();
  // A key goes to the focused element: the target is what has focus (our tree has no shadow roots of its own).
  const active = event.target;
  if (active === stops.at(-1) || (event.shiftKey && active === panel)) {
    event.preventDefault();
    stops[0]?.focus();
  }
}
