// The composer: the draft (kept by the store), Enter to send, and Send that turns into Stop while a reply
// is pending.
import type { ChatViewProps } from './view-props';

/** Line count for the rows fallback where field-sizing: content is unsupported; CSS caps the height. */
const MAX_ROWS = 6;

export function Composer({ chat, strings }: ChatViewProps) {
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
      <button
        type={sending ? 'button' : 'submit'}
        class="send"
        onClick={(event) => {
          if (sending && event.detail < 2) chat.stop();
        }}
      >
        {sending ? strings.chatStop : strings.send}
      </button>
    </form>
  );
}
