// The visitor's data per agent, in the storage the owner chose (data-persist), each entry stamped so
// it expires after TTL_MS. Every access is guarded: blocked or full storage degrades to memory. All
// the widgets on a page share one budget in each storage area; the rest of it is the host page's.
import { VISITOR_CONVERSATION_PREFIX } from '../../core/spec-assumptions';
import { isRecord } from '../../core/guards';
import { attempt } from '../../core/attempt';
import type { Persist } from '../options/options';
import { lazy } from './lazy';
import { listen } from './listen';

export const TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Characters (UTF-16 code units, what browsers count against their ~5 million per origin) that the
 * keys of every widget on the page may hold together in one storage area: a tenth of the quota.
 */
export const MAX_STORED_CHARS = 500_000;

export type Entry = 'chat' | 'bookings' | 'booking-progress' | 'visitor' | 'teaser' | 'page';

export interface Store {
  read(entry: Entry): unknown;
  /** False when not stored (over the budget, storage full or blocked): the previous value stays. */
  write(entry: Entry, value: unknown): boolean;
  remove(entry: Entry): void;
  /** `listener` runs when another tab changes `entry` (undefined: removed or expired) until the returned stop is called. */
  watch(entry: Entry, listener: (value: unknown) => void): () => void;
}

export interface StoreEnv {
  win: Window;
  now: () => number;
}

const PREFIX = 'agent-widget:';

export const storageKey = (agentId: string, entry: Entry): string => `${PREFIX}${agentId}:${entry}`;

/** What the store uses of a storage area; memory stands in for one with the same three. */
type Area = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function createStore(kind: Persist, agentId: string, { win, now }: StoreEnv): Store {
  // Without usable storage the data lives as long as the page; nothing is written anywhere.
  // Keyed by storageKey(), all prefixed: no key can name a property of the object itself.
  const memory: Record<string, string> = {};
  const inMemory: Area = {
    getItem: (key) => memory[key] ?? null,
    setItem(key, value) {
      memory[key] = value;
    },
    removeItem(key) {
      delete memory[key];
    },
  };
  /**
   * The storage area, opened on first use (touching localStorage costs the host page 6-14 ms at 4x CPU,
   * the bench's trace), or memory where there is none to use: reading it throws where storage is blocked.
   */
  const storage = lazy((): Area => attempt(() => (kind === 'none' ? null : win[`${kind}Storage`])) ?? inMemory);
  const keyOf = (entry: Entry) => storageKey(agentId, entry);
  // Quota, privacy mode or blocked storage: the page keeps working with what it has in memory.
  const remove = (key: string) => attempt(() => storage().removeItem(key));

  /** The stored value when fresh; an expired or unreadable entry is removed. */
  const unwrap = (key: string, raw: string | null): unknown => {
    if (raw === null) return undefined;
    const parsed = attempt((): unknown => JSON.parse(raw));
    if (isRecord(parsed) && typeof parsed.at === 'number' && now() - parsed.at <= TTL_MS && 'value' in parsed) return parsed.value;
    remove(key);
    return undefined;
  };

  return {
    read: (entry) => attempt(() => unwrap(keyOf(entry), storage().getItem(keyOf(entry)))),
    write(entry, value) {
      const key = keyOf(entry);
      return !!attempt(() => {
        const raw = JSON.stringify({ at: now(), value });
        const target = storage();
        let used = key.length + raw.length;
        // Other agents' and entries' keys, in this tab or another, count too; the host's do not.
        // Read as a Storage: memory's own entries are its three methods, none prefixed, so it counts nothing.
        for (const [other, stored] of Object.entries<string>(target as Storage))
          if (other.startsWith(PREFIX) && other !== key) used += other.length + stored.length;
        if (used > MAX_STORED_CHARS) return false;
        target.setItem(key, raw);
        return true;
      });
    },
    remove: (entry) => remove(keyOf(entry)),
    watch(entry, listener) {
      const key = keyOf(entry);
      return listen(win, 'storage', (event: StorageEvent) => {
        // Only the area in use: never memory, which no event names. A null key: the whole area was
        // cleared, and the null newValue unwraps to undefined.
        if (event.storageArea === storage() && (event.key === null || event.key === key)) listener(unwrap(key, event.newValue));
      });
    },
  };
}

/** An unguessable id: 32 hex digits. getRandomValues works outside secure contexts too, unlike randomUUID. */
export const randomId = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export const isText = (v: unknown): v is string => typeof v === 'string';

export interface VisitorId {
  /** The stored id, or a new one, persisted on first use (only booking asks for it). */
  get(): string;
  clear(): void;
}

export const createVisitorId = (store: Store): VisitorId => ({
  get() {
    const stored = store.read('visitor');
    if (isText(stored) && stored) return stored;
    const id = VISITOR_CONVERSATION_PREFIX + randomId();
    store.write('visitor', id);
    return id;
  },
  clear: () => store.remove('visitor'),
});
