/**
 * The engine's answers kept in Cache Storage between visits. A reload of a report whose datasets did not change (the
 * server answered 304 for the kept copy's ETag) then shows its numbers from here as soon as the dataset's version is
 * known, instead of after DuckDB has opened in a new worker (about a second of its own start code). Keyed like the
 * pool's result cache (dataset, version, SQL): a new version of a dataset never reads an answer of an old one, and
 * an answer older than the result cache's freshness is not used. Emptied with the kept datasets at logout and when
 * someone else signs in (src/features/session/userDataPersistence.ts). Every failure degrades to "nothing kept".
 */

import { whenIdle } from './idle';
import { RESULT_FRESH_MS } from './resultCache';

export const RESULTS_CACHE_NAME = 'openrate-results';
/** What the kept answers may take together; the oldest go first beyond it. */
export const KEPT_RESULTS_MAX_BYTES = 64 * 1024 * 1024;
/** Larger answers (an explorer's block, an export's) are not kept: a widget's numbers are a few KiB. */
export const KEPT_RESULT_MAX_BYTES = 1024 * 1024;
/**
 * A page prunes 30 s after its engine starts (engineClient.ts) and after this many answers kept, so a tab open for
 * days stays within budget.
 */
export const PRUNE_EVERY_PUTS = 200;

const STORED_AT_HEADER = 'X-Result-Stored-At';
const BYTES_HEADER = 'X-Result-Bytes';

export interface KeptResults {
  /** The answer kept for the key while fresh, else undefined. */
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Drops the stale answers, then the oldest beyond the budget. */
  prune(): Promise<void>;
  clear(): Promise<void>;
}

export interface KeptResultsOptions {
  freshMs?: number;
  maxBytes?: number;
  now?: () => number;
}

/** The longest an answer waits for the page to be idle before it is kept anyway. */
const KEEP_IDLE_TIMEOUT_MS = 2000;

/** The key as a path of the app's origin (Cache Storage keys are requests): its SHA-256, so no SQL is in a URL. */
async function requestPath(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  return `/kept-results/${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export function cacheStorageKeptResults(
  storage: CacheStorage,
  { freshMs = RESULT_FRESH_MS, maxBytes = KEPT_RESULTS_MAX_BYTES, now = Date.now }: KeptResultsOptions = {},
): KeptResults {
  const open = () => storage.open(RESULTS_CACHE_NAME);
  const storedAt = (response: Response) => Number(response.headers.get(STORED_AT_HEADER)) || 0;
  let puts = 0;
  const store: KeptResults = {
    async get(key) {
      try {
        const response = await (await open()).match(await requestPath(key));
        if (!response || now() - storedAt(response) >= freshMs) return undefined;
        return new Uint8Array(await response.arrayBuffer());
      } catch (error) {
        console.warn('Kept answers are unavailable', error);
        return undefined;
      }
    },
    async put(key, bytes) {
      if (bytes.byteLength > KEPT_RESULT_MAX_BYTES) return;
      try {
        const headers = { [STORED_AT_HEADER]: String(now()), [BYTES_HEADER]: String(bytes.byteLength) };
        // A copy: the caller's bytes may be transferred or reused once this returns.
        const copy = bytes.slice();
        // Written when the page is idle: a dashboard's burst of answers is drawn first.
        await whenIdle(KEEP_IDLE_TIMEOUT_MS);
        await (await open()).put(await requestPath(key), new Response(copy, { headers }));
        if (++puts % PRUNE_EVERY_PUTS === 0) await store.prune();
      } catch (error) {
        console.warn('An answer could not be kept for the next visit', error);
      }
    },
    async prune() {
      try {
        const cache = await open();
        const entries: { request: Request; at: number; bytes: number }[] = [];
        for (const request of await cache.keys()) {
          const response = await cache.match(request);
          if (!response) continue;
          entries.push({ request, at: storedAt(response), bytes: Number(response.headers.get(BYTES_HEADER)) || 0 });
        }
        let total = 0;
        for (const entry of entries.sort((a, b) => b.at - a.at)) {
          const stale = now() - entry.at >= freshMs;
          if (!stale) total += entry.bytes;
          if (stale || total > maxBytes) await cache.delete(entry.request);
        }
      } catch (error) {
        console.warn('Kept answers could not be pruned', error);
      }
    },
    async clear() {
      try {
        await storage.delete(RESULTS_CACHE_NAME);
      } catch (error) {
        console.warn('Kept answers could not be removed', error);
      }
    },
  };
  return store;
}

/** The browser's store, or none where Cache Storage or SubtleCrypto is missing (an insecure origin, tests). */
export function browserKeptResults(): KeptResults | undefined {
  return typeof caches === 'undefined' || typeof crypto === 'undefined' || !crypto.subtle
    ? undefined
    : cacheStorageKeptResults(caches);
}

/**
 * Where a page notes, in localStorage, when it last kept an answer: page path → time. A reload of that page within
 * the answers' freshness can then tell, before anything is asked, that its numbers will likely come from them, and
 * start the engine only once they are drawn (engineClient.ts). Emptied with the user's other stored items.
 */
export const ANSWERS_KEPT_AT_KEY = 'answersKeptAt';
/** The pages noted at most; the longest unused go first. */
export const MAX_PAGES_NOTED = 50;

type NoteStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The object stored as JSON under `key` (a map kept for the next visit: these notes, src/features/datasets/
 * keptDatasets.ts); empty when missing, unreadable or not an object. Its values are for the caller to check.
 */
export function readStoredObject(storage: Pick<Storage, 'getItem'>, key: string): Record<string, unknown> {
  try {
    const stored: unknown = JSON.parse(storage.getItem(key) ?? '{}');
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The times noted under `key` by `noteTime` (name → ms since the epoch); empty when missing or unreadable. */
export function readNotedTimes(storage: Pick<Storage, 'getItem'>, key: string): Record<string, number> {
  const stored = Object.entries(readStoredObject(storage, key));
  return Object.fromEntries(stored.filter((pair): pair is [string, number] => typeof pair[1] === 'number'));
}

/** Notes `name` at `at` under `key`, with the `max - 1` latest others; a full or refused storage keeps nothing. */
export function noteTime(storage: NoteStorage, key: string, name: string, at: number, max: number): void {
  const others = Object.entries(readNotedTimes(storage, key)).filter(([noted]) => noted !== name);
  const kept = [...others.sort((a, b) => b[1] - a[1]).slice(0, max - 1), [name, at]];
  try {
    storage.setItem(key, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Not noted: the next visit does without it, as a first one does.
  }
}

/** Notes that `pathname` kept an answer (`answersKeptFor`); when it cannot, the next reload starts its engine at once. */
export function noteAnswersKept(storage: NoteStorage, pathname: string, now = Date.now()): void {
  noteTime(storage, ANSWERS_KEPT_AT_KEY, pathname, now, MAX_PAGES_NOTED);
}

/** True when `pathname` kept an answer less than the answers' freshness ago. */
export function answersKeptFor(
  storage: Pick<Storage, 'getItem'>,
  pathname: string,
  { now = Date.now(), freshMs = RESULT_FRESH_MS }: { now?: number; freshMs?: number } = {},
): boolean {
  const at = readNotedTimes(storage, ANSWERS_KEPT_AT_KEY)[pathname];
  return typeof at === 'number' && now - at >= 0 && now - at < freshMs;
}
