import type { DatabaseHandle } from './client';

interface Entry<V> {
  generation: number;
  value: V;
}

/**
 * Remembers reads on the embedded database until anything is written: an entry counts only while the handle's write
 * generation is the one its read started in, so a hit is what the database would answer now. On PostgreSQL (no
 * generation: other server processes write too) every read goes to the database. The cache belongs to one handle.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly handle: DatabaseHandle,
    /** Entries kept at most; all are dropped when it is reached (every write makes them stale anyway). */
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached value of `key`, or `load()`'s, which is kept unless `keep` says otherwise (e.g. misses). */
  async get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const generation = this.handle.generation?.();
    if (generation === undefined) return load();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation) return hit.value;
    const value = await load();
    if (keep(value)) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { generation, value });
    }
    return value;
  }
}

const caches = new WeakMap<DatabaseHandle, Map<string, ReadCache<unknown>>>();

/** The handle's cache named `name` (one per kind of read), made on first use. */
export function readCache<V>(handle: DatabaseHandle, name: string): ReadCache<V> {
  let named = caches.get(handle);
  if (!named) {
    named = new Map();
    caches.set(handle, named);
  }
  let cache = named.get(name);
  if (!cache) {
    cache = new ReadCache<unknown>(handle);
    named.set(name, cache);
  }
  return cache as ReadCache<V>;
}
