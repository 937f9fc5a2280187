// Questions on the terminal: a line typed with echo, a secret typed without it, and a secret piped in.
import { createInterface } from 'node:readline/promises';
import { ReadStream } from 'node:tty';
import { CliError, usageError } from './errors';

export type Input = NodeJS.ReadableStream & { isTTY?: boolean };

/** A key is a few dozen characters; a bound keeps a wrong pipe (a whole file) from being read whole. */
const MAX_SECRET_CHARS = 1024;

/** One line typed on the terminal (it echoes the answer itself); undefined when stdin is not a terminal. */
export async function askLine(stdin: Input, prompt: () => void, signal?: AbortSignal): Promise<string | undefined> {
  if (stdin.isTTY !== true) return undefined;
  // No `output`: the question goes through the CLI's redacting writer (`prompt`).
  const rl = createInterface({ input: stdin });
  prompt();
  try {
    return (await rl.question('', { signal })).trim();
  } catch {
    throw new CliError('Stopped.', 'interrupted');
  } finally {
    rl.close();
  }
}

/** Arrow keys, bracketed-paste marks and other escape sequences a terminal sends, which are not typed text. */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\u001b(\[[0-9;?]*[~A-Za-z]|O.|.)?/g;

/**
 * A secret typed on the terminal with echo off (raw mode: nothing typed is shown); Enter ends it,
 * Backspace and Ctrl-U edit it, Ctrl-C stops (raw mode turns it into a character, not a signal).
 * Undefined when stdin is not a terminal.
 */
export function askHidden(stdin: Input, prompt: () => void, signal?: AbortSignal): Promise<string | undefined> {
  if (!(stdin instanceof ReadStream) || !stdin.isTTY) return Promise.resolve(undefined);
  const terminal = stdin;
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const finish = (end: () => void): void => {
      terminal.off('data', onData);
      signal?.removeEventListener('abort', onAbort);
      terminal.setRawMode(false);
      terminal.pause();
      end();
    };
    const onAbort = (): void => finish(() => reject(new CliError('Stopped.', 'interrupted')));
    const onData = (chunk: Buffer | string): void => {
      for (const char of String(chunk).replace(ESCAPE_SEQUENCE, '')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish(() => resolve(typed.join('')));
        if (char === '\u0003') return onAbort();
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char === '\u0015') typed = [];
        else if (char >= ' ' && typed.length < MAX_SECRET_CHARS) typed.push(char);
      }
    };
    terminal.setRawMode(true);
    // Asked only now: whatever is typed once the question shows is not echoed.
    prompt();
    terminal.setEncoding('utf8');
    terminal.on('data', onData);
    signal?.addEventListener('abort', onAbort, { once: true });
    terminal.resume();
  });
}

/** The first line piped to stdin (`echo "$KEY" | agent-widget login --with-key`), read up to a bound. */
export async function readPiped(stdin: Input, what: string): Promise<string> {
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.length > MAX_SECRET_CHARS * 4)
      throw usageError(`More than ${MAX_SECRET_CHARS * 4} characters came on stdin; pipe ${what} only.`);
  }
  return (text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').trim();
}
