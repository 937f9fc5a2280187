// The visitor's data per agent, in the storage the owner chose (data-persist), each entry stamped so
// it expires after TTL_MS. Every access is guarded: blocked or full storage degrades to memory.
import { signal } from '@preact/signals';
import type { BookingStatus } from '../core/types';
import type { RememberedBooking, RememberedBookings } from './booking/types';
import type { Persist } from './options';

export const TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const MAX_BOOKINGS = 20;

export type Entry = 'chat' | 'bookings' | 'visitor';

export interface Store {
  read(entry: Entry): unknown;
  write(entry: Entry, value: unknown): void;
  remove(entry: Entry): void;
  /** `listener` runs when another tab changes `entry` (undefined: removed or expired). */
  watch(entry: Entry, listener: (value: unknown) => void): () => void;
  dispose(): void;
}

export interface StoreEnv {
  win: Window;
  now: () => number;
}

export const storageKey = (agentId: string, entry: Entry): string => `agent-widget:${agentId}:${entry}`;

function openArea(kind: Persist, win: Window): Storage | undefined {
  if (kind === 'none') return undefined;
  try {
    const area = kind === 'local' ? win.localStorage : win.sessionStorage;
    return area ?? undefined;
  } catch {
    return undefined;
  }
}

export function createStore(kind: Persist, agentId: string, { win, now }: StoreEnv): Store {
  const area = openArea(kind, win);
  // Without usable storage the data lives as long as the page; nothing is written anywhere.
  const memory = new Map<Entry, unknown>();
  const listeners = new Map<Entry, Set<(value: unknown) => void>>();

  const unwrap = (key: string, raw: string | null): unknown => {
    if (raw === null) return undefined;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === 'object' && parsed !== null && 'at' in parsed && 'value' in parsed) {
        const at = parsed.at;
        if (typeof at === 'number' && now() - at <= TTL_MS) return parsed.value;
      }
    } catch {
      // Unreadable: treated like expired.
    }
    try {
      area?.removeItem(key);
    } catch {
      // Nothing more to do: the entry is ignored either way.
    }
    return undefined;
  };

  const onStorage = (event: StorageEvent) => {
    if (!area || event.storageArea !== area) return;
    for (const [entry, set] of listeners) {
      const key = storageKey(agentId, entry);
      if (event.key !== null && event.key !== key) continue;
      const value = event.key === null ? undefined : unwrap(key, event.newValue);
      for (const listener of set) listener(value);
    }
  };
  if (area) win.addEventListener('storage', onStorage);

  return {
    read(entry) {
      if (!area) return memory.get(entry);
      const key = storageKey(agentId, entry);
      try {
        return unwrap(key, area.getItem(key));
      } catch {
        return undefined;
      }
    },
    write(entry, value) {
      if (!area) {
        memory.set(entry, value);
        return;
      }
      try {
        area.setItem(storageKey(agentId, entry), JSON.stringify({ at: now(), value }));
      } catch {
        // Quota or privacy mode: the page keeps working with what it has in memory.
      }
    },
    remove(entry) {
      memory.delete(entry);
      try {
        area?.removeItem(storageKey(agentId, entry));
      } catch {
        // As above.
      }
    },
    watch(entry, listener) {
      const set = listeners.get(entry) ?? new Set();
      listeners.set(entry, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    dispose() {
      listeners.clear();
      win.removeEventListener('storage', onStorage);
    },
  };
}

/** An unguessable id; randomUUID needs a secure context, getRandomValues does not. */
export function randomId(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') {
    try {
      return c.randomUUID();
    } catch {
      // Insecure context in some browsers: fall through.
    }
  }
  return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const isText = (v: unknown): v is string => typeof v === 'string';

function parseBookings(value: unknown): RememberedBooking[] {
  if (!Array.isArray(value)) return [];
  const out: RememberedBooking[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { code, date, time, title, status } = item as Record<string, unknown>;
    if (!isText(code) || !isText(date) || !isText(time) || !isText(status)) continue;
    out.push({ code, date, time, status, ...(isText(title) ? { title } : {}) });
  }
  return out.slice(0, MAX_BOOKINGS);
}

export interface RememberedBookingsStore extends RememberedBookings {
  clear(): void;
  dispose(): void;
}

/** Booking codes the visitor made or looked up here, newest first, kept in the chosen storage. */
export function createRememberedBookings(store: Store): RememberedBookingsStore {
  const list = signal(parseBookings(store.read('bookings')));
  const save = (next: RememberedBooking[]) => {
    list.value = next;
    store.write('bookings', next);
  };
  const stop = store.watch('bookings', (value) => {
    list.value = parseBookings(value);
  });
  return {
    list,
    remember(booking) {
      save([booking, ...list.value.filter((b) => b.code !== booking.code)].slice(0, MAX_BOOKINGS));
    },
    setStatus(code: string, status: BookingStatus) {
      if (list.value.some((b) => b.code === code)) save(list.value.map((b) => (b.code === code ? { ...b, status } : b)));
    },
    clear() {
      list.value = [];
      store.remove('bookings');
    },
    dispose: stop,
  };
}

export interface VisitorId {
  /** The stored id, or a new one, persisted on first use (only booking asks for it). */
  get(): string;
  clear(): void;
}

export function createVisitorId(store: Store): VisitorId {
  return {
    get() {
      const stored = store.read('visitor');
      if (isText(stored) && stored !== '') return stored;
      const id = `v_${randomId()}`;
      store.write('visitor', id);
      return id;
    },
    clear() {
      store.remove('visitor');
    },
  };
}
