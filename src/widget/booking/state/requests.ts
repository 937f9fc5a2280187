// The booking stores' requests. Each kind of request runs "newest wins": starting one aborts the one
// before, and an answer that still arrives for an older call is dropped. dispose() aborts them all
// and drops every answer after it, so a destroyed widget neither fetches nor writes state.
import { signal, type Signal } from '@preact/signals';
import type { CallOptions } from '../../../core/booking-client';
import { anySignal } from '../../../core/http';

/** `call` gets the client's call options (the run's signal); `done` and `fail` are optional: a prefetch needs neither, its answer lands in a cache. */
export type Run = <T>(
  call: (options: CallOptions) => Promise<T>,
  done?: (value: T) => void,
  fail?: (error: unknown) => void,
) => Promise<void>;

export interface Requests {
  /** The stores' signal: aborted on dispose. */
  readonly signal: AbortSignal;
  /** A newest-wins runner; `pending` is true while its newest call runs. */
  latest(pending?: Signal<boolean>): Run;
  dispose(): void;
}

export const createRequests = (): Requests => {
  const all = new AbortController();
  return {
    signal: all.signal,
    latest(pending = signal(false)) {
      let controller: AbortController | undefined;
      return async (call, done, fail) => {
        controller?.abort();
        if (all.signal.aborted) return;
        const mine = (controller = new AbortController());
        pending.value = true;
        // What to do with the answer, done only when it is still the newest call's.
        const settle = await call({ signal: anySignal(mine.signal, all.signal) }).then(
          (value) => () => done?.(value),
          (error: unknown) => () => fail?.(error),
        );
        if (mine !== controller || all.signal.aborted) return;
        pending.value = false;
        settle();
      };
    },
    dispose: () => all.abort(),
  };
};
