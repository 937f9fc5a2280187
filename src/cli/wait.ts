// --wait: follows a server-side job stage by stage. On a terminal one line redraws with the stage and
// the elapsed time (yocto-spinner: it also keeps other writes from tearing the line); elsewhere each
// stage is one plain line, and a stage that goes on gets a `still …` line every 30 s. Stopping the wait
// (timeout, Ctrl-C) never cancels the job on the service. The stages seen go into the run's progress, so a
// --json error after them still carries the status so far.
import yoctoSpinner from 'yocto-spinner';
import { ApiError } from '../core/http';
import type { WaitOptions } from '../server/poll';
import type { Context } from './command';
import { CliError } from './errors';
import type { Stage } from './json-error';
import { formatElapsed } from './render';
import { plain } from './text';

export interface Job<R> {
  /** e.g. `Web source ws_1`. */
  label: string;
  /** What goes on when we stop waiting, e.g. `training`. */
  work: string;
  wait(options: WaitOptions<string>): Promise<R>;
}

export interface Waited<R> {
  result: R;
  elapsedMs: number;
  stages: Stage[];
}

/** In CI and pipes, a stage that lasts this long gets a line saying it still does, so a log never looks stuck. */
export const HEARTBEAT_MS = 30_000;

export async function waitFor<R>(
  ctx: Pick<Context, 'out' | 'signal' | 'progress'>,
  job: Job<R>,
  timing: { timeoutMs: number; intervalMs: number },
): Promise<Waited<R>> {
  const { out } = ctx;
  const started = Date.now();
  const elapsed = (): number => Date.now() - started;
  const stages: Stage[] = [];
  ctx.progress.stages = stages;
  const current = (): string => stages.at(-1)?.status ?? 'starting';
  const text = (): string => out.clean(`${job.label}: ${current()} · ${formatElapsed(elapsed())}`);

  // Its end lines carry our symbols, coloured as the rest of the output is (index.ts makes --no-color reach
  // the spinner's own frame colour too).
  const spinner = out.live ? yoctoSpinner({ stream: out.live, handleSignals: false, text: text() }) : undefined;
  const ticker = spinner
    ? setInterval(() => {
        spinner.text = text();
      }, 1000)
    : undefined;
  spinner?.start();

  // Without the spinner: after each line, another one when nothing was said for HEARTBEAT_MS.
  let heartbeat: ReturnType<typeof setTimeout> | undefined;
  const beatLater = (): void => {
    clearTimeout(heartbeat);
    heartbeat = setTimeout(() => {
      out.note(`${job.label}: still ${current()} after ${formatElapsed(elapsed())}`);
      beatLater();
    }, HEARTBEAT_MS);
  };

  const onProgress = (status: string): void => {
    const previous = stages.at(-1);
    const shown = plain(status);
    ctx.progress.status = shown;
    stages.push({ status: shown, elapsedMs: elapsed() });
    if (spinner) {
      if (previous)
        out.note(`${out.colors.green('✔')} ${previous.status} ${out.colors.dim(formatElapsed(elapsed() - previous.elapsedMs))}`);
      spinner.text = text();
    } else {
      out.note(`${job.label}: ${plain(status)} (${formatElapsed(elapsed())})`);
      beatLater();
    }
  };

  try {
    const result = await job.wait({ ...timing, onProgress, signal: ctx.signal });
    spinner?.stop(`${out.colors.green('✔')} ${out.clean(`${job.label}: ${current()} in ${formatElapsed(elapsed())}`)}`);
    return { result, elapsedMs: elapsed(), stages };
  } catch (error) {
    spinner?.stop(`${out.colors.red('✖')} ${out.clean(`${job.label}: ${current()} after ${formatElapsed(elapsed())}`)}`);
    const goesOn = `${job.work} goes on on the service`;
    if (error instanceof ApiError && error.kind === 'aborted')
      throw new CliError(`Stopped waiting after ${formatElapsed(elapsed())}; ${goesOn}.`, 'interrupted');
    if (error instanceof ApiError && error.kind === 'timeout' && elapsed() >= timing.timeoutMs)
      throw new CliError(
        `${job.label} was not done within ${formatElapsed(timing.timeoutMs)} (last stage: ${current()}); ${goesOn}.`,
        'wait_timeout',
      );
    throw error;
  } finally {
    if (ticker) clearInterval(ticker);
    clearTimeout(heartbeat);
  }
}

export const WAIT_OPTIONS = {
  wait: { type: 'boolean', description: 'Wait until the work is done, showing each stage.' },
  timeout: { type: 'string', value: 'seconds', description: 'With --wait: give up waiting after this long (default 600).' },
  interval: { type: 'string', value: 'seconds', description: 'With --wait: time between status checks (default 2).' },
} as const;
