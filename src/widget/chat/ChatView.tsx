// The chat view: the message log (keyed, memoised rows, pinned to the bottom unless the visitor
// scrolled up), notices with their one action (a failure's, New conversation's Undo), the typing
// indicator and the composer.
import { Component, createRef } from 'preact';
import { signal } from '@preact/signals';
import { relativeTimeFormat } from '../i18n/format';
import { Icon } from '../platform/Icon';
import { Composer } from './Composer';
import { TypingIndicator } from './TypingIndicator';
import { MessageRow, notice } from './MessageRow';
import type { ChatViewProps } from './view-props';

/** Messages less than this far apart are one burst, stamped once, under its last message. */
const BURST_MS = 300_000;
/** How often the stamps move on ("now", "1 min. ago"…), while the log is on screen. */
const STAMP_TICK_MS = 30_000;

/** How long ago, in the largest unit that fits: seconds (as "now"), minutes, hours, days ("yesterday"). */
function sinceIn(minutes: number): { count: number; unit: Intl.RelativeTimeFormatUnit } {
  if (minutes < 1) return { count: 0, unit: 'second' };
  if (minutes < 60) return { count: minutes, unit: 'minute' };
  if (minutes < 1440) return { count: minutes / 60, unit: 'hour' };
  return { count: minutes / 1440, unit: 'day' };
}

/** Within this many pixels of the end, the log counts as "at the bottom" and follows new messages. */
const PIN_SLACK = 40;
/**
 * How many of the newest messages are drawn when the log first shows, and how many older ones are added
 * each time the visitor scrolls near its top: a long stored conversation opens at once (drawing all of
 * 200 messages took 850 ms at 4x CPU), and more than fills the log's height.
 */
const MESSAGES_PER_BATCH = 20;
/** Within this many pixels of the top, scrolling up draws the next batch of older messages. */
const EARLIER_SLACK = 300;

/** The log and, under it, the composer. */
export class ChatView extends Component<ChatViewProps> {
  log = createRef<HTMLDivElement>();
  /** At the bottom: the log follows new messages. */
  pinned = true;
  /** Messages came below while the visitor was scrolled up. */
  unseen = signal(false);
  /** How many of the newest messages are drawn; the older ones come as the visitor scrolls up. */
  drawn = signal(MESSAGES_PER_BATCH);
  /** Set while older messages are being added: the message that was drawn first, and how far below the log's top it was. */
  anchor: { row: Element; offset: number } | undefined = undefined;
  /** The last render's last message and typing indicator. */
  renderedTail = '';
  /** The last message and typing indicator the log last followed. */
  followedTail: string | undefined = undefined;
  /** The next update of the stamps, while the log is on screen. */
  stampTimer: ReturnType<typeof setTimeout> | undefined = undefined;

  /** Draws the next batch of older messages above, keeping what the visitor sees where it is. */
  drawEarlier = () => {
    const row = this.log.current?.querySelector('.msg');
    if (!row || this.anchor) return;
    this.anchor = { row, offset: this.offsetInLog(row) };
    this.drawn.value += MESSAGES_PER_BATCH;
  };

  /** How far below the top of the log's visible area `row` is. */
  offsetInLog(row: Element): number {
    return row.getBoundingClientRect().top - (this.log.current?.getBoundingClientRect().top ?? 0);
  }

  toBottom = () => {
    const el = this.log.current;
    // With only the greeting (so nothing sending either) there is nothing to scroll; reading
    // scrollHeight would force a layout.
    if (el && this.props.chat.messages.peek().length) el.scrollTop = el.scrollHeight;
    this.pinned = true;
    this.unseen.value = false;
  };

  override componentDidMount(): void {
    this.componentDidUpdate(this.props);
  }

  override componentWillUnmount(): void {
    clearTimeout(this.stampTimer);
  }

  override componentDidUpdate(previous: ChatViewProps): void {
    // Older messages drawn above: what the visitor was reading stays where it was.
    const el = this.log.current;
    if (el && this.anchor) el.scrollTop += this.offsetInLog(this.anchor.row) - this.anchor.offset;
    this.anchor = undefined;
    // On screen, each render brings the stamps up to date and sets the next one, a second away while a busy
    // message counts down; off screen, none.
    clearTimeout(this.stampTimer);
    if (this.props.visible)
      this.stampTimer = setTimeout(
        () => this.forceUpdate(),
        this.props.chat.messages.peek().some((m) => m.failure?.reason === 'busy') ? 1000 : STAMP_TICK_MS,
      );
    // New at the end, or shown again: a pinned log goes to the bottom (once); one scrolled up is told.
    const grew = this.renderedTail !== this.followedTail;
    this.followedTail = this.renderedTail;
    if (this.pinned && (grew || (this.props.visible && !previous.visible))) this.toBottom();
    else if (grew) this.unseen.value = true;
  }

  override render(props: ChatViewProps) {
    const { chat, strings, title, greeting, starters, locale, now } = props;
    const messages = chat.messages.value;
    const sending = chat.sending.value;
    const undo = chat.undo.value;
    this.renderedTail = `${messages.at(-1)?.id} ${sending}`;
    /** How long ago `at` was, in words: "now", then minutes, hours, days ("yesterday"). */
    const ago = (at: number): string => {
      const { count, unit } = sinceIn((now() - at) / 60_000);
      return relativeTimeFormat(locale).format(-Math.floor(count), unit);
    };
    // The last exchange is about booking: one of the phrases (|-separated) is among a message's words.
    const wanted = strings.bookingPhrases.toLowerCase().split('|').filter(Boolean);
    const aboutBooking = messages.slice(-2).some(({ text }) => {
      // The text lower case between spaces, each run of what is not a letter one space.
      const words = ` ${text.toLowerCase().replace(/\P{L}+/gu, ' ')} `;
      return wanted.some((phrase) => words.includes(phrase));
    });

    const firstDrawn = Math.max(0, messages.length - this.drawn.value);
    const onScroll = () => {
      const el = this.log.current;
      if (!el) return;
      this.pinned = el.scrollHeight - el.scrollTop - el.clientHeight <= PIN_SLACK;
      if (this.pinned) this.unseen.value = false;
      if (firstDrawn > 0 && el.scrollTop <= EARLIER_SLACK) this.drawEarlier();
    };

    return (
      <div class="chat">
        <div class="log-wrap">
          {/* Focusable so keyboard users can scroll it; polite so replies are read without interrupting. */}
          <div
            ref={this.log}
            class="log"
            part="messages"
            role="log"
            aria-live="polite"
            aria-label={strings.conversation}
            tabIndex={0}
            onScroll={onScroll}
          >
            {/* The greeting opens the conversation: above older messages not drawn yet, it would sit mid-way. */}
            {firstDrawn > 0 ? (
              <button type="button" class="link-button earlier" onClick={this.drawEarlier}>
                {strings.earlierMessages}
              </button>
            ) : (
              <div class="msg msg--agent">
                <div class="bubble" dir="auto">
                  <p>{greeting}</p>
                </div>
              </div>
            )}
            {!messages.length && starters.length > 0 && (
              <div class="msg msg--user starters" role="group" aria-label={strings.starters}>
                {starters.map((text) => (
                  <button
                    type="button"
                    onClick={() => {
                      chat.send(text);
                      // The button goes: focus stays in the conversation, without a phone's keyboard popping up.
                      this.log.current?.focus();
                    }}
                  >
                    {text}
                  </button>
                ))}
              </div>
            )}
            {messages.slice(firstDrawn).map((message, i) => (
              <MessageRow
                key={message.id}
                {...props}
                message={message}
                stamp={(messages[firstDrawn + i + 1]?.at ?? Infinity) - message.at < BURST_MS ? '' : ago(message.at)}
              />
            ))}
            {/* The last exchange is about booking: one click opens it, with this conversation's id. Not after a
                message that did not go through: its notice has the one action (Retry, or a Book a time of its own). */}
            {!messages.at(-1)?.failure && aboutBooking && (
              <div class="msg msg--user starters">
                <button type="button" onClick={props.openBooking}>
                  {strings.chatOpenBooking}
                </button>
              </div>
            )}
            {undo &&
              notice(
                strings.chatCleared,
                () => {
                  undo();
                  // The button goes with the notice: focus moves to the conversation it brought back.
                  this.log.current?.focus();
                },
                strings.chatUndo,
              )}
            {sending && <TypingIndicator strings={strings} title={title} />}
          </div>
          {this.unseen.value && (
            <button type="button" class="jump" onClick={this.toBottom}>
              <Icon name="down" /> {strings.jumpToNew}
            </button>
          )}
        </div>
        <Composer {...props} />
      </div>
    );
  }
}
