// Waiting for asynchronous work (document processing, web-source training) by polling its status,
// with an injectable clock and sleep so tests never wait in real time.
import { ApiError } from '../core/http';
import { check } from '../core/validate';
import { cancelledError, ProcessingError } from './errors';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout, cut short (rejecting with an `aborted` ApiError) when `signal` fires. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelledError(signal.reason));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface WaitOptions<S extends string> {
  signal?: AbortSignal;
  /** Give up (an ApiError of kind `timeout`) after this long. Default 10 minutes. */
  timeoutMs?: number;
  /** Time between polls. Default 2000. */
  intervalMs?: number;
  /** Called with the first status seen and with every change after it. */
  onProgress?: (status: S) => void;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 2000;

export interface PollTarget<S extends string, R> {
  resource: 'document' | 'webSource';
  id: string;
  /** One status request. */
  read: (signal: AbortSignal | undefined) => Promise<R>;
  statusOf: (result: R) => S | undefined;
  isDone: (status: S) => boolean;
  isFailed: (status: S) => boolean;
}

export interface PollClock {
  now: () => number;
  sleep: Sleep;
}

const LABEL = { document: 'Document', webSource: 'Web source' } as const;

export async function pollUntilDone<S extends string, R>(target: PollTarget<S, R>, options: WaitOptions<S>, clock: PollClock): Promise<R> {
  const { signal, onProgress } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  check(Number.isFinite(timeoutMs) && timeoutMs > 0, 'timeoutMs', 'expected a positive number of milliseconds.');
  check(Number.isFinite(intervalMs) && intervalMs > 0, 'intervalMs', 'expected a positive number of milliseconds.');

  const label = `${LABEL[target.resource]} ${target.id}`;
  const deadline = clock.now() + timeoutMs;
  let last: S | undefined;
  for (;;) {
    if (signal?.aborted) throw cancelledError(signal.reason);
    const result = await target.read(signal);
    const status = target.statusOf(result);
    if (status !== undefined && status !== last) {
      last = status;
      onProgress?.(status);
    }
    if (status !== undefined && target.isDone(status)) return result;
    if (status !== undefined && target.isFailed(status))
      throw new ProcessingError(`${label} failed (status: ${status}).`, target.resource, target.id, status);
    const remaining = deadline - clock.now();
    if (remaining <= 0)
      throw new ApiError(`${label} was not done within ${timeoutMs} ms (last status: ${last ?? 'none yet'}).`, {
        kind: 'timeout',
      });
    await clock.sleep(Math.min(intervalMs, remaining), signal);
  }
}
