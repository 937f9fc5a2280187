// The CLI's own files in its config directory (the config, the upload record): read once and bounded,
// written whole and readable by their owner only.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The system's code for a failed file operation (`EACCES`), as said to the user. */
export const systemReason = (error: unknown): string => (error instanceof Error && 'code' in error ? String(error.code) : 'unreadable');

/** A file larger than its reader allows: not ours, or damaged. */
export class FileTooLarge extends Error {
  override readonly name = 'FileTooLarge';
}

/**
 * The file's text and mode, through one handle (its size and its text are of the same file); undefined
 * when it does not exist. Throws FileTooLarge over `maxBytes`, else the system's error.
 */
export async function readPrivateFile(file: string, maxBytes: number): Promise<{ text: string; mode: number } | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size, mode } = await handle.stat();
    if (size > maxBytes) throw new FileTooLarge(`${file} is larger than ${maxBytes} bytes`);
    return { text: await handle.readFile('utf8'), mode };
  } finally {
    await handle.close();
  }
}

/**
 * Writes `text` whole: a new file made 0600 from the start, then renamed over the old one, so a crash
 * never leaves half a file and nobody else can read it, not even for a moment. The directory is made
 * 0700 when it is made; an existing one keeps its mode (AGENT_WIDGET_CONFIG_DIR may name a shared one).
 */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  const directory = dirname(file);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const temporary = join(directory, `.${basename(file)}-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}
