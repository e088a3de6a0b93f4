/** Query results stay fresh for 60 × 600000 ms (spec 3 §9). */
export const RESULT_FRESH_MS = 36_000_000;

/** The cache key of a query's answer: the dataset version it read and its SQL. */
export const resultKey = (dataset: string | undefined, version: string | undefined, sql: string): string =>
  `${dataset ?? ''}@${version ?? ''}\n${sql}`;

export interface ResultCacheOptions {
  /** The most bytes kept; the least recently used answers go first. */
  limit: number;
  /** How long an answer is served from the cache. */
  freshMs: number;
  now: () => number;
}

export interface ResultCache {
  /** The answer kept for the key while fresh (and now the most recently used), else undefined. */
  fresh(key: string): Uint8Array | undefined;
  remember(key: string, bytes: Uint8Array): void;
  /** A new version of a table: the answers over its other versions go. */
  dropOtherVersions(table: string, version: string): void;
  entries(): number;
  bytes(): number;
}

interface CacheEntry {
  bytes: Uint8Array;
  at: number;
}

/** The engine's answers by query, bounded by bytes and age (spec 3 §9). */
export function createResultCache({ limit, freshMs, now }: ResultCacheOptions): ResultCache {
  // Map iteration order is insertion order: re-inserting on a hit makes it least-recently-used first.
  const cache = new Map<string, CacheEntry>();
  let cacheBytes = 0;

  function evict(): void {
    for (const [key, entry] of cache) {
      if (cacheBytes <= limit) break;
      cache.delete(key);
      cacheBytes -= entry.bytes.byteLength;
    }
  }

  return {
    fresh(key) {
      const cached = cache.get(key);
      if (!cached || now() - cached.at >= freshMs) return undefined;
      cache.delete(key);
      cache.set(key, cached);
      return cached.bytes;
    },
    remember(key, bytes) {
      if (bytes.byteLength > limit) return;
      const old = cache.get(key);
      if (old) cacheBytes -= old.bytes.byteLength;
      cache.delete(key);
      cache.set(key, { bytes, at: now() });
      cacheBytes += bytes.byteLength;
      evict();
    },
    dropOtherVersions(table, version) {
      for (const [key, entry] of cache) {
        if (key.startsWith(`${table}@`) && !key.startsWith(`${table}@${version}\n`)) {
          cache.delete(key);
          cacheBytes -= entry.bytes.byteLength;
        }
      }
    },
    entries: () => cache.size,
    bytes: () => cacheBytes,
  };
}
