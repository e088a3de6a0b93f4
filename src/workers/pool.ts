import {
  type EngineError,
  type EngineWorkerApi,
  type WorkerStats,
  engineError,
  engineMessages,
  toEngineError,
} from './protocol';

/** Visible widgets first, then distinct-value lookups, then prefetch. */
export type Priority = 'visible' | 'lookup' | 'prefetch';
const RANK: Record<Priority, number> = { visible: 0, lookup: 1, prefetch: 2 };

/** Query results stay fresh for 60 × 600000 ms (spec 3 §9). */
export const RESULT_FRESH_MS = 36_000_000;
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** A query running longer than this is taken for a hung worker. */
export const DEFAULT_HANG_MS = 120_000;
export const MAX_POOL_SIZE = 4;
/** The name of the performance-timeline entry each executed query leaves (cache hits leave none). */
export const ENGINE_QUERY_MEASURE = 'openrate:engine-query';
/** The entry each dataset load into a worker leaves; its detail holds the rows and the worker's WebAssembly heap. */
export const DATASET_INSERT_MEASURE = 'openrate:dataset-insert';

/**
 * Leaves an executed query's span in the performance timeline, where the dashboard benchmark compares render
 * times with engine times. Bounded, so a tab left open for days does not grow its timeline without end.
 * (jsdom has no User Timing: skipped there.)
 */
function recordQueryTime(startedAt: number, runs: number): void {
  if (typeof performance.measure !== 'function') return;
  if (runs % 1000 === 0) performance.clearMeasures(ENGINE_QUERY_MEASURE);
  performance.measure(ENGINE_QUERY_MEASURE, { start: startedAt, end: performance.now() });
}

/** Leaves a dataset load's span (Arrow → DuckDB in one worker) in the performance timeline, for the benchmark. */
function recordInsertTime(startedAt: number, table: string, answer: unknown): void {
  if (typeof performance.measure !== 'function') return;
  const { rows, wasmHeapBytes } = (answer ?? {}) as { rows?: number; wasmHeapBytes?: number };
  performance.measure(DATASET_INSERT_MEASURE, {
    start: startedAt,
    end: performance.now(),
    detail: { table, rows, wasmHeapBytes },
  });
}

/** One worker as the pool sees it: its API, a way to stop it, and word when it dies on its own. */
export interface WorkerHandle {
  api: EngineWorkerApi;
  terminate(): void;
  onExit(listener: (reason: string) => void): void;
}

export interface PoolOptions {
  spawn: () => WorkerHandle;
  size: number;
  cacheBytes?: number;
  freshMs?: number;
  hangMs?: number;
  now?: () => number;
}

export interface QueryRequest {
  /** The table the SQL reads; omitted for SQL over no dataset. */
  dataset?: string;
  sql: string;
  priority?: Priority;
  /** A later query with the same key replaces this one (the same widget with new settings). */
  supersedeKey?: string;
  signal?: AbortSignal;
}

export interface PoolStats {
  size: number;
  workers: number;
  queued: number;
  running: number;
  executions: number;
  cacheHits: number;
  sharedHits: number;
  cacheEntries: number;
  cacheBytes: number;
  retries: number;
  replacedWorkers: number;
}

export interface EnginePool {
  /** Registers a dataset's Arrow IPC bytes; workers load them on demand (a new version replaces the old). */
  setDataset(table: string, version: string, bytes: Uint8Array): void;
  hasDataset(table: string, version?: string): boolean;
  query(request: QueryRequest): Promise<Uint8Array>;
  version(): Promise<string>;
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

interface Consumer {
  task: Task;
  supersedeKey?: string;
  resolve(bytes: Uint8Array): void;
  reject(error: EngineError): void;
}

interface Task {
  key: string;
  dataset?: string;
  version?: string;
  sql: string;
  rank: number;
  seq: number;
  attempts: number;
  state: 'queued' | 'running' | 'done';
  /** The id of the current execution in its worker, for cancelling it. */
  runId?: string;
  consumers: Set<Consumer>;
}

interface Slot {
  handle: WorkerHandle;
  /** Dataset versions loaded or loading in this worker. */
  tables: Map<string, string>;
  busy: boolean;
  current?: Task;
  timer?: ReturnType<typeof setTimeout>;
  dead: boolean;
}

interface CacheEntry {
  bytes: Uint8Array;
  at: number;
}

/**
 * A pool of synchronous DuckDB workers. Each worker runs one statement at a time, so the pool keeps
 * the queue: by priority, then arrival; a query goes to an idle worker that holds its dataset, and a
 * dataset is copied into another worker only when more queries wait for it than workers hold it.
 * A query nobody waits for any more (superseded or aborted) leaves the queue, or, when already running,
 * is cancelled in its worker by id.
 */
export function createPool(options: PoolOptions): EnginePool {
  const size = Math.max(1, Math.min(MAX_POOL_SIZE, options.size));
  const freshMs = options.freshMs ?? RESULT_FRESH_MS;
  const cacheLimit = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const now = options.now ?? (() => Date.now());

  const datasets = new Map<string, { version: string; bytes: Uint8Array }>();
  const slots: Slot[] = [];
  const queue: Task[] = [];
  const inflight = new Map<string, Task>();
  const bySupersedeKey = new Map<string, Consumer>();
  // Map iteration order is insertion order: re-inserting on a hit makes it least-recently-used first.
  const cache = new Map<string, CacheEntry>();
  let cacheBytes = 0;
  let seq = 0;
  let runs = 0;
  const counters = { executions: 0, cacheHits: 0, sharedHits: 0, retries: 0, replacedWorkers: 0 };

  function evict(): void {
    for (const [key, entry] of cache) {
      if (cacheBytes <= cacheLimit) break;
      cache.delete(key);
      cacheBytes -= entry.bytes.byteLength;
    }
  }

  function remember(key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > cacheLimit) return;
    const old = cache.get(key);
    if (old) cacheBytes -= old.bytes.byteLength;
    cache.delete(key);
    cache.set(key, { bytes, at: now() });
    cacheBytes += bytes.byteLength;
    evict();
  }

  function settle(task: Task, outcome: { bytes: Uint8Array } | { error: EngineError }): void {
    task.state = 'done';
    if (inflight.get(task.key) === task) inflight.delete(task.key);
    if ('bytes' in outcome) remember(task.key, outcome.bytes);
    for (const consumer of task.consumers) {
      if (consumer.supersedeKey && bySupersedeKey.get(consumer.supersedeKey) === consumer) {
        bySupersedeKey.delete(consumer.supersedeKey);
      }
      if ('bytes' in outcome) consumer.resolve(outcome.bytes);
      else consumer.reject(outcome.error);
    }
    task.consumers.clear();
  }

  function dequeue(task: Task): void {
    const index = queue.indexOf(task);
    if (index >= 0) queue.splice(index, 1);
  }

  /** A consumer no longer wants the answer: a queued query nobody else waits for is dropped. */
  function drop(consumer: Consumer, error: EngineError): void {
    const { task } = consumer;
    if (!task.consumers.delete(consumer)) return;
    if (consumer.supersedeKey && bySupersedeKey.get(consumer.supersedeKey) === consumer) {
      bySupersedeKey.delete(consumer.supersedeKey);
    }
    consumer.reject(error);
    if (task.consumers.size > 0) return;
    if (task.state === 'queued') {
      dequeue(task);
      inflight.delete(task.key);
    } else if (task.state === 'running' && task.runId) {
      // Stop the statement in its worker; the same SQL asked for again from now on runs afresh.
      inflight.delete(task.key);
      const slot = slots.find((candidate) => candidate.current === task);
      slot?.handle.api.cancel(task.runId).catch(() => undefined);
    }
    // A query still waiting for its dataset to load is dropped once the load ends (loadThenRun).
  }

  function spawn(): Slot {
    const slot: Slot = { handle: options.spawn(), tables: new Map(), busy: false, dead: false };
    slot.handle.onExit((reason) => crash(slot, reason));
    slots.push(slot);
    return slot;
  }

  /** A worker died or hung: stop it, forget it, and give its query one more try elsewhere. */
  function crash(slot: Slot, reason: string): void {
    if (slot.dead) return;
    slot.dead = true;
    clearTimeout(slot.timer);
    slots.splice(slots.indexOf(slot), 1);
    counters.replacedWorkers += 1;
    try {
      slot.handle.terminate();
    } catch {
      // Already gone.
    }
    const task = slot.current;
    slot.current = undefined;
    if (task && task.state === 'running') {
      task.attempts += 1;
      if (task.attempts > 1) {
        settle(task, { error: engineError(`${engineMessages.crashed} (${reason})`) });
      } else if (task.consumers.size > 0) {
        counters.retries += 1;
        task.state = 'queued';
        queue.push(task);
      } else {
        inflight.delete(task.key);
      }
    }
    pump();
  }

  function arm(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => crash(slot, 'no answer'), hangMs);
  }

  function release(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.busy = false;
    slot.current = undefined;
  }

  function run(slot: Slot, task: Task): void {
    slot.busy = true;
    slot.current = task;
    task.state = 'running';
    dequeue(task);
    arm(slot);
    counters.executions += 1;
    runs += 1;
    task.runId = `q${runs}`;
    const startedAt = performance.now();
    slot.handle.api.query(task.sql, task.runId).then(
      (bytes) => {
        if (slot.dead) return;
        recordQueryTime(startedAt, runs);
        release(slot);
        settle(task, { bytes });
        pump();
      },
      (error: unknown) => {
        if (slot.dead) return;
        const plain = toEngineError(error);
        // A WebAssembly trap (out of memory, abort) leaves the instance unusable: replace the worker.
        if (plain.name === 'RuntimeError') {
          crash(slot, plain.message);
          return;
        }
        release(slot);
        settle(task, { error: plain });
        pump();
      },
    );
  }

  function loadThenRun(slot: Slot, task: Task, table: string): void {
    const entry = datasets.get(table);
    if (!entry) {
      dequeue(task);
      settle(task, { error: engineError(engineMessages.waitingForDataset) });
      return;
    }
    slot.busy = true;
    slot.current = task;
    task.state = 'running';
    dequeue(task);
    slot.tables.set(table, entry.version);
    arm(slot);
    const startedAt = performance.now();
    slot.handle.api.load(table, entry.version, entry.bytes).then(
      (answer) => {
        if (slot.dead) return;
        recordInsertTime(startedAt, table, answer);
        if (task.state !== 'running' || task.consumers.size === 0) {
          release(slot);
          if (task.state === 'running') {
            task.state = 'done';
            inflight.delete(task.key);
          }
          pump();
          return;
        }
        run(slot, task);
      },
      (error: unknown) => {
        if (slot.dead) return;
        slot.tables.delete(table);
        release(slot);
        settle(task, { error: toEngineError(error) });
        pump();
      },
    );
  }

  function holds(slot: Slot, task: Task): boolean {
    return !task.dataset || slot.tables.get(task.dataset) === task.version;
  }

  function pump(): void {
    const waiting = [...queue].sort((a, b) => a.rank - b.rank || a.seq - b.seq);
    for (const task of waiting) {
      if (task.state !== 'queued') continue;
      const idle = slots.filter((slot) => !slot.busy && !slot.dead);
      const holder = idle.filter((slot) => holds(slot, task)).sort((a, b) => a.tables.size - b.tables.size)[0];
      if (holder) {
        run(holder, task);
        continue;
      }
      const table = task.dataset;
      const holders = slots.filter((slot) => !slot.dead && holds(slot, task)).length;
      const pending = queue.filter((other) => other.state === 'queued' && other.dataset === table).length;
      // Copying a dataset into one more worker costs a load; worth it only when the queue outgrows the holders.
      if (table && holders > 0 && pending <= holders) continue;
      if (!table && holders > 0 && idle.length === 0 && slots.length >= size) continue;
      const target =
        idle.sort((a, b) => a.tables.size - b.tables.size)[0] ?? (slots.length < size ? spawn() : undefined);
      if (!target) continue;
      if (table) loadThenRun(target, task, table);
      else run(target, task);
    }
  }

  function query(request: QueryRequest): Promise<Uint8Array> {
    let version: string | undefined;
    if (request.dataset !== undefined) {
      const entry = datasets.get(request.dataset);
      if (!entry) return Promise.reject(engineError(engineMessages.waitingForDataset));
      version = entry.version;
    }
    const key = `${request.dataset ?? ''}@${version ?? ''}\n${request.sql}`;
    const supersedeKey = request.supersedeKey;
    const previous = supersedeKey ? bySupersedeKey.get(supersedeKey) : undefined;
    if (previous && previous.task.key !== key) drop(previous, engineError(engineMessages.superseded, 'AbortError'));

    const cached = cache.get(key);
    if (cached && now() - cached.at < freshMs) {
      counters.cacheHits += 1;
      cache.delete(key);
      cache.set(key, cached);
      return Promise.resolve(cached.bytes);
    }
    if (request.signal?.aborted) return Promise.reject(engineError(engineMessages.superseded, 'AbortError'));

    const rank = RANK[request.priority ?? 'visible'];
    let task = inflight.get(key);
    if (task) {
      counters.sharedHits += 1;
      task.rank = Math.min(task.rank, rank);
    } else {
      task = {
        key,
        dataset: request.dataset,
        version,
        sql: request.sql,
        rank,
        seq: seq++,
        attempts: 0,
        state: 'queued',
        consumers: new Set(),
      };
      inflight.set(key, task);
      queue.push(task);
    }
    const owner = task;
    const promise = new Promise<Uint8Array>((resolve, reject) => {
      const consumer: Consumer = { task: owner, supersedeKey, resolve, reject };
      owner.consumers.add(consumer);
      if (supersedeKey) bySupersedeKey.set(supersedeKey, consumer);
      request.signal?.addEventListener(
        'abort',
        () => drop(consumer, engineError(engineMessages.superseded, 'AbortError')),
        {
          once: true,
        },
      );
    });
    pump();
    return promise;
  }

  return {
    setDataset(table, version, bytes) {
      if (!bytes || bytes.byteLength === 0) throw engineError(engineMessages.emptyBody);
      datasets.set(table, { version, bytes });
      for (const [key, entry] of cache) {
        if (key.startsWith(`${table}@`) && !key.startsWith(`${table}@${version}\n`)) {
          cache.delete(key);
          cacheBytes -= entry.bytes.byteLength;
        }
      }
    },
    hasDataset(table, version) {
      const entry = datasets.get(table);
      return !!entry && (version === undefined || entry.version === version);
    },
    query,
    async version() {
      const slot = slots.find((candidate) => !candidate.dead) ?? spawn();
      return slot.handle.api.version();
    },
    stats() {
      return {
        size,
        workers: slots.length,
        queued: queue.length,
        running: slots.filter((slot) => slot.busy).length,
        ...counters,
        cacheEntries: cache.size,
        cacheBytes,
      };
    },
    workerStats() {
      return Promise.all(slots.map((slot) => slot.handle.api.stats()));
    },
    terminate() {
      for (const slot of [...slots]) {
        slot.dead = true;
        clearTimeout(slot.timer);
        slot.handle.terminate();
      }
      slots.length = 0;
      for (const task of [...queue, ...inflight.values()]) {
        settle(task, { error: engineError(engineMessages.notInitialized) });
      }
      queue.length = 0;
    },
  };
}
