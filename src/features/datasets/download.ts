import { TOTAL_LENGTH_HEADER } from '../../contracts/dataModel';
import { isNeverRetried, requestedWithHeaders } from '../../store/httpRules';
import { DATASET_CHANGED_ERROR, type DatasetBytes } from '../../workers/protocol';
import { DATASET_FETCH_MEASURE, KEPT_READ_MEASURE, recordSpan } from '../../workers/timeline';
import { type DatasetStore, type StoredDataset } from './datasetCache';

/** Progress is reported per 100 KB (spec 3 §4). */
export const PROGRESS_STEP_BYTES = 100 * 1024;
/** A file read again for the engine (`Downloaded.reread`) that a newer one has replaced meanwhile. */
export class DatasetChangedError extends Error {
  override name = DATASET_CHANGED_ERROR;
  constructor() {
    super('The dataset changed since it was loaded');
  }
}

/** At most 6 attempts, never again after 400, 401, 403 or 404 (spec 3 §9). */
export const MAX_DOWNLOAD_ATTEMPTS = 6;

export class DownloadError extends Error {
  override name = 'DownloadError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface DownloadProgress {
  loaded: number;
  total: number | null;
}

export interface DownloadOptions {
  fetch?: typeof fetch;
  onProgress?: (progress: DownloadProgress) => void;
  onAttempt?: (attempt: number) => void;
  /** The server is sending a new file (not its 304 for the kept copy): called once its answer's headers are in. */
  onNewFile?: () => void;
  /** Waits between attempts; exponential from 500 ms, capped at 8 s. */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  /** Where downloaded files are kept between visits; a kept copy is reused when the server answers 304. */
  store?: DatasetStore;
  /** The file is one a store keeps, downloaded again without it: not kept in the HTTP cache either. */
  keptElsewhere?: boolean;
}

export interface Downloaded {
  /**
   * The file: the bytes downloaded, or, when the server said the kept copy is current (304), a way to read that
   * copy once the engine needs it. A reload answered from kept answers may never need it, and reading a large file
   * took 0.1–0.3 s at 10^6 rows before the first numbers (bench/README.md).
   */
  bytes: DatasetBytes;
  byteLength: number;
  /** The file's version: its ETag, so results cached for an older file are never reused. */
  version: string;
  /**
   * Reads this version's bytes again, from its kept copy while that is this version's, else from the server while it
   * still sends this version: with a store only. The engine lets go of the bytes it holds when a hidden tab ends its
   * workers, and reads them again for the next one.
   */
  reread?: () => Promise<Uint8Array>;
}

function retryable(error: unknown): boolean {
  if (error instanceof DownloadError) return error.status === undefined || !isNeverRetried(error.status);
  return !(error instanceof DOMException && error.name === 'AbortError');
}

const versionOf = (etag: string | null) => (etag ? etag.replace(/^W\//, '').replaceAll('"', '') : `t${Date.now()}`);

function request(url: string, options: DownloadOptions, kept?: StoredDataset): Promise<Response> {
  return (options.fetch ?? fetch)(url, {
    credentials: 'same-origin',
    headers: kept ? { ...requestedWithHeaders(), 'If-None-Match': kept.etag } : requestedWithHeaders(),
    // With a store of its own, the file is not kept a second time in the HTTP cache (which logout cannot empty).
    cache: options.store || options.keptElsewhere ? 'no-store' : undefined,
    signal: options.signal,
  });
}

/**
 * The file downloaded again, which must still be the version `etag` names: a copy of another version under its name
 * would give its answers to the wrong version.
 */
async function downloadVersion(url: string, etag: string, options: DownloadOptions): Promise<Uint8Array> {
  const { fetch: fetchFn, sleep, signal } = options;
  const again = { fetch: fetchFn, sleep, signal, keptElsewhere: true };
  const file = await withRetries(() => attempt(url, again), { sleep, signal });
  if (file.version !== versionOf(etag)) throw new DatasetChangedError();
  return typeof file.bytes === 'function' ? file.bytes() : file.bytes;
}

/** The bytes of `kept`; when they can no longer be read (storage evicted or failing), the file downloaded after all. */
function keptReader(url: string, kept: StoredDataset, options: DownloadOptions): () => Promise<Uint8Array> {
  return async () => {
    const reading = performance.now();
    const bytes = await kept.read();
    recordSpan(KEPT_READ_MEASURE, reading, { url });
    if (bytes && bytes.byteLength > 0) return bytes;
    return downloadVersion(url, kept.etag, options);
  };
}

/**
 * Reads version `etag` again: its kept copy while the store holds that version under `url`, else, when the store
 * holds none, the server's.
 */
function rereader(url: string, etag: string, options: DownloadOptions): () => Promise<Uint8Array> {
  return async () => {
    const kept = await options.store?.get(url);
    if (kept?.etag === etag) return keptReader(url, kept, options)();
    // A newer file kept under its name (this page's or another tab's download): the server has one too.
    if (kept) throw new DatasetChangedError();
    return downloadVersion(url, etag, options);
  };
}

/** The kept copy when the server says it is still current (304), else the server's response to read. */
async function reuseKept(url: string, options: DownloadOptions): Promise<Downloaded | Response> {
  const kept = await options.store?.get(url);
  const response = await request(url, options, kept);
  if (response.status !== 304 || !kept) return response;
  // Read to its (empty) end, so the request completes rather than being dropped unread.
  await response.arrayBuffer();
  options.onProgress?.({ loaded: 0, total: kept.bytes });
  options.onProgress?.({ loaded: kept.bytes, total: kept.bytes });
  return {
    bytes: keptReader(url, kept, options),
    byteLength: kept.bytes,
    version: versionOf(kept.etag),
    reread: rereader(url, kept.etag, options),
  };
}

async function attempt(url: string, options: DownloadOptions): Promise<Downloaded> {
  const reused = await reuseKept(url, options);
  if (!(reused instanceof Response)) return reused;
  const response = reused;
  if (!response.ok) throw new DownloadError(`Dataset download failed with status ${response.status}`, response.status);
  const header = response.headers.get(TOTAL_LENGTH_HEADER);
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  const etag = response.headers.get('ETag');
  const version = versionOf(etag);
  if (!response.body) throw new DownloadError('Body for dataset is empty');
  options.onNewFile?.();

  // One buffer of the announced size when known, so a large file is not copied chunk by chunk again.
  let buffer = new Uint8Array(total ?? 1024 * 1024);
  let loaded = 0;
  let reported = 0;
  let body = response.body;
  let reread: (() => Promise<Uint8Array>) | undefined;
  if (options.store && etag && total !== null) {
    // Kept as it streams in (the body teed), so the file is never copied whole in memory to be kept.
    const [mine, kept] = body.tee();
    body = mine;
    void options.store.put(url, etag, kept, total);
    reread = rereader(url, etag, options);
  }
  const reader = body.getReader();
  options.onProgress?.({ loaded: 0, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (loaded + value.byteLength > buffer.byteLength) {
      const grown = new Uint8Array(Math.max(buffer.byteLength * 2, loaded + value.byteLength));
      grown.set(buffer.subarray(0, loaded));
      buffer = grown;
    }
    buffer.set(value, loaded);
    loaded += value.byteLength;
    if (loaded - reported >= PROGRESS_STEP_BYTES) {
      reported = loaded - (loaded % PROGRESS_STEP_BYTES);
      options.onProgress?.({ loaded, total });
    }
  }
  if (loaded === 0) throw new DownloadError('Body for dataset is empty');
  options.onProgress?.({ loaded, total });
  const bytes = loaded === buffer.byteLength ? buffer : buffer.slice(0, loaded);
  return { bytes, byteLength: loaded, version, reread };
}

/** Runs `work` up to 6 times, waiting between attempts, and never again after a 400, 401, 403 or 404. */
export async function withRetries<T>(work: () => Promise<T>, options: DownloadOptions = {}): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let n = 1; ; n++) {
    options.onAttempt?.(n);
    try {
      return await work();
    } catch (error) {
      if (n >= MAX_DOWNLOAD_ATTEMPTS || !retryable(error)) throw error;
      await sleep(Math.min(8000, 500 * 2 ** (n - 1)));
    }
  }
}

/** Downloads a dataset file with progress and retries; the bytes go to the query engine, never to Redux. */
export async function downloadDataset(url: string, options: DownloadOptions = {}): Promise<Downloaded> {
  const started = performance.now();
  const file = await withRetries(() => attempt(url, options), options);
  recordSpan(DATASET_FETCH_MEASURE, started, { url, bytes: file.byteLength });
  return file;
}
