// Copy, told: whatever goes on the clipboard (a reply, a booking code), the control says Copied, or Could
// not copy when the browser refuses, for COPIED_MS.

/** How long Copied (or Could not copy) stands in for the control's own label or icon. */
export const COPIED_MS = 2000;

interface CopyWords {
  copied: string;
  copyFailed: string;
}

/**
 * Runs `write`, then calls `show` with what to say, and with undefined COPIED_MS later. `write` runs inside
 * a promise, so anything it throws (no Clipboard API outside a secure context) is a refusal like any
 * other. Returns what stops the pending reset (a control going away).
 */
export function copyWithFeedback(write: () => Promise<void>, words: CopyWords, show: (said: string | undefined) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  new Promise<void>((done) => done(write()))
    .then(
      () => words.copied,
      () => words.copyFailed,
    )
    .then((said) => {
      show(said);
      timer = setTimeout(() => show(undefined), COPIED_MS);
    });
  return () => clearTimeout(timer);
}
