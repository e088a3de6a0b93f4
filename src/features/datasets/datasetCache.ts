/**
 * Downloaded dataset files kept in the browser's Cache Storage, so reopening a report asks the server only whether
 * the file changed (If-None-Match → 304) instead of downloading it again. Keyed by the dataset's URL, which names
 * the workspace; a copy is used only after the server answered 304 to the signed-in user for that URL, and the
 * whole store is emptied at logout and when someone else signs in (src/features/session/userDataPersistence.ts).
 */

import { noteTime, readNotedTimes } from '../../workers/keptResults';

export const DATASET_CACHE_NAME = 'openrate-datasets';
/** What the kept copies may take on disk together (a 10^7-row file, 1.2 GiB, fits); the oldest go first beyond it. */
export const DATASET_CACHE_MAX_BYTES = 2 * 1024 ** 3;

/**
 * Where the store notes, in localStorage, the files it was given (URL → when): a URL it never noted has no copy to
 * look up, so a first visit's download leaves without waiting for Cache Storage. Each of the lookup's steps (open the
 * cache, match the URL) is an answer the page takes between its other tasks: in a cold open at 10^6 rows on 2 cores
 * the request left 0.66 s after the download began, behind the dashboard's first render and layout
 * (bench/README.md). Removed with the copies.
 */
export const KEPT_DATASET_URLS_KEY = 'keptDatasetUrls';
/** The URLs noted at most; the oldest go first (a copy no longer noted is downloaded again). */
export const MAX_NOTED_URLS = 100;

const ETAG_HEADER = 'X-Dataset-ETag';
const BYTES_HEADER = 'X-Dataset-Bytes';
const STORED_AT_HEADER = 'X-Dataset-Stored-At';

export interface StoredDataset {
  /** The ETag the copy was downloaded with, as the server sent it. */
  etag: string;
  bytes: number;
  /** The copy's bytes, or undefined when it went away in the meantime. */
  read(): Promise<Uint8Array | undefined>;
}

export interface DatasetStore {
  get(url: string): Promise<StoredDataset | undefined>;
  /** Keeps `body` (a stream is read to its end; a failed stream keeps nothing), `bytes` long. */
  put(
    url: string,
    etag: string,
    body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>,
    bytes: number,
  ): Promise<void>;
  clear(): Promise<void>;
}

interface Entry {
  request: Request | string;
  bytes: number;
  storedAt: number;
}

async function entries(cache: Cache): Promise<Entry[]> {
  const found: Entry[] = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    if (!response) continue;
    found.push({
      request,
      bytes: Number(response.headers.get(BYTES_HEADER)) || 0,
      storedAt: Number(response.headers.get(STORED_AT_HEADER)) || 0,
    });
  }
  return found;
}

/** Deletes the oldest copies until the rest fit in `maxBytes`. */
async function evict(cache: Cache, maxBytes: number): Promise<void> {
  const kept = (await entries(cache)).sort((a, b) => b.storedAt - a.storedAt);
  let total = 0;
  for (const entry of kept) {
    total += entry.bytes;
    if (total > maxBytes) await cache.delete(entry.request);
  }
}

type NoteStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * The store over Cache Storage. Every failure (no quota, storage blocked) degrades to "nothing kept": the caller
 * downloads as before. With `notes`, a URL never given to `put` is answered at once (KEPT_DATASET_URLS_KEY).
 */
export function cacheStorageDatasetStore(
  storage: CacheStorage,
  {
    maxBytes = DATASET_CACHE_MAX_BYTES,
    now = Date.now,
    notes,
  }: { maxBytes?: number; now?: () => number; notes?: NoteStorage } = {},
): DatasetStore {
  const open = () => storage.open(DATASET_CACHE_NAME);
  return {
    async get(url) {
      if (notes && !(url in readNotedTimes(notes, KEPT_DATASET_URLS_KEY))) return undefined;
      try {
        const response = await (await open()).match(url);
        const etag = response?.headers.get(ETAG_HEADER);
        if (!response || !etag) return undefined;
        return {
          etag,
          bytes: Number(response.headers.get(BYTES_HEADER)) || 0,
          read: async () => {
            try {
              return new Uint8Array(await response.arrayBuffer());
            } catch (error) {
              console.warn('A kept dataset could not be read', error);
              return undefined;
            }
          },
        };
      } catch (error) {
        console.warn('Kept datasets are unavailable', error);
        return undefined;
      }
    },
    async put(url, etag, body, bytes) {
      // A stream nobody reads would hold every chunk its other branch receives.
      const discard = () => (body instanceof ReadableStream ? body.cancel().catch(() => undefined) : undefined);
      if (bytes > maxBytes) return discard();
      if (notes) noteTime(notes, KEPT_DATASET_URLS_KEY, url, now(), MAX_NOTED_URLS);
      try {
        const headers = { [ETAG_HEADER]: etag, [BYTES_HEADER]: String(bytes), [STORED_AT_HEADER]: String(now()) };
        // Made before the first await: the response copies bytes given as an array, so the caller may reuse them.
        const response = new Response(body, { headers });
        const cache = await open();
        await cache.put(url, response);
        await evict(cache, maxBytes);
      } catch (error) {
        console.warn('A dataset could not be kept for the next visit', error);
        await discard();
      }
    },
    async clear() {
      try {
        notes?.removeItem(KEPT_DATASET_URLS_KEY);
        await storage.delete(DATASET_CACHE_NAME);
      } catch (error) {
        console.warn('Kept datasets could not be removed', error);
      }
    },
  };
}

/** The browser's store, or none where Cache Storage is missing (an insecure origin, tests). */
export function browserDatasetStore(): DatasetStore | undefined {
  if (typeof caches === 'undefined') return undefined;
  return cacheStorageDatasetStore(caches, { notes: typeof localStorage === 'undefined' ? undefined : localStorage });
}
