// The agent is typing: three dots while a reply is pending, and after STILL_WORKING_MS a line saying it is
// still coming, so a slow reply does not look like a hang.
import { Component } from 'preact';
import { fmt } from '../i18n/format';
import type { Strings } from '../i18n';

/** How long a reply may take before the visitor is told it is still coming. */
export const STILL_WORKING_MS = 15_000;

interface TypingIndicatorProps {
  strings: Strings;
  title: string;
}

/** Drawn while a reply is pending: mounted when the message is sent, so its timer counts from then. */
export class TypingIndicator extends Component<TypingIndicatorProps, { stillWorking: boolean }> {
  override state = { stillWorking: false };
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;

  override componentDidMount(): void {
    this.timer = setTimeout(() => this.setState({ stillWorking: true }), STILL_WORKING_MS);
  }

  override componentWillUnmount(): void {
    clearTimeout(this.timer);
  }

  override render({ strings, title }: TypingIndicatorProps, { stillWorking }: { stillWorking: boolean }) {
    return (
      <div class="msg msg--agent">
        {/* The log is a polite live region: the line is read out once, when it appears. */}
        {stillWorking ? (
          <p class="still-working">{fmt(strings.stillWorking, { title })}</p>
        ) : (
          <span class="sr">{fmt(strings.typing, { title })}</span>
        )}
        <span class="dots" aria-hidden="true">
          <i />
          <i />
          <i />
        </span>
      </div>
    );
  }
}
