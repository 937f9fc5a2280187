// The chat view: the message log (keyed, memoised rows, pinned to the bottom unless the visitor
// scrolled up), failure notices with their one action, the typing indicator and the composer.
import { Component } from 'preact';
import { signal } from '@preact/signals-core';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { reactive } from '../platform/reactive';
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
}

type RowProps = ChatViewProps & { message: ChatMessage };

const Countdown = reactive(function Countdown({ until, strings, locale, now }: { until: number } & ChatViewProps) {
  const left = () => Math.max(0, Math.ceil((until - now()) / 1000));
  const seconds = useMemo(() => signal(left()), []);
  useEffect(() => {
    const tick = () => (seconds.value = left());
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return (
    <p class="aw-notice">
      {/* The number changes every second: shown, but announced once in words instead. */}
      <span aria-hidden="true">{plural(locale, strings.chatBusy, seconds.value)}</span>
      <span class="aw-sr">{strings.chatBusyAnnounce}</span>
    </p>
  );
});

/** The notice under a failed message, with its one action: Retry, or Book a time after a 402. */
function Failure(props: RowProps) {
  const { message, strings, chat, openBooking } = props;
  const failure = message.failure;
  if (!failure) return null;
  const { reason } = failure;
  if (reason === 'busy') return <Countdown until={failure.retryAt ?? props.now()} {...props} />;
  const [text, action, label] =
    reason === 'unavailable'
      ? [strings.chatUnavailable, openBooking, strings.chatOpenBooking]
      : reason === 'misconfigured'
        ? [strings.chatMisconfigured]
        : [
            { offline: strings.chatOffline, failed: strings.chatFailed, 'still-busy': strings.chatStillBusy }[reason],
            () => chat.retry(message.id),
            strings.chatRetry,
          ];
  return (
    <p class="aw-notice">
      {text}
      {action && (
        <>
          {' '}
          <button type="button" class="aw-link-button" onClick={action}>
            {label}
          </button>
        </>
      )}
    </p>
  );
}

function Sources({ message: { sources = [] }, strings }: RowProps) {
  return sources.length ? (
    <div class="aw-sources">
      <p class="aw-sources-title">{strings.sources}</p>
      <ul>
        {sources.map(({ title, url = '' }, i) => (
          <li key={i}>{link(url, title ?? url, strings.opensNewTab)}</li>
        ))}
      </ul>
    </div>
  ) : null;
}

/** One message; re-renders only when its own record (immutable) or the dictionary changes. */
class MessageRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    return next.message !== this.props.message || next.strings !== this.props.strings;
  }

  override render(props: RowProps) {
    const { message, strings, title } = props;
    const mine = message.role === 'user';
    return (
      <div class={`aw-msg aw-msg--${message.role}${message.status === 'sending' ? ' aw-msg--sending' : ''}`}>
        <span class="aw-sr">{mine ? strings.you : fmt(strings.agentSaid, { title })} </span>
        <div class="aw-bubble" dir="auto">{mine ? <p>{message.text}</p> : renderMarkdown(message.text, strings.opensNewTab)}</div>
        {mine ? <Failure {...props} /> : <Sources {...props} />}
      </div>
    );
  }
}

/** Within this many pixels of the end, the log counts as "at the bottom" and follows new messages. */
const PIN_SLACK = 40;

const MessageList = reactive(function MessageList(props: ChatViewProps) {
  const { chat, strings, title, greeting, visible } = props;
  const log = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const unseen = useMemo(() => signal(false), []);
  const messages = chat.messages.value;
  const sending = chat.sending.value;
  const last = messages[messages.length - 1]?.id;

  const toBottom = () => {
    const el = log.current;
    // With only the greeting there is nothing to scroll; reading scrollHeight would force a layout.
    if (el && (last || sending)) el.scrollTop = el.scrollHeight;
    pinned.current = true;
    unseen.value = false;
  };
  useLayoutEffect(() => {
    if (pinned.current) toBottom();
    else unseen.value = true;
  }, [last, sending]);
  useLayoutEffect(() => {
    if (visible && pinned.current) toBottom();
  }, [visible]);

  const onScroll = () => {
    const el = log.current;
    if (!el) return;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight <= PIN_SLACK;
    if (pinned.current) unseen.value = false;
  };

  return (
    <div class="aw-log-wrap">
      {/* Focusable so keyboard users can scroll it; polite so replies are read without interrupting. */}
      <div ref={log} class="aw-log" role="log" aria-live="polite" aria-label={strings.conversation} tabIndex={0} onScroll={onScroll}>
        <div class="aw-msg aw-msg--agent">
          <div class="aw-bubble" dir="auto">
            <p>{greeting}</p>
          </div>
        </div>
        {messages.map((message) => (
          <MessageRow key={message.id} {...props} message={message} />
        ))}
        {sending && (
          <div class="aw-msg aw-msg--agent aw-typing">
            <span class="aw-sr">{fmt(strings.typing, { title })}</span>
            <span class="aw-dots" aria-hidden="true">
              <i />
              <i />
              <i />
            </span>
          </div>
        )}
      </div>
      {unseen.value && (
        <button type="button" class="aw-jump" onClick={toBottom}>
          {downIcon()} {strings.jumpToNew}
        </button>
      )}
    </div>
  );
});

/** Line count for the rows fallback where field-sizing: content is unsupported; CSS caps the height. */
const MAX_ROWS = 6;

const Composer = reactive(function Composer({ chat, strings }: ChatViewProps) {
  const draft = chat.draft.value;
  const error = chat.composerError.value;
  const sending = chat.sending.value;
  const rows = Math.min(MAX_ROWS, Math.max(1, draft.split('\n').length));
  return (
    <form
      class="aw-composer"
      onSubmit={(event) => {
        event.preventDefault();
        chat.send();
      }}
    >
      {error && (
        <p id="aw-composer-error" class="aw-composer-error" role="alert">
          {strings[error]}
        </p>
      )}
      <label for="aw-input" class="aw-sr">
        {strings.messageLabel}
      </label>
      <textarea
        id="aw-input"
        class="aw-input"
        dir="auto"
        rows={rows}
        value={draft}
        placeholder={strings.messagePlaceholder}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'aw-composer-error' : undefined}
        onInput={(event) => {
          chat.draft.value = event.currentTarget.value;
          if (chat.composerError.value) chat.composerError.value = undefined;
        }}
        onKeyDown={(event) => {
          // Enter sends; Shift+Enter is a newline; an IME composition's Enter is the IME's.
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          chat.send();
        }}
      />
      <button type="submit" class="aw-send" disabled={sending}>
        {strings.send}
      </button>
    </form>
  );
});

export function ChatView(props: ChatViewProps) {
  return (
    <div class="aw-chat">
      <MessageList {...props} />
      <Composer {...props} />
    </div>
  );
}
