import { type DatasetFormat } from '../contracts/dataModel';
import { type MetricsMerge } from '../engine/queries';
import { type DatasetBytes, type EngineError, engineError, engineMessages, toEngineError } from './protocol';
import { type ResultCache, resultKey } from './resultCache';
import { recordSpan } from './timeline';
import { createWorkerCosts, queryShape } from './workerCosts';
import { type Slot, type WorkerHandle, createWorkerSlots } from './workerSlots';

/**
 * How many visible queries a busy worker may hold beyond the one it runs while the pool has other workers. One: more
 * would commit more of a burst to one worker before the others are free (bench/README.md).
 */
const QUERIES_AHEAD = 1;
/**
 * The same for the pool's only live worker, which no other could relieve: it goes on through a burst while the page's
 * thread, busy drawing the widgets already answered, has not yet taken an answer and sent the next query (a cold open
 * at 10^6: the worker's idle time between its queries 414 → 262 ms over 8 pairs, bench/README.md). Not the whole
 * burst: a lookup asked for meanwhile waits behind these.
 */
const QUERIES_AHEAD_ALONE = 3;

/**
 * Widgets on screen first, then those outside it (a dashboard's widgets below the fold), then distinct-value lookups,
 * then prefetch. The first two are a page's widgets waiting for their numbers: they may start a worker and wait in a
 * busy one behind its query (`foreground`); the others take an open worker when one is free.
 */
export type Priority = 'visible' | 'offscreen' | 'lookup' | 'prefetch';
const RANK: Record<Priority, number> = { visible: 0, offscreen: 1, lookup: 2, prefetch: 3 };
const foreground = (rank: number) => rank <= RANK.offscreen;

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
  recordSpan(ENGINE_QUERY_MEASURE, startedAt);
}

/** Leaves a dataset load's span (Arrow → DuckDB in one worker) in the performance timeline, for the benchmark. */
function recordInsertTime(startedAt: number, table: string, answer: unknown): void {
  const { rows, wasmHeapBytes } = (answer ?? {}) as { rows?: number; wasmHeapBytes?: number };
  recordSpan(DATASET_INSERT_MEASURE, startedAt, { table, rows, wasmHeapBytes });
}

export interface QueryRequest {
  /** The table the SQL reads; omitted for SQL over no dataset. */
  dataset?: string;
  sql: string;
  priority?: Priority;
  /** A later query with the same key replaces this one (the same widget with new settings). */
  supersedeKey?: string;
  signal?: AbortSignal;
  /**
   * The version of `dataset` an earlier visit's engine held, which the SQL was built for, while no worker may hold
   * it yet (src/features/datasets/keptDatasets.ts): the query is answered from that visit's kept answers only.
   */
  keptVersion?: string;
  /**
   * The queries of its group still queued when it is sent to a worker run with it, as one statement over all their
   * metrics. Each is answered with that statement's answer, cached and kept under its own SQL: an answer holds the
   * query's columns (`MetricsMerge.columns`), and maybe others, which its reader leaves aside.
   */
  merge?: MetricsMerge;
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
  /** The SQL's shape (`queryShape`), whose earlier runs tell how long this one may take; none for a load. */
  shape?: string;
  rank: number;
  seq: number;
  attempts: number;
  state: 'queued' | 'running' | 'done';
  /** A dataset's load into a worker, which no caller waits for: queries over it run once it is in. */
  load?: boolean;
  /** The id of the current execution in its worker, for cancelling it. */
  runId?: string;
  /** When its run began in the worker (or, sent behind another, when that one's answer came), on both clocks. */
  startedAt?: number;
  clockStart?: number;
  consumers: Set<Consumer>;
  merge?: MetricsMerge;
  /** The queries its statement answers as well (QueryRequest.merge). */
  riders?: Task[];
  /** The task whose statement answers this one. */
  carrier?: Task;
}

export interface SchedulerOptions {
  spawn: () => WorkerHandle;
  /** The most workers started. */
  size: number;
  hangMs: number;
  cache: ResultCache;
  /** The datasets' Arrow bytes by table, as last registered. */
  datasets: ReadonlyMap<string, { version: string; bytes: DatasetBytes; format?: DatasetFormat }>;
  /** A worker answered a query over a dataset (not a cache hit): where the pool keeps answers between visits. */
  onExecuted?: (key: string, bytes: Uint8Array) => void;
  /** Every worker of a full pool holds this version of the dataset: no worker started now would copy it. */
  onHeldEverywhere?: (table: string, version: string) => void;
  /** Workers may start together (4 cores or more); otherwise a new one waits until every other has opened. */
  parallelStarts?: boolean;
  /** The clock of the measured costs (milliseconds); `performance.now` unless a test gives its own. */
  now?: () => number;
  /** Resolves when the page can spare the CPU for a copy put off during a burst; at once unless given. */
  whenIdle?: () => Promise<void>;
}

/**
 * The queue of queries and where each runs. Each worker runs one statement at a time, so the queue is kept here: by
 * priority, then the longest expected first (the same shape's earlier runs), then arrival; a query goes to the first
 * idle worker that holds its dataset (never to one given in advance, which may still be starting while another is
 * free). A dataset is loaded into a worker as a task of its own, and copied into one more worker only when the measured
 * costs say the waiting queries gain by it (workerCosts.ts). A query nobody waits for any more (superseded or aborted)
 * leaves the queue, or, when already running, is cancelled in its worker by id.
 * One closure, longer than 80 lines, because its short functions share the queue, the in-flight tasks and the slots.
 */
export function createScheduler(options: SchedulerOptions) {
  const { spawn, size, hangMs, cache, datasets, onExecuted } = options;
  const now = options.now ?? (() => performance.now());
  const costs = createWorkerCosts({ spareCores: options.parallelStarts });
  const slots = createWorkerSlots<Task>({
    spawn,
    hangMs,
    now,
    onDeath: (slot, reason) => crash(slot as Slot<Task>, reason),
    onOpened: (slot) => {
      costs.started((slot.openedAt ?? now()) - slot.spawnedAt);
      pump();
      // Nothing for it yet (its dataset is still on the way): it compiles what the load and the queries will need.
      if (!slot.busy && !slot.dead && slot.tables.size === 0) slot.handle.api.warmUp().catch(() => undefined);
    },
  });
  const queue: Task[] = [];
  const inflight = new Map<string, Task>();
  const bySupersedeKey = new Map<string, Consumer>();
  let seq = 0;
  let runs = 0;
  /** Datasets to load into a worker once one is open and nothing waits (`preload`). */
  const preloads = new Set<string>();
  /**
   * Datasets a burst waited for in more queries than workers held them, when a copy then would have come too late:
   * copied once the queue is empty and the page idle, so the next burst (a date change) splits over the workers.
   */
  const putOffCopies = new Set<string>();
  let idleWait: Promise<void> | undefined;
  let fillTimer: ReturnType<typeof setTimeout> | undefined;
  const counters = { executions: 0, cacheHits: 0, sharedHits: 0, retries: 0 };

  function settle(task: Task, outcome: { bytes: Uint8Array } | { error: EngineError }): void {
    task.state = 'done';
    if (inflight.get(task.key) === task) inflight.delete(task.key);
    if ('bytes' in outcome) cache.remember(task.key, outcome.bytes);
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
      return;
    }
    // A statement that answers other queries too runs on while any of them is still wanted.
    const carrier = task.carrier ?? task;
    const members = [carrier, ...(carrier.riders ?? [])];
    if (task.state !== 'running' || !carrier.runId || members.some((member) => member.consumers.size > 0)) return;
    // Stop the statement in its worker; the same SQL asked for again from now on runs afresh.
    for (const member of members) if (inflight.get(member.key) === member) inflight.delete(member.key);
    const slot = slots.all.find((candidate) => candidate.current === carrier || candidate.ahead.includes(carrier));
    slot?.handle.api.cancel(carrier.runId).catch(() => undefined);
  }

  /** The queries a task's statement was to answer as well go back to the queue, to run on their own. */
  function releaseRiders(task: Task | undefined): void {
    for (const rider of task?.riders ?? []) {
      rider.carrier = undefined;
      if (rider.state === 'running') requeue(rider, false);
    }
    if (task) task.riders = undefined;
  }

  /**
   * A worker died or hung: stop it, forget it, and give its query one more try elsewhere. The queries sent ahead to it
   * (which had not begun) are queued again as they were.
   */
  function crash(slot: Slot<Task>, reason: string): void {
    if (slot.dead) return;
    const [task, ...ahead] = slots.retire(slot);
    // A load nobody waits for ends with its worker; the queries over its dataset stay queued for another.
    if (task && task.state === 'running' && !task.load) {
      task.attempts += 1;
      if (task.attempts > 1) settle(task, { error: engineError(`${engineMessages.crashed} (${reason})`) });
      else requeue(task, true);
    }
    for (const next of ahead) if (next.state === 'running') requeue(next, false);
    for (const sent of [task, ...ahead]) releaseRiders(sent);
    pump();
  }

  function requeue(task: Task, retry: boolean): void {
    if (task.consumers.size === 0) {
      inflight.delete(task.key);
      return;
    }
    if (retry) counters.retries += 1;
    task.state = 'queued';
    queue.push(task);
  }

  /** The worker's current task ended: the first one sent ahead, if any, has begun there. */
  function release(slot: Slot<Task>): void {
    const next = slots.release(slot);
    if (next) startClock(next);
  }

  function startClock(task: Task): void {
    task.startedAt = performance.now();
    task.clockStart = now();
  }

  /**
   * The queued queries `task`'s statement can answer as well (QueryRequest.merge), taken out of the queue, and the
   * statement over all their metrics; none and the task's own SQL when there are none.
   */
  function boardRiders(task: Task): { riders: Task[]; sql: string } {
    const { merge } = task;
    if (!merge) return { riders: [], sql: task.sql };
    const riders = queue.filter(
      (other) =>
        other !== task &&
        other.state === 'queued' &&
        other.merge?.group === merge.group &&
        other.dataset === task.dataset &&
        other.version === task.version &&
        foreground(other.rank) === foreground(task.rank),
    );
    if (riders.length === 0) return { riders, sql: task.sql };
    for (const rider of riders) {
      rider.state = 'running';
      rider.carrier = task;
      dequeue(rider);
    }
    task.riders = riders;
    const metrics = [...new Set([task, ...riders].flatMap((member) => member.merge?.metrics ?? []))];
    return { riders, sql: merge.sqlWith(metrics) };
  }

  /** Sends the task to the worker: to run now, or `behind` the ones it runs and holds (`Slot.ahead`). */
  function run(slot: Slot<Task>, task: Task, behind = false): void {
    task.state = 'running';
    dequeue(task);
    if (behind) slots.queueNext(slot, task);
    else {
      slots.occupy(slot, task);
      startClock(task);
    }
    const { riders, sql } = boardRiders(task);
    counters.executions += 1;
    runs += 1;
    task.runId = `q${runs}`;
    slot.handle.api.query(sql, task.runId).then(
      (bytes) => {
        if (slot.dead) return;
        recordQueryTime(task.startedAt ?? performance.now(), runs);
        costs.queried(now() - (task.clockStart ?? now()), riders.length ? queryShape(sql) : task.shape);
        release(slot);
        // Every query the statement answered, under its own SQL (re-encoding each one's columns took the page's
        // thread 10–17 ms per open: bench/README.md).
        for (const member of [task, ...riders]) {
          if (member.dataset !== undefined) onExecuted?.(member.key, bytes);
          settle(member, { bytes });
        }
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
        if (riders.length && plain.name !== 'AbortError') {
          // One query's failure (a metric whose SQL fails on these rows) is not the others': each runs on its own.
          for (const member of [task, ...riders]) member.merge = undefined;
          releaseRiders(task);
          requeue(task, false);
        } else {
          for (const member of [task, ...riders]) settle(member, { error: plain });
        }
        pump();
      },
    );
  }

  /** The queued queries over a dataset's version that no worker holds any more: each gets the load's error. */
  function failWaiting(table: string, version: string, error: EngineError): void {
    for (const task of queue.filter((other) => other.dataset === table && other.version === version)) {
      dequeue(task);
      settle(task, { error });
    }
  }

  /** Loads a dataset into a worker; the queries waiting for it run on whichever holder is free first (pump). */
  function startLoad(slot: Slot<Task>, table: string): void {
    const entry = datasets.get(table);
    if (!entry) {
      for (const task of queue.filter((other) => other.dataset === table)) {
        dequeue(task);
        settle(task, { error: engineError(engineMessages.waitingForDataset) });
      }
      return;
    }
    const task = newTask(`load:${table}`, table, entry.version, '', RANK.prefetch);
    task.load = true;
    task.state = 'running';
    slot.tables.set(table, entry.version);
    slots.occupy(slot, task);
    const startedAt = performance.now();
    const clockStart = now();
    // A kept copy is read now, the first time a worker needs it (pool.ts).
    const bytes = typeof entry.bytes === 'function' ? entry.bytes() : Promise.resolve(entry.bytes);
    bytes
      .then((file) => slot.handle.api.load(table, entry.version, file, entry.format))
      .then(
        (answer) => {
          if (slot.dead) return;
          recordInsertTime(startedAt, table, answer);
          // A load sent to a worker still starting waits for its DuckDB: that wait is the start's, not the load's.
          costs.loaded(table, now() - Math.max(clockStart, slot.openedAt ?? clockStart));
          task.state = 'done';
          release(slot);
          const holders = slots.all.filter((other) => !other.dead && other.tables.get(table) === entry.version);
          if (holders.length >= size) options.onHeldEverywhere?.(table, entry.version);
          pump();
        },
        (error: unknown) => {
          if (slot.dead) return;
          task.state = 'done';
          slot.tables.delete(table);
          release(slot);
          if (!held(table, entry.version)) failWaiting(table, entry.version, toEngineError(error));
          pump();
        },
      );
  }

  function holds(slot: Slot<Task>, task: Task): boolean {
    return !task.dataset || slot.tables.get(task.dataset) === task.version;
  }

  /**
   * A widget's query (`foreground`) may wait in a worker behind the query it runs (`QUERIES_AHEAD` at most,
   * `QUERIES_AHEAD_ALONE` in the only live worker): that worker holds its dataset and then goes on at once, where it
   * would otherwise wait for the page's thread to take the answer and send the next.
   */
  function mayQueueBehind(slot: Slot<Task>, task: Task): boolean {
    const { current } = slot;
    const alone = slots.all.every((other) => other === slot || other.dead);
    const room = alone ? QUERIES_AHEAD_ALONE : QUERIES_AHEAD;
    return !slot.dead && slot.opened && !!current && !current.load && slot.ahead.length < room && holds(slot, task);
  }

  /**
   * A new worker may start: there is room in the pool and, while another is still starting, cores for both (on 2
   * cores two starts at once slowed the first by a second); with workers already there, `worth` says the wait it
   * saves outweighs its start.
   */
  function mayStart(worth: () => boolean): boolean {
    const live = slots.all.filter((slot) => !slot.dead);
    if (live.length >= size) return false;
    if (live.length === 0) return true;
    if (!options.parallelStarts && live.some((slot) => !slot.opened)) return false;
    return worth();
  }

  /**
   * Where a task that no idle worker can run at once goes: a copy of its dataset, a new worker, or nowhere yet.
   * A lookup or prefetch is given only an open worker: one it starts is pumped again once it has opened.
   */
  function place(task: Task, idle: Slot<Task>[], waitingCount: number): void {
    const table = task.dataset;
    const live = slots.all.filter((slot) => !slot.dead);
    const holders = live.filter((slot) => holds(slot, task));
    const spare = idle.filter((slot) => !holds(slot, task)).sort((a, b) => a.tables.size - b.tables.size)[0];
    const started = (): Slot<Task> | undefined => {
      const slot = slots.spawn();
      return foreground(task.rank) ? slot : undefined;
    };
    const worthStart = () => costs.worthStart(waitingCount, live.length);
    if (!table) {
      // SQL over no dataset runs on any worker.
      const target = spare ?? (mayStart(worthStart) ? started() : undefined);
      if (target) run(target, task);
      return;
    }
    if (holders.length > 0) {
      // Queries waiting for this dataset beyond the ones its loading holders will take when their loads end.
      const loading = holders.filter((slot) => slot.current?.load).length;
      // The queries over it sent ahead to a holder still wait for it.
      const behind = holders.flatMap((slot) => slot.ahead).filter((other) => other.dataset === table).length;
      const waiting =
        queue.filter((other) => other.state === 'queued' && other.dataset === table && other.version === task.version)
          .length +
        behind -
        loading;
      if (!costs.worthCopy(table, waiting, holders.length, !spare)) {
        if (waiting > holders.length) putOffCopies.add(table);
        return;
      }
      const target = spare ?? (mayStart(() => true) ? started() : undefined);
      if (target) startLoad(target, table);
      return;
    }
    const target = spare ?? (mayStart(worthStart) ? started() : undefined);
    if (target) startLoad(target, table);
  }

  /** How long a task is expected to run: a shape not timed yet counts as the longest. */
  const expectedMs = (task: Task) => (task.shape === undefined ? undefined : costs.expected(task.shape)) ?? Infinity;

  /**
   * Runs what can run. `arrived`: called for a query just asked for, whose burst may still be arriving: the queries
   * sent behind busy workers' current ones wait a moment (`fillNext`); after an answer they go at once.
   */
  function pump(arrived = false): void {
    // Longest first within a priority (two unknown, or equal, by arrival): the workers then end a burst together,
    // rather than one taking the longest query last while the others wait.
    const waiting = [...queue].sort((a, b) => a.rank - b.rank || expectedMs(b) - expectedMs(a) || a.seq - b.seq);
    // Asked before its dataset's new version came, a query runs on the new one: only that version is ever loaded.
    // All of them first, so each placement below counts every query waiting for that version.
    for (const task of waiting) {
      if (task.state === 'queued' && task.dataset !== undefined) {
        task.version = datasets.get(task.dataset)?.version ?? task.version;
      }
    }
    for (const task of waiting) {
      if (task.state !== 'queued') continue;
      // A lookup or prefetch takes only a worker whose DuckDB is open: one still starting (a second or more) is
      // kept for the visible widgets that may ask meanwhile, which would otherwise wait behind it or for a new one.
      const background = !foreground(task.rank);
      const idle = slots.all.filter((slot) => !slot.busy && !slot.dead && (slot.opened || !background));
      const holder = idle.filter((slot) => holds(slot, task)).sort((a, b) => a.tables.size - b.tables.size)[0];
      if (holder) run(holder, task);
      else place(task, idle, queue.filter((other) => other.state === 'queued').length);
    }
    if (!arrived) fillNext();
    else if (queue.some((task) => task.state === 'queued' && foreground(task.rank))) {
      fillTimer ??= setTimeout(fillNext);
    }
    if (queue.every((task) => task.state !== 'queued')) {
      startPreloads();
      if (putOffCopies.size > 0) idleWait ??= (options.whenIdle?.() ?? Promise.resolve()).then(startPutOffCopies);
    }
  }

  /**
   * Sends each busy worker the widget query it could run next (`mayQueueBehind`): those on screen before the others,
   * the longest first. After a query's arrival, a moment later (a timer), so that a burst's queries, asked one after
   * another, are all in the queue and the first of them in that order goes.
   */
  function fillNext(): void {
    clearTimeout(fillTimer);
    fillTimer = undefined;
    const waiting = queue
      .filter((task) => task.state === 'queued' && foreground(task.rank))
      .sort((a, b) => a.rank - b.rank || expectedMs(b) - expectedMs(a) || a.seq - b.seq);
    for (const task of waiting) {
      // Answered meanwhile by another's statement (`boardRiders`).
      if (task.state !== 'queued') continue;
      // Behind the query expected to end first, as a free worker would take it.
      const [slot] = slots.all
        .filter((candidate) => mayQueueBehind(candidate, task))
        .sort((a, b) => expectedEnd(a) - expectedEnd(b));
      if (slot) run(slot, task, true);
    }
  }

  /** When a busy worker's current query and those ahead are expected to end (a shape not timed yet: last). */
  function expectedEnd(slot: Slot<Task>): number {
    const task = slot.current;
    if (task?.clockStart === undefined) return Infinity;
    return slot.ahead.reduce((end, next) => end + expectedMs(next), task.clockStart + expectedMs(task));
  }

  /** A live worker holds (or is loading) the dataset's version. */
  function held(table: string, version: string): boolean {
    return slots.all.some((slot) => !slot.dead && slot.tables.get(table) === version);
  }

  /** Loads the datasets asked for by `preload` into idle open workers, one worker each. */
  function startPreloads(): void {
    for (const table of preloads) {
      const entry = datasets.get(table);
      if (!entry || held(table, entry.version)) {
        preloads.delete(table);
        continue;
      }
      const slot = slots.all.find((candidate) => !candidate.busy && !candidate.dead && candidate.opened);
      if (!slot) return;
      preloads.delete(table);
      startLoad(slot, table);
    }
  }

  /**
   * The copies put off during a burst, once nothing is queued, running or starting: into an open worker that lacks
   * the dataset, or a new one where the pool has room.
   */
  function startPutOffCopies(): void {
    idleWait = undefined;
    const live = slots.all.filter((slot) => !slot.dead);
    const quiet = queue.length === 0 && live.every((slot) => slot.opened && !slot.busy);
    // Not yet: the next query's or start's end pumps, and an empty queue asks again.
    if (!quiet) return;
    for (const table of putOffCopies) {
      putOffCopies.delete(table);
      const entry = datasets.get(table);
      if (!entry) continue;
      const spare = live.find((slot) => !slot.busy && slot.tables.get(table) !== entry.version);
      const target = spare ?? (live.length < size ? slots.spawn() : undefined);
      if (!target) continue;
      startLoad(target, table);
      live.push(target);
    }
  }

  /** A queued task of no consumer yet: a query's, or a load's (`preload`, whose SQL is empty). */
  function newTask(
    key: string,
    dataset: string | undefined,
    version: string | undefined,
    sql: string,
    rank: number,
  ): Task {
    return { key, dataset, version, sql, rank, seq: seq++, attempts: 0, state: 'queued', consumers: new Set() };
  }

  /** The task answering this query: one already asked for, or a new one in the queue. */
  function taskFor(key: string, request: QueryRequest, version: string | undefined): Task {
    const rank = RANK[request.priority ?? 'visible'];
    const shared = inflight.get(key);
    if (shared) {
      counters.sharedHits += 1;
      shared.rank = Math.min(shared.rank, rank);
      return shared;
    }
    const task = newTask(key, request.dataset, version, request.sql, rank);
    task.shape = queryShape(request.sql);
    task.merge = request.merge;
    inflight.set(key, task);
    queue.push(task);
    return task;
  }

  function query(request: QueryRequest): Promise<Uint8Array> {
    let version: string | undefined;
    if (request.dataset !== undefined) {
      const entry = datasets.get(request.dataset);
      if (!entry) return Promise.reject(engineError(engineMessages.waitingForDataset));
      version = entry.version;
    }
    const key = resultKey(request.dataset, version, request.sql);
    const supersedeKey = request.supersedeKey;
    const previous = supersedeKey ? bySupersedeKey.get(supersedeKey) : undefined;
    if (previous && previous.task.key !== key) drop(previous, engineError(engineMessages.superseded, 'AbortError'));

    const cached = cache.fresh(key);
    if (cached) {
      counters.cacheHits += 1;
      return Promise.resolve(cached);
    }
    if (request.signal?.aborted) return Promise.reject(engineError(engineMessages.superseded, 'AbortError'));

    const owner = taskFor(key, request, version);
    const promise = new Promise<Uint8Array>((resolve, reject) => {
      const consumer: Consumer = { task: owner, supersedeKey, resolve, reject };
      owner.consumers.add(consumer);
      if (supersedeKey) bySupersedeKey.set(supersedeKey, consumer);
      request.signal?.addEventListener(
        'abort',
        () => drop(consumer, engineError(engineMessages.superseded, 'AbortError')),
        { once: true },
      );
    });
    pump(true);
    return promise;
  }

  return {
    slots,
    query,
    held,
    /**
     * Loads a registered dataset into an open worker as soon as one is idle and no query waits, so that the first
     * query over it does not wait for the load (a reload answered from kept answers has run none).
     */
    preload(table: string) {
      preloads.add(table);
      pump();
    },
    /**
     * Ends every worker while none runs, loads, starts or waits for anything, and returns whether it did (a tab hidden
     * for a while, hiddenTab.ts): the datasets they held go into the next worker that opens (`preload`), and the copies
     * put off for the next burst are forgotten with them.
     */
    shed(): boolean {
      const live = slots.all.filter((slot) => !slot.dead);
      if (live.length === 0 || queue.length > 0 || live.some((slot) => slot.busy || !slot.opened)) return false;
      for (const slot of live) for (const table of slot.tables.keys()) preloads.add(table);
      putOffCopies.clear();
      slots.terminateAll();
      return true;
    },
    counters: () => ({ ...counters, replacedWorkers: slots.replaced() }),
    queued: () => queue.length,
    /** Every worker stops and every query still waiting is refused. */
    terminate() {
      clearTimeout(fillTimer);
      slots.terminateAll();
      for (const task of [...queue, ...inflight.values()]) {
        settle(task, { error: engineError(engineMessages.notInitialized) });
      }
      queue.length = 0;
    },
  };
}
