// The chat view: the message log (keyed, memoised rows, pinned to the bottom unless the visitor
// scrolled up), notices with their one action (a failure's, New conversation's Undo), the typing
// indicator and the composer.
import { Component, createRef } from 'preact';
import { signal } from '@preact/signals-core';
import { reactive, Reactive } from '../platform/reactive';
import { fmt, plural } from '../i18n/format';
import type { Strings } from '../i18n';
import { downIcon } from '../shell/icons';
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

/** How long ago `at` was, in `relative`'s words: "now", then minutes, hours, days ("yesterday"). */
const ago = (relative: Intl.RelativeTimeFormat, at: number, now: number): string => {
  const minutes = (now - at) / 60_000;
  const [count, unit]: [number, Intl.RelativeTimeFormatUnit] =
    minutes < 1 ? [0, 'second'] : minutes < 60 ? [minutes, 'minute'] : minutes < 1440 ? [minutes / 60, 'hour'] : [minutes / 1440, 'day'];
  return relative.format(-Math.floor(count), unit);
};

/**
 * The seconds left until a busy message's retry; the log draws it anew every second while one waits. Read
 * out once in words: the number changes every second.
 */
function countdown({ message, strings, locale, now }: RowProps) {
  // The store sets retryAt on every busy failure; without one the countdown would show 0 either way.
  const seconds = Math.max(0, Math.ceil(((message.failure?.retryAt ?? 0) - now()) / 1000));
  return (
    <p class="notice">
      <span aria-hidden="true">{plural(locale, strings.chatBusy, seconds)}</span>
      <span class="sr">{strings.chatBusyAnnounce}</span>
    </p>
  );
}

/** The notice under a failed message, with its one action: Retry, or Book a time after a 402. */
function failureNotice(props: RowProps) {
  const { message, strings, chat, openBooking } = props;
  const reason = message.failure?.reason;
  if (!reason) return null;
  if (reason === 'busy') return countdown(props);
  if (reason === 'unavailable') return notice(strings.chatUnavailable, openBooking, strings.chatOpenBooking);
  if (reason === 'misconfigured') return notice(strings.chatMisconfigured);
  const text = {
    offline: strings.chatOffline,
    unreachable: strings.chatUnreachable,
    failed: strings.chatFailed,
    'still-busy': strings.chatStillBusy,
    stopped: strings.chatStopped,
  }[reason];
  return notice(text, () => chat.retry(message.id), strings.chatRetry);
}

/** A notice in the log, with its one action when it has one. */
const notice = (text: string, action?: () => void, label?: string) => (
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

function sourceList({ message: { sources }, strings }: RowProps) {
  return sources?.length ? (
    <div class="sources">
      <p class="sources-title">{strings.sources}</p>
      <ul>
        {/* Unkeyed: matched by position, which is all an index key would say. */}
        {sources.map(({ title, url = '' }) => (
          <li>{link(url, title ?? url, strings.opensNewTab)}</li>
        ))}
      </ul>
    </div>
  ) : null;
}

/**
 * One message; re-renders only when its own record (immutable), its stamp or the dictionary changes, or
 * while it counts down to a busy retry.
 */
class MessageRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return (
      next.message !== this.props.message ||
      next.stamp !== this.props.stamp ||
      next.strings !== this.props.strings ||
      next.message.failure?.reason === 'busy'
    );
  }

  override render(props: RowProps) {
    const { message, strings, title } = props;
    const mine = message.role === 'user';
    return (
      <div class={`msg msg--${message.role}`}>
        <span class="sr">{mine ? strings.you : fmt(strings.agentSaid, { title })} </span>
        <div class="bubble" dir="auto">{mine ? <p>{message.text}</p> : renderMarkdown(message.text, strings.opensNewTab)}</div>
        {mine ? failureNotice(props) : sourceList(props)}
        {/* Hidden from screen readers: in the live log each change would be read out again. */}
        {props.stamp && (
          <time aria-hidden="true">
            {props.stamp}
          </time>
        )}
      </div>
    );
  }
}

/** Whether the last exchange is about booking: one of `phrases` (|-separated) is among a message's words. */
const aboutBooking = (messages: ChatMessage[], phrases: string): boolean => {
  const wanted = phrases.toLowerCase().split('|').filter(Boolean);
  return messages.slice(-2).some(({ text }) => {
    // The text lower case between spaces, each run of what is not a letter one space.
    const words = ` ${text.toLowerCase().replace(/\P{L}+/gu, ' ')} `;
    return wanted.some((phrase) => words.includes(phrase));
  });
};

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
        <p id="composer-error" class="composer-error" role="alert">
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
      <button
        type={sending ? 'button' : 'submit'}
        class="send"
        onClick={(event) => sending && event.detail < 2 && chat.stop()}
      >
        {sending ? strings.chatStop : strings.send}
      </button>
    </form>
  );
});

/** Within this many pixels of the end, the log counts as "at the bottom" and follows new messages. */
const PIN_SLACK = 40;

/** The log and, under it, the composer. */
export class ChatView extends Reactive<ChatViewProps> {
  log = createRef<HTMLDivElement>();
  /** At the bottom: the log follows new messages. */
  pinned = true;
  /** Messages came below while the visitor was scrolled up. */
  unseen = signal(false);
  // Declared only: view() sets tail before any commit reads them, so no class fields are emitted for them.
  /** The last render's last message and typing indicator, and the ones the log last followed. */
  declare tail: string;
  declare followed?: string;
  declare ticker?: ReturnType<typeof setTimeout>;

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
    // On screen, each render brings the stamps up to date and sets the next one, a second away while a busy
    // message counts down; off screen, none.
    clearTimeout(this.ticker);
    if (this.props.visible)
      this.ticker = setTimeout(
        () => this.forceUpdate(),
        this.props.chat.messages.peek().some((m) => m.failure?.reason === 'busy') ? 1000 : STAMP_TICK_MS,
      );
    // New at the end, or shown again: a pinned log goes to the bottom (once); one scrolled up is told.
    const grew = this.tail !== this.followed;
    this.followed = this.tail;
    if (this.pinned && (grew || (this.props.visible && !previous.visible))) this.toBottom();
    else if (grew) this.unseen.value = true;
  }

  view(props: ChatViewProps) {
    const { chat, strings, title, greeting, starters, locale, now } = props;
    const messages = chat.messages.value;
    const sending = chat.sending.value;
    const undo = chat.undo.value;
    this.tail = `${messages.at(-1)?.id} ${sending}`;
    // One per render, shared by the stamps: making one costs about a hundred times what formatting does.
    const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });

    const onScroll = () => {
      const el = this.log.current;
      if (!el) return;
      this.pinned = el.scrollHeight - el.scrollTop - el.clientHeight <= PIN_SLACK;
      if (this.pinned) this.unseen.value = false;
    };

    return (
      <div class="chat">
        <div class="log-wrap">
          {/* Focusable so keyboard users can scroll it; polite so replies are read without interrupting. */}
          <div ref={this.log} class="log" part="messages" role="log" aria-live="polite" aria-label={strings.conversation} tabIndex={0} onScroll={onScroll}>
            <div class="msg msg--agent">
              <div class="bubble" dir="auto">
                <p>{greeting}</p>
              </div>
            </div>
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
            {messages.map((message, i) => (
              <MessageRow
                key={message.id}
                {...props}
                message={message}
                stamp={(messages[i + 1]?.at ?? Infinity) - message.at < BURST_MS ? '' : ago(relative, message.at, now())}
              />
            ))}
            {/* The last exchange is about booking: one click opens it, with this conversation's id. Not after a
                message that did not go through: its notice has the one action (Retry, or a Book a time of its own). */}
            {!messages.at(-1)?.failure && aboutBooking(messages, strings.bookingPhrases) && (
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
              {downIcon()} {strings.jumpToNew}
            </button>
          )}
        </div>
        <Composer {...props} />
      </div>
    );
  }
}
