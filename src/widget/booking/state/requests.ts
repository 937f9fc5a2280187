// The booking stores' requests. Each kind of request runs "newest wins": starting one aborts the one
// before, and an answer that still arrives for an older call is dropped. dispose() aborts them all
// and drops every answer after it, so a destroyed widget neither fetches nor writes state.
import { signal, type Signal } from '@preact/signals-core';
import { anySignal } from '../../../core/http';

/** `done` and `fail` are optional: a prefetch needs neither, its answer lands in a cache. */
export type Run = <T>(
  call: (signal: AbortSignal) => Promise<T>,
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
        let settle: () => void;
        try {
          const value = await call(anySignal(mine.signal, all.signal));
          settle = () => done?.(value);
        } catch (error) {
          settle = () => fail?.(error);
        }
        if (mine !== controller || all.signal.aborted) return;
        pending.value = false;
        settle();
      };
    },
    dispose: () => all.abort(),
  };
};
