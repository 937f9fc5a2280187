// An upload's progress on stderr: on a terminal one line redrawn in place (bytes sent, size, percent);
// elsewhere (CI, pipes, --json) a plain line only when an upload goes on for HEARTBEAT_MS, so a log never
// looks stuck and a short upload adds nothing. stdout never gets any of it.
import yoctoSpinner from 'yocto-spinner';
import type { Output } from './output';
import { formatBytes, formatElapsed } from './render';
import { plain } from './text';
import { HEARTBEAT_MS } from './wait';

export interface UploadMeter {
  /** The file's bytes handed to the connection so far. */
  update(sent: number): void;
  /** Ends the meter: on a terminal the line goes; after a failure it stays, marked, with how far it got. */
  stop(failed?: boolean): void;
  /** How far it got, e.g. `1.2 MiB of 3 MiB (40%)`. */
  readonly sofar: string;
}

/** The terminal's line is redrawn at most this often, whatever the size of the chunks. */
const REDRAW_MS = 100;

export function uploadMeter(out: Output, name: string, total: number, now: () => number = Date.now): UploadMeter {
  let sent = 0;
  const started = now();
  const sofar = (): string => `${formatBytes(sent)} of ${formatBytes(total)} (${total === 0 ? 100 : Math.floor((sent / total) * 100)}%)`;
  // Once every byte is handed over, what is left is the service's answer (it may still be reading them).
  const text = (): string => out.clean(`Uploading ${plain(name)}: ${sofar()}${sent >= total ? ', waiting for the answer' : ''}`);

  const spinner = out.live ? yoctoSpinner({ stream: out.live, handleSignals: false, text: text() }).start() : undefined;
  let drawnAt = started;
  const heartbeat = spinner
    ? undefined
    : setInterval(() => out.note(`Uploading ${plain(name)}: ${sofar()} after ${formatElapsed(now() - started)}`), HEARTBEAT_MS);

  return {
    update(bytes) {
      sent = bytes;
      if (spinner === undefined || (now() - drawnAt < REDRAW_MS && sent < total)) return;
      drawnAt = now();
      spinner.text = text();
    },
    stop(failed = false) {
      clearInterval(heartbeat);
      if (spinner === undefined) return;
      if (failed) spinner.stop(`${out.colors.red('✖')} ${out.clean(`${plain(name)}: ${sofar()} sent`)}`);
      else spinner.stop();
    },
    get sofar() {
      return sofar();
    },
  };
}
