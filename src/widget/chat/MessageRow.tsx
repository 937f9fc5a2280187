// One message in the log: the visitor's with its failure notice, or a reply (Markdown) with its sources,
// Copy, Helpful and Not helpful; the burst's stamp under its last message.
import { Component, createRef, type ComponentChildren } from 'preact';
import { fmt, fullDateTimeFormat, plural } from '../i18n/format';
import type { StringKey, Strings } from '../i18n';
import { copyWithFeedback } from '../platform/copy-feedback';
import { Icon } from '../platform/Icon';
import type { ChatViewProps } from './view-props';
import { replyForClipboard, writeClipboard } from './clipboard';
import { link, renderMarkdown } from './markdown';
import type { BookedCard, ChatMessage, FailureReason } from './messages';

/** stamp: when the message was sent, in words ("5 min. ago"), on the last message of a burst; else empty. */
export type MessageRowProps = ChatViewProps & { message: ChatMessage; stamp: string };

/** A notice in the log, with its one action when it has one; `chosen` for what the visitor did, not a failure. */
export const notice = (text: ComponentChildren, action?: () => void, label?: string, chosen?: boolean) => (
  <p class={chosen ? 'notice chosen' : 'notice'}>
    {text}
    {action && (
      <>
        {' '}
        <button type="button" class="link-button" onClick={action}>
          {label}
        </button>
      </>
    )}
  </p>
);

/**
 * A small icon button under a reply, named by its tooltip like the header's; `pressed` makes it a toggle.
 * Text in place of the icon (Copied) then names it, and the log, a live region, reads it out.
 */
const action = (title: string, icon: ComponentChildren, onClick: () => void, pressed?: boolean) => (
  <button type="button" class="icon" title={title} aria-pressed={pressed} onClick={onClick}>
    {icon}
  </button>
);

/**
 * A visitor's message that did not get through: its notice, with its one action (Retry, or Book a time
 * after a 402). A busy one counts down the seconds to its retry (the log draws it anew every second while
 * one waits), read out once in words: the number changes every second.
 */
function failureNotice(
  { message, strings, chat, locale, now, openBooking }: MessageRowProps,
  failure: NonNullable<ChatMessage['failure']>,
) {
  switch (failure.reason) {
    case 'busy':
      return notice([
        // The store sets retryAt on every busy failure; without one the countdown would show 0 either way.
        <span aria-hidden="true">{plural(locale, strings.chatBusy, Math.max(0, Math.ceil(((failure.retryAt ?? 0) - now()) / 1000)))}</span>,
        <span class="sr">{strings.chatBusyAnnounce}</span>,
      ]);
    case 'unavailable':
      return notice(strings.chatUnavailable, openBooking, strings.chatOpenBooking);
    case 'misconfigured':
      return notice(strings.chatMisconfigured);
    default:
      // Stopping, or leaving the page, is the visitor's own doing: said quietly, not as an error.
      return notice(strings[RETRY_TEXT[failure.reason]], () => chat.retry(message.id), strings.chatRetry, QUIET.includes(failure.reason));
  }
}

const QUIET: readonly FailureReason[] = ['stopped', 'interrupted'];

/** The notice of each failure that Retry may mend. */
const RETRY_TEXT: Record<Exclude<NonNullable<ChatMessage['failure']>['reason'], 'busy' | 'unavailable' | 'misconfigured'>, StringKey> = {
  offline: 'chatOffline',
  unreachable: 'chatUnreachable',
  'timed-out': 'chatTimedOut',
  failed: 'chatFailed',
  'still-busy': 'chatStillBusy',
  stopped: 'chatStopped',
  interrupted: 'chatInterrupted',
};

/**
 * A booking made during the conversation: what, when (on the visitor's clock) and the code, in a card.
 * It is news, not a reply: nothing to copy or rate, and no "Book a time" after it.
 */
function BookingCard({ card, strings, locale, stamp }: { card: BookedCard; strings: Strings; locale: string; stamp: string }) {
  const when = fullDateTimeFormat(locale).format(new Date(card.start));
  return (
    <div class="msg msg--agent">
      <div class="bubble booked">
        <p>
          <strong>{strings.doneHeading}</strong>
        </p>
        {card.what && <p dir="auto">{card.what}</p>}
        <p>{when}</p>
        <p class="sub">{strings.code}</p>
        <p>
          <strong class="code" dir="ltr">
            {card.code}
          </strong>
        </p>
      </div>
      {stamp && <time aria-hidden="true">{stamp}</time>}
    </div>
  );
}

/**
 * One message; re-renders only when its own record (immutable, with the visitor's rating), its stamp or
 * the dictionary changes, or while it counts down to a busy retry (and, forced, when Copy has news).
 */
export class MessageRow extends Component<MessageRowProps> {
  /** Copied or Could not copy, standing in for Copy's icon; drawn by forceUpdate(), which skips the check below. */
  copied: string | undefined = undefined;
  /** The reply as drawn: what Copy copies. */
  bubble = createRef<HTMLDivElement>();
  /** Stops Copied's pending reset. */
  stopCopied: () => void = () => undefined;

  override shouldComponentUpdate(next: MessageRowProps): boolean {
    return (
      next.message !== this.props.message ||
      next.stamp !== this.props.stamp ||
      next.strings !== this.props.strings ||
      next.message.failure?.reason === 'busy'
    );
  }

  /**
   * Copies the reply as shown: readable text (links with their addresses) and HTML with its formatting
   * (./clipboard). Then Copied, or Could not copy, stands in for the icon (../platform/copy-feedback).
   */
  copy() {
    const bubble = this.bubble.current;
    this.stopCopied();
    this.stopCopied = copyWithFeedback(
      async () => {
        if (!bubble) throw new Error('The reply is not drawn.');
        await writeClipboard(navigator.clipboard, replyForClipboard(bubble));
      },
      this.props.strings,
      (said) => {
        this.copied = said;
        this.forceUpdate();
      },
    );
  }

  override componentWillUnmount(): void {
    this.stopCopied();
  }

  override render(props: MessageRowProps) {
    const { message, strings, title, chat, stamp, locale } = props;
    const { id, role, text, rating, sources, failure, booking } = message;
    if (booking) return <BookingCard card={booking} strings={strings} locale={locale} stamp={stamp} />;
    const mine = role === 'user';
    const failed = failure && failureNotice(props, failure);
    return (
      <div class={`msg msg--${role}`}>
        <span class="sr">{mine ? strings.you : fmt(strings.agentSaid, { title })} </span>
        <div class="bubble" dir="auto" ref={this.bubble}>
          {mine ? <p>{text}</p> : renderMarkdown(text, strings.opensNewTab)}
        </div>
        {/* Under a reply its sources, then Helpful and Not helpful: the visitor's own messages have nothing to act on. */}
        {mine
          ? failed
          : [
              !!sources?.length && (
                <div class="sources">
                  <p>{strings.sources}</p>
                  <ul>
                    {/* Unkeyed: matched by position, which is all an index key would say. */}
                    {sources.map(({ title: name, url = '' }) => (
                      <li>{link(url, name ?? url, strings.opensNewTab)}</li>
                    ))}
                  </ul>
                </div>
              ),
              <div class="acts">
                {action(strings.copy, this.copied ?? <Icon name="copy" />, () => this.copy())}
                {action(strings.helpful, <Icon name="thumb" />, () => chat.rate(id, 'up'), rating === 'up')}
                {action(strings.notHelpful, <Icon name="thumb" />, () => chat.rate(id, 'down'), rating === 'down')}
              </div>,
            ]}
        {/* Hidden from screen readers: in the live log each change would be read out again. */}
        {stamp && <time aria-hidden="true">{stamp}</time>}
      </div>
    );
  }
}
