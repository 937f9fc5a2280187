// The chat view: the message log (keyed, memoised rows, pinned to the bottom unless the visitor
// scrolled up), notices with their one action (a failure's, New conversation's Undo), the typing
// indicator and the composer.
import { Component, createRef, type ComponentChildren } from 'preact';
import { signal } from '@preact/signals-core';
import { reactive, Reactive } from '../platform/reactive';
import { fmt, plural, relativeTimeFormat } from '../i18n/format';
import type { StringKey, Strings } from '../i18n';
import { Icon } from '../platform/Icon';
import { link, renderMarkdown } from './markdown';
import type { Chat, ChatMessage } from './store';

export interface ChatViewProps {
  chat: Chat;
  strings: Strings;
  title: string;
  greeting: string;
  locale: string;
  now: () => number;
  /** The view is on screen (panel open, tab selected). */
  visible: boolean;
  openBooking: () => void;
  /** The owner's questions, offered while the conversation is empty. */
  starters: readonly string[];
}

/** stamp: when the message was sent, in words ("5 min. ago"), on the last message of a burst; else empty. */
type RowProps = ChatViewProps & { message: ChatMessage; stamp: string };

/** Messages less than this far apart are one burst, stamped once, under its last message. */
const BURST_MS = 300_000;
/** How often the stamps move on ("now", "1 min. ago"…), while the log is on screen. */
const STAMP_TICK_MS = 30_000;

/** A notice in the log, with its one action when it has one. */
const notice = (text: ComponentChildren, action?: () => void, label?: string) => (
  <p class="notice">
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
function failureNotice({ message, strings, chat, locale, now, openBooking }: RowProps, failure: NonNullable<ChatMessage['failure']>) {
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
      return notice(strings[RETRY_TEXT[failure.reason]], () => chat.retry(message.id), strings.chatRetry);
  }
}

/** The notice of each failure that Retry may mend. */
const RETRY_TEXT: Record<Exclude<NonNullable<ChatMessage['failure']>['reason'], 'busy' | 'unavailable' | 'misconfigured'>, StringKey> = {
  offline: 'chatOffline',
  unreachable: 'chatUnreachable',
  failed: 'chatFailed',
  'still-busy': 'chatStillBusy',
  stopped: 'chatStopped',
};

/** How long ago, in the largest unit that fits: seconds (as "now"), minutes, hours, days ("yesterday"). */
function sinceIn(minutes: number): [count: number, unit: Intl.RelativeTimeFormatUnit] {
  if (minutes < 1) return [0, 'second'];
  if (minutes < 60) return [minutes, 'minute'];
  if (minutes < 1440) return [minutes / 60, 'hour'];
  return [minutes / 1440, 'day'];
}

/** How long Copied (or Could not copy) stands in for the Copy icon. */
export const COPIED_MS = 2000;

/**
 * One message; re-renders only when its own record (immutable, with the visitor's rating), its stamp or
 * the dictionary changes, or while it counts down to a busy retry (and, forced, when Copy has news).
 */
class MessageRow extends Component<RowProps> {
  /** Copied or Could not copy, standing in for Copy's icon; drawn by forceUpdate(), which skips the check below. */
  declare copied?: string;

  override shouldComponentUpdate(next: RowProps): boolean {
    return (
      next.message !== this.props.message ||
      next.stamp !== this.props.stamp ||
      next.strings !== this.props.strings ||
      next.message.failure?.reason === 'busy'
    );
  }

  /**
   * Copies the reply as the agent wrote it: its Markdown, which keeps the links' addresses and pastes as
   * text anywhere (and as formatting where Markdown is read). Then Copied, or Could not copy, stands in
   * for the icon for COPIED_MS. A page without the Clipboard API (not a secure context) fails like a
   * refused write.
   */
  copy() {
    const { message, strings } = this.props;
    const show = (copied?: string) => {
      this.copied = copied;
      this.forceUpdate();
    };
    new Promise<void>((done) => done(navigator.clipboard.writeText(message.text)))
      .then(
        () => strings.copied,
        () => strings.copyFailed,
      )
      .then((copied) => {
        show(copied);
        setTimeout(show, COPIED_MS);
      });
  }

  override render(props: RowProps) {
    const { message, strings, title, chat, stamp } = props;
    const { id, role, text, rating, sources, failure } = message;
    const mine = role === 'user';
    const failed = failure && failureNotice(props, failure);
    return (
      <div class={`msg msg--${role}`}>
        <span class="sr">{mine ? strings.you : fmt(strings.agentSaid, { title })} </span>
        <div class="bubble" dir="auto">
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

/** Line count for the rows fallback where field-sizing: content is unsupported; CSS caps the height. */
const MAX_ROWS = 6;

const Composer = reactive(function Composer({ chat, strings }: ChatViewProps) {
  const draft = chat.draft.value;
  const sending = chat.sending.value;
  const error = chat.composerError.value;
  // split() gives at least one line, even for an empty draft.
  const rows = Math.min(MAX_ROWS, draft.split('\n').length);
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        chat.send();
      }}
    >
      {error && (
        <p id="composer-error" role="alert">
          {strings[error]}
        </p>
      )}
      <textarea
        class="input"
        aria-label={strings.messageLabel}
        dir="auto"
        rows={rows}
        value={draft}
        placeholder={strings.messagePlaceholder}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'composer-error' : undefined}
        onInput={(event) => {
          chat.draft.value = event.currentTarget.value;
          // A signal ignores a write of the value it holds: no update when there was no error.
          chat.composerError.value = undefined;
        }}
        onKeyDown={(event) => {
          // Enter sends; Shift+Enter is a newline; an IME composition's Enter is the IME's.
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          chat.send();
        }}
      />
      {/* While a reply is pending Send is Stop, the same element, so focus stays on it. A double click
          on Send must not stop what its first click sent: that second click has a detail of 2. */}
      <button type={sending ? 'button' : 'submit'} class="send" onClick={(event) => sending && event.detail < 2 && chat.stop()}>
        {sending ? strings.chatStop : strings.send}
      </button>
    </form>
  );
});

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
export class ChatView extends Reactive<ChatViewProps> {
  log = createRef<HTMLDivElement>();
  /** At the bottom: the log follows new messages. */
  pinned = true;
  /** Messages came below while the visitor was scrolled up. */
  unseen = signal(false);
  /** How many of the newest messages are drawn; the older ones come as the visitor scrolls up. */
  drawn = signal(MESSAGES_PER_BATCH);
  /** Set while older messages are being added: the message that was drawn first, and how far below the log's top it was. */
  declare anchor?: { row: Element; offset: number };
  // Declared only: view() sets tail before any commit reads them, so no class fields are emitted for them.
  /** The last render's last message and typing indicator (tail), and the ones the log last followed (seen). */
  declare tail: string;
  declare seen?: string;
  declare ticker?: ReturnType<typeof setTimeout>;

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
    clearTimeout(this.ticker);
    super.componentWillUnmount();
  }

  override componentDidUpdate(previous: ChatViewProps): void {
    // Older messages drawn above: what the visitor was reading stays where it was.
    const el = this.log.current;
    if (el && this.anchor) el.scrollTop += this.offsetInLog(this.anchor.row) - this.anchor.offset;
    this.anchor = undefined;
    // On screen, each render brings the stamps up to date and sets the next one, a second away while a busy
    // message counts down; off screen, none.
    clearTimeout(this.ticker);
    if (this.props.visible)
      this.ticker = setTimeout(
        () => this.forceUpdate(),
        this.props.chat.messages.peek().some((m) => m.failure?.reason === 'busy') ? 1000 : STAMP_TICK_MS,
      );
    // New at the end, or shown again: a pinned log goes to the bottom (once); one scrolled up is told.
    const grew = this.tail !== this.seen;
    this.seen = this.tail;
    if (this.pinned && (grew || (this.props.visible && !previous.visible))) this.toBottom();
    else if (grew) this.unseen.value = true;
  }

  view(props: ChatViewProps) {
    const { chat, strings, title, greeting, starters, locale, now } = props;
    const messages = chat.messages.value;
    const sending = chat.sending.value;
    const undo = chat.undo.value;
    this.tail = `${messages.at(-1)?.id} ${sending}`;
    /** How long ago `at` was, in words: "now", then minutes, hours, days ("yesterday"). */
    const ago = (at: number): string => {
      const [count, unit] = sinceIn((now() - at) / 60_000);
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
            {sending && (
              <div class="msg msg--agent">
                <span class="sr">{fmt(strings.typing, { title })}</span>
                <span class="dots" aria-hidden="true">
                  <i />
                  <i />
                  <i />
                </span>
              </div>
            )}
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
