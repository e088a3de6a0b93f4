import { type DatasetFormat } from '../contracts/dataModel';
import { whenIdle } from './idle';
import { type KeptResults } from './keptResults';
import { type DatasetBytes, type WorkerStats, NOT_KEPT_ERROR, engineError, engineMessages } from './protocol';
import { RESULT_FRESH_MS, createResultCache, resultKey } from './resultCache';
import { type QueryRequest, createScheduler } from './scheduler';
import { type WorkerHandle } from './workerSlots';

export { DATASET_INSERT_MEASURE, ENGINE_QUERY_MEASURE, type Priority, type QueryRequest } from './scheduler';
export { type WorkerHandle } from './workerSlots';

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** A query running longer than this is taken for a hung worker. */
export const DEFAULT_HANG_MS = 120_000;
export const MAX_POOL_SIZE = 4;
/** The longest a registered dataset waits for the page to be idle before it is loaded into a worker anyway. */
const PRELOAD_IDLE_TIMEOUT_MS = 3000;

export interface PoolOptions {
  spawn: () => WorkerHandle;
  size: number;
  cacheBytes?: number;
  freshMs?: number;
  hangMs?: number;
  now?: () => number;
  /** The clock the scheduler times workers' starts, loads and queries by; `performance.now` by default. */
  clock?: () => number;
  /** Workers may start together: the machine has cores for both (see engineClient.ts). */
  parallelStarts?: boolean;
  /** Answers kept between visits: looked up before a query waits for a worker, written after one ran. */
  kept?: KeptResults;
}

export interface PoolStats {
  size: number;
  workers: number;
  queued: number;
  running: number;
  executions: number;
  cacheHits: number;
  /** Answers read from the kept ones of an earlier visit (then counted as cache hits too). */
  keptHits: number;
  sharedHits: number;
  cacheEntries: number;
  cacheBytes: number;
  retries: number;
  replacedWorkers: number;
}

export interface EnginePool {
  /**
   * Registers a dataset's bytes (an Arrow IPC stream, or a DuckDB database file); workers load them on demand (a new
   * version replaces the old). With `reread`, which reads the same bytes again from where they are kept, the pool lets
   * go of its copy once no worker it would start needs it: at a `shed`, and once every worker of a full pool holds it.
   */
  setDataset(
    table: string,
    version: string,
    bytes: DatasetBytes,
    format?: DatasetFormat,
    reread?: () => Promise<Uint8Array>,
  ): void;
  hasDataset(table: string, version?: string): boolean;
  query(request: QueryRequest): Promise<Uint8Array>;
  version(): Promise<string>;
  /** Starts workers ahead of any query, up to `count` (and the pool's size), each opening DuckDB at once. */
  warm(count: number): void;
  /**
   * Starts them as `warm` does, but once a kept answer was drawn and the page is idle, or at once when a query needs
   * a worker: a reload whose numbers come from the kept answers draws them without DuckDB's start competing for the
   * page's cores (bench/README.md), and the engine is ready for what the user does next.
   */
  warmAfterKept(count: number): void;
  /** Starts now the workers `warmAfterKept` put off, if any: a new file is on its way, and no kept answer is for it. */
  warmNow(): void;
  /**
   * Ends every worker if none is busy or starting, keeping the answers and the datasets (those registered with
   * `reread` as a way to read them again): the next query, or `warm`, starts one again, which loads what they held.
   * Returns whether it did.
   */
  shed(): boolean;
  stats(): PoolStats;
  workerStats(): Promise<WorkerStats[]>;
  terminate(): void;
}

/**
 * Pool size from the machine: one worker per core, at most 4, and fewer on small memory
 * (navigator.deviceMemory, in GB): each worker holds its own copy of the datasets it queries.
 */
export function poolSize(hardwareConcurrency?: number, deviceMemory?: number): number {
  const cores = hardwareConcurrency && hardwareConcurrency > 0 ? hardwareConcurrency : 2;
  const byMemory = deviceMemory === undefined ? MAX_POOL_SIZE : deviceMemory <= 1 ? 1 : deviceMemory <= 4 ? 2 : 4;
  return Math.max(1, Math.min(MAX_POOL_SIZE, cores, byMemory));
}

interface DatasetEntry {
  version: string;
  bytes: DatasetBytes;
  format?: DatasetFormat;
  /** Reads the bytes again: the entry holds none while no worker runs (`shed`). */
  reread?: () => Promise<Uint8Array>;
}

/**
 * A dataset's bytes read when a worker first needs them, once however many workers ask; the entry then holds them.
 * A failed read is tried again by the next load.
 */
function readOnce(entry: { bytes: DatasetBytes }, read: () => Promise<Uint8Array>): () => Promise<Uint8Array> {
  let reading: Promise<Uint8Array> | undefined;
  return () => {
    reading ??= read().then(
      (bytes) => {
        if (bytes.byteLength === 0) throw engineError(engineMessages.emptyBody);
        entry.bytes = bytes;
        return bytes;
      },
      (error: unknown) => {
        reading = undefined;
        throw error;
      },
    );
    return reading;
  };
}

/**
 * Lets go of the page's copy of a file its browser keeps (one registered with `reread`): the next worker to need it
 * has it read again, from the browser's copy or the server (features/datasets/download.ts).
 */
function letGo(entry: DatasetEntry): void {
  if (entry.reread && typeof entry.bytes !== 'function') entry.bytes = readOnce(entry, entry.reread);
}

/**
 * A pool of synchronous DuckDB workers: the datasets registered for them, the result cache (resultCache.ts) and
 * the queue that places each query in a worker (scheduler.ts, over the worker slots of workerSlots.ts).
 * Long because its short methods share one closure: the datasets, the cache and the turns of kept answers.
 */
export function createPool(options: PoolOptions): EnginePool {
  const size = Math.max(1, Math.min(MAX_POOL_SIZE, options.size));
  const cache = createResultCache({
    limit: options.cacheBytes ?? DEFAULT_CACHE_BYTES,
    freshMs: options.freshMs ?? RESULT_FRESH_MS,
    now: options.now ?? (() => Date.now()),
  });
  const datasets = new Map<string, DatasetEntry>();
  const { kept } = options;
  const scheduler = createScheduler({
    spawn: options.spawn,
    size,
    hangMs: options.hangMs ?? DEFAULT_HANG_MS,
    cache,
    datasets,
    onExecuted: kept && ((key, bytes) => void kept.put(key, bytes)),
    // The burst's copies are made: the page's copy would serve only a worker replacing one of these.
    onHeldEverywhere: (table, version) => {
      const entry = datasets.get(table);
      if (entry?.version === version) letGo(entry);
    },
    parallelStarts: options.parallelStarts,
    now: options.clock,
    whenIdle: () => whenIdle(PRELOAD_IDLE_TIMEOUT_MS),
  });
  const { slots } = scheduler;
  let keptHits = 0;
  let asked = 0;
  /** The latest query asked for under each supersede key, so a kept answer read meanwhile cannot overtake it. */
  const latest = new Map<string, number>();
  /** Workers `warmAfterKept` asked for that have not been started yet. */
  let warmLater = 0;

  function warm(count: number): void {
    warmLater = 0;
    // A new slot asks its worker for the version, which opens DuckDB (workerSlots.ts).
    while (slots.all.filter((slot) => !slot.dead).length < Math.min(count, size)) slots.spawn();
  }

  /** The workers put off by `warmAfterKept`, now that a query needs one. */
  function warmPutOff(): void {
    if (warmLater > 0) warm(warmLater);
  }

  /** A kept answer read for `key` that may still answer its request: not superseded, its dataset unchanged. */
  function keptAnswer(bytes: Uint8Array | undefined, request: QueryRequest, key: string, turn: number) {
    if (request.supersedeKey && latest.get(request.supersedeKey) !== turn) return undefined;
    const version = datasets.get(request.dataset ?? '')?.version;
    return bytes && key === resultKey(request.dataset, version, request.sql) ? bytes : undefined;
  }

  /** A kept answer was drawn: the engine's start, put off until then, follows once the page is idle. */
  function keptAnswerDrawn(key: string, answer: Uint8Array): void {
    cache.remember(key, answer);
    keptHits += 1;
    if (warmLater > 0) void whenIdle(PRELOAD_IDLE_TIMEOUT_MS).then(warmPutOff);
  }

  /**
   * A query for an earlier visit's version of a dataset, which the pool does not hold (the server has not confirmed
   * it yet; the pool may hold another workspace's table of that name): its kept answer, or a NOT_KEPT_ERROR, after
   * which the caller waits for the dataset and asks again. A miss starts the engine, which that query will need.
   */
  async function keptOnly(request: QueryRequest & { keptVersion: string }, turn: number): Promise<Uint8Array> {
    const key = resultKey(request.dataset, request.keptVersion, request.sql);
    const answer = kept && (await kept.get(key));
    if (request.supersedeKey && latest.get(request.supersedeKey) !== turn) {
      throw engineError(engineMessages.superseded, 'AbortError');
    }
    if (!answer) {
      warmPutOff();
      throw engineError(engineMessages.waitingForDataset, NOT_KEPT_ERROR);
    }
    keptAnswerDrawn(key, answer);
    return answer;
  }

  /**
   * A query over a dataset no worker holds yet (the engine may still be starting): its kept answer of an
   * earlier visit, if any, goes into the result cache first, then the scheduler answers (from the cache, or a
   * worker), so a reload shows kept numbers without a worker.
   */
  async function queryKept(store: KeptResults, request: QueryRequest, key: string, turn: number) {
    const bytes = await store.get(key);
    if (request.supersedeKey && latest.get(request.supersedeKey) !== turn) {
      throw engineError(engineMessages.superseded, 'AbortError');
    }
    const answer = keptAnswer(bytes, request, key, turn);
    if (answer) keptAnswerDrawn(key, answer);
    else warmPutOff();
    return scheduler.query(request);
  }

  /**
   * A query over a dataset a worker holds: it runs at once, while its kept answer is looked up (Cache
   * Storage takes tens of milliseconds, more on a busy machine). A kept answer that comes first is the answer, and
   * the run is called off; a miss costs the query nothing.
   */
  function raceKept(store: KeptResults, request: QueryRequest, key: string, turn: number): Promise<Uint8Array> {
    const run = new AbortController();
    // The caller's signal calls the run off too (one that has already fired is refused at once by the scheduler).
    if (request.signal?.aborted) run.abort();
    request.signal?.addEventListener('abort', () => run.abort(), { once: true });
    const ran = scheduler.query({ ...request, signal: run.signal });
    return new Promise((resolve, reject) => {
      let settled = false;
      ran.then(
        (bytes) => {
          settled = true;
          resolve(bytes);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          reject(error);
        },
      );
      void store.get(key).then((bytes) => {
        const answer = settled ? undefined : keptAnswer(bytes, request, key, turn);
        if (!answer) return;
        settled = true;
        keptAnswerDrawn(key, answer);
        resolve(answer);
        run.abort();
      });
    });
  }

  return {
    setDataset(table, version, bytes, format, reread) {
      if (!bytes || (typeof bytes !== 'function' && bytes.byteLength === 0)) {
        throw engineError(engineMessages.emptyBody);
      }
      const entry: DatasetEntry = { version, bytes, format, reread };
      const kept = typeof bytes === 'function';
      if (kept) entry.bytes = readOnce(entry, bytes);
      // Downloaded rather than a kept copy the server said is current: the file changed, and no kept answer is for it.
      else warmPutOff();
      datasets.set(table, entry);
      cache.dropOtherVersions(table, version);
      // A kept copy goes into a worker once the page has drawn what it can (a reload's kept answers), so that the next
      // query finds it there. A download goes at once: its report's queries need it, and they are asked only once the
      // page has rendered its widgets again, which took 50–80 ms of a cold open at 10^6 rows (bench/README.md).
      if (kept) void whenIdle(PRELOAD_IDLE_TIMEOUT_MS).then(() => scheduler.preload(table));
      else scheduler.preload(table);
    },
    hasDataset(table, version) {
      const entry = datasets.get(table);
      return !!entry && (version === undefined || entry.version === version);
    },
    query(request) {
      const turn = ++asked;
      if (request.supersedeKey) latest.set(request.supersedeKey, turn);
      const entry = request.dataset === undefined ? undefined : datasets.get(request.dataset);
      const { keptVersion } = request;
      if (keptVersion !== undefined && entry?.version !== keptVersion)
        return keptOnly({ ...request, keptVersion }, turn);
      const key = entry && resultKey(request.dataset, entry.version, request.sql);
      if (key && cache.fresh(key)) return scheduler.query(request);
      if (!kept || !key) {
        warmPutOff();
        return scheduler.query(request);
      }
      if (scheduler.held(request.dataset!, entry.version)) return raceKept(kept, request, key, turn);
      return queryKept(kept, request, key, turn);
    },
    async version() {
      const slot = slots.all.find((candidate) => !candidate.dead) ?? slots.spawn();
      return slot.handle.api.version();
    },
    warm,
    warmAfterKept(count) {
      if (slots.all.some((slot) => !slot.dead)) warm(count);
      else warmLater = Math.max(warmLater, count);
    },
    warmNow: warmPutOff,
    shed() {
      if (!scheduler.shed()) return false;
      // A hidden tab's copies, which only a next worker would read.
      for (const entry of datasets.values()) letGo(entry);
      return true;
    },
    stats() {
      return {
        size,
        workers: slots.all.length,
        queued: scheduler.queued(),
        running: slots.all.filter((slot) => slot.busy).length,
        ...scheduler.counters(),
        keptHits,
        cacheEntries: cache.entries(),
        cacheBytes: cache.bytes(),
      };
    },
    workerStats() {
      return Promise.all(slots.all.map((slot) => slot.handle.api.stats()));
    },
    terminate: scheduler.terminate,
  };
}
