// On a short screen (a phone in landscape shows two or three weeks) the month's first weeks can all be
// past or closed: the first screen would show only grey days. This brings the first bookable day into view.
import { Component, type ComponentChildren } from 'preact';

/** A day the visitor can choose: the calendar's day buttons carry data-date, and aria-disabled when closed. */
const BOOKABLE = '[data-date]:not([aria-disabled])';

/** The nearest ancestor that scrolls vertically (the panel's view), or null; never the host page. */
function scroller(element: Element): HTMLElement | null {
  for (let at = element.parentElement; at; at = at.parentElement) {
    const { overflowY } = getComputedStyle(at);
    if ((overflowY === 'auto' || overflowY === 'scroll') && at.scrollHeight > at.clientHeight) return at;
  }
  return null;
}

/**
 * Scrolls once, when the first bookable day appears below the visible part of the view: as far as shows
 * the calendar's end, but never past that day's week, which stays in view. Nothing moves where the day is
 * already on screen (a phone upright, a desktop), nor after the first time, so the visitor's own scrolling
 * is left alone. The days come with the month's answer, after the step is drawn (and focus moved to its
 * heading, which scrolled it into view): a MutationObserver sees them, whatever signal drew them.
 */
export class BookableInView extends Component<{ children: ComponentChildren }> {
  observer: MutationObserver | undefined;

  override componentDidMount(): void {
    const root = this.base as HTMLElement;
    this.observer = new MutationObserver(() => this.reveal(root));
    this.observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-disabled'] });
    // Days already known (a month fetched before) are drawn now; the step's focus moves after this mount.
    queueMicrotask(() => this.reveal(root));
  }

  override componentWillUnmount(): void {
    this.observer?.disconnect();
  }

  reveal(root: HTMLElement): void {
    const day = this.observer && root.querySelector(BOOKABLE);
    if (!day) return;
    this.observer?.disconnect();
    this.observer = undefined;
    const view = scroller(root);
    if (!view) return;
    const visible = view.getBoundingClientRect();
    const week = (day.closest('tr') ?? day).getBoundingClientRect();
    if (week.bottom <= visible.bottom) return;
    view.scrollTop += Math.min(week.top - visible.top, root.getBoundingClientRect().bottom - visible.bottom);
  }

  render() {
    return <div>{this.props.children}</div>;
  }
}
