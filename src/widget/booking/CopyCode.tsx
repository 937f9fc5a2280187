// The booking code with a button that copies it: the code is what the visitor needs later (My booking,
// a call to the business), and typing BK-XXXXXX from the screen invites mistakes.
import { Component } from 'preact';
import type { Strings } from '../i18n';

/** How long Copied (or Could not copy) stands in for the button's label. */
const COPIED_MS = 2000;

interface CopyCodeProps {
  code: string;
  t: Strings;
}

export class CopyCode extends Component<CopyCodeProps, { said: string | undefined }> {
  override state = { said: undefined };
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;

  override componentWillUnmount(): void {
    clearTimeout(this.timer);
  }

  private copy = () => {
    const { code, t } = this.props;
    // Made inside a promise, so a page without the Clipboard API (not a secure context) is a refusal like any other.
    new Promise<void>((done) => done(navigator.clipboard.writeText(code)))
      .then(
        () => t.copied,
        () => t.copyFailed,
      )
      .then((said) => {
        this.setState({ said });
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.setState({ said: undefined }), COPIED_MS);
      });
  };

  override render({ code, t }: CopyCodeProps, { said }: { said: string | undefined }) {
    return (
      <span class="copy-code">
        <strong class="code" dir="ltr">
          {code}
        </strong>{' '}
        {/* The label changes to Copied: the button keeps focus, and its new name is read out. */}
        <button type="button" class="link" onClick={this.copy} aria-live="polite">
          {said ?? t.copyCode}
        </button>
      </span>
    );
  }
}
