// What the calendar asks the service for, per duration: a month's dates, and where the shown zone's days
// do not line up with the agent's, a day's slots. Each is fetched once and shared by whoever asks (the
// month shown, the check of its days, the prefetch of the next, the search for a first free day, the day
// chosen, the check of a time taken at create, which forgets the day first). A fetch belongs to the
// cache, not to the caller that started it: it is aborted only when every caller that joined it said it
// may stop (its `signal`), so a caller that stops waiting does not abort it for the others. `fetch` also
// aborts on the store's signal, which stops them all.
import { signal } from '@preact/signals';

export interface Cache<T> {
  /** The value for a duration and a month or day, read as a signal; undefined until fetched, or after set() forgets it. */
  read(minutes: number, at: string): T | undefined;
  /**
   * The value for a duration and a month or day: from the cache, from the fetch already on its way, or
   * fetched now. With `signal`, this caller lets the fetch stop when it aborts (and no other caller waits).
   */
  get(minutes: number, at: string, signal?: AbortSignal): Promise<T>;
  /** Replaces a value, or forgets it (undefined), e.g. after a slot in it was taken. */
  set(minutes: number, at: string, value?: T): void;
  clear(): void;
}

/** A fetch on its way: who may still want it. */
interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  /** Callers waiting that may stop; Infinity once one joined that never stops. */
  waiting: number;
}

const cacheKey = (minutes: number, at: string): string => `${minutes}/${at}`;

export function createCache<T>(fetch: (minutes: number, at: string, signal: AbortSignal) => Promise<T>): Cache<T> {
  const values = signal<Record<string, T | undefined>>({});
  const inflight: Record<string, Flight<T> | undefined> = {};
  const set = (minutes: number, at: string, value?: T) => {
    values.value = { ...values.peek(), [cacheKey(minutes, at)]: value };
  };

  const start = (minutes: number, at: string): Flight<T> => {
    const key = cacheKey(minutes, at);
    const controller = new AbortController();
    const promise = fetch(minutes, at, controller.signal)
      .then((value) => {
        set(minutes, at, value);
        return value;
      })
      .finally(() => {
        if (inflight[key] === flight) delete inflight[key];
      });
    const flight: Flight<T> = { promise, controller, waiting: 0 };
    return flight;
  };

  return {
    read: (minutes, at) => values.value[cacheKey(minutes, at)],
    async get(minutes, at, stop) {
      const cached = values.peek()[cacheKey(minutes, at)];
      if (cached !== undefined) return cached;
      if (stop?.aborted) throw stop.reason;
      const flight = (inflight[cacheKey(minutes, at)] ??= start(minutes, at));
      if (!stop) flight.waiting = Infinity;
      else {
        flight.waiting++;
        stop.addEventListener(
          'abort',
          () => {
            flight.waiting--;
            if (flight.waiting > 0) return;
            flight.controller.abort(stop.reason);
            // Gone at once, so a caller that asks next starts afresh rather than joining the aborted fetch.
            if (inflight[cacheKey(minutes, at)] === flight) delete inflight[cacheKey(minutes, at)];
          },
          { once: true },
        );
      }
      return flight.promise;
    },
    set,
    clear() {
      values.value = {};
    },
  };
}
