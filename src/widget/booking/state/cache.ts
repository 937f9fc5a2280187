// What the calendar asks the service for, per duration: a month's dates, and where the shown zone's days
// do not line up with the agent's, a day's slots. Each is fetched once and shared by whoever asks (the
// month shown, the prefetch of the next, the search for a first free day, the day chosen, the check of
// a time taken at create, which forgets the day first). A fetch
// belongs to the cache, not to the caller that started it: a caller that stops waiting does not abort it
// for the others; `fetch` aborts on the store's signal alone, which stops them all.
import { signal } from '@preact/signals';

export interface Cache<T> {
  /** The value for a duration and a month or day, read as a signal; undefined until fetched, or after set() forgets it. */
  read(minutes: number, at: string): T | undefined;
  /** The value for a duration and a month or day: from the cache, from the fetch already on its way, or fetched now. */
  get(minutes: number, at: string): Promise<T>;
  /** Replaces a value, or forgets it (undefined), e.g. after a slot in it was taken. */
  set(minutes: number, at: string, value?: T): void;
  clear(): void;
}

const cacheKey = (minutes: number, at: string): string => `${minutes}/${at}`;

export function createCache<T>(fetch: (minutes: number, at: string) => Promise<T>): Cache<T> {
  const values = signal<Record<string, T | undefined>>({});
  const inflight: Record<string, Promise<T> | undefined> = {};
  const set = (minutes: number, at: string, value?: T) => {
    values.value = { ...values.peek(), [cacheKey(minutes, at)]: value };
  };

  return {
    read: (minutes, at) => values.value[cacheKey(minutes, at)],
    async get(minutes, at) {
      const key = cacheKey(minutes, at);
      return (
        values.peek()[key] ??
        (inflight[key] ??= fetch(minutes, at)
          .then((value) => {
            set(minutes, at, value);
            return value;
          })
          .finally(() => delete inflight[key]))
      );
    },
    set,
    clear() {
      values.value = {};
    },
  };
}
