// The booking code with a button that copies it: the code is what the visitor needs later (My booking,
// a call to the business), and typing BK-XXXXXX from the screen invites mistakes.
import { Component } from 'preact';
import type { Strings } from '../i18n';
import { copyWithFeedback } from '../platform/copy-feedback';

interface CopyCodeProps {
  code: string;
  t: Strings;
}

export class CopyCode extends Component<CopyCodeProps, { said: string | undefined }> {
  override state = { said: undefined };
  /** Stops Copied's pending reset. */
  private stopCopied: () => void = () => undefined;

  override componentWillUnmount(): void {
    this.stopCopied();
  }

  private copy = () => {
    const { code, t } = this.props;
    this.stopCopied();
    this.stopCopied = copyWithFeedback(
      () => navigator.clipboard.writeText(code),
      t,
      (said) => this.setState({ said }),
    );
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
