/**
 * What the pool has measured on this machine, in this page: how long a worker takes to start (spawn → DuckDB open),
 * to load each dataset, and to answer a query. The scheduler asks it whether copying a dataset into one more worker
 * would answer the waiting queries sooner than the workers that already hold it. A worker's start is a second or
 * more of CPU, and on 2 cores it slows the very queries it is meant to help, so a copy that needs one has to pay for
 * it from the queue's measured length.
 */
export interface WorkerCosts {
  started(ms: number): void;
  loaded(table: string, ms: number): void;
  /** A query took `ms`; `shape` (`queryShape`) names it for `expected`. */
  queried(ms: number, shape?: string): void;
  /** What the last queries of this shape took (a running average), if one ran in this page. */
  expected(shape: string): number | undefined;
  /**
   * Worth copying `table` into another worker? `waiting` queries wait for the `holders` that hold it (or load it);
   * `needsStart` when the copy needs a new worker. Before the costs are known, a copy into an open idle worker goes
   * by count (more waiting than holders), and one needing a start waits until a query and a start have been timed.
   */
  worthCopy(table: string, waiting: number, holders: number, needsStart: boolean): boolean;
  /** Worth starting a worker for a dataset no worker holds, rather than waiting for a busy one to be free? */
  worthStart(waiting: number, workers: number): boolean;
}

/** How much of a new query time moves the running average (recent queries tell more about the current load). */
const QUERY_WEIGHT = 0.3;
/** How much of a new time moves a shape's average: a shape runs once per burst, and its first run is its slowest. */
const SHAPE_WEIGHT = 0.5;
/** The most shapes remembered; the least recently run go first (a page open for days meets many). */
const MAX_SHAPES = 500;

/**
 * A query's SQL without its literals (days, numbers, quoted values). A widget's query after a date change, a filter
 * change or the next day's import has the same shape as before, and takes about as long.
 */
export function queryShape(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, "'?'").replace(/\b\d+(?:\.\d+)?\b/g, '?');
}

/**
 * Without a core to spare, a worker's start takes CPU from the queries already running, which then drain the
 * queue more slowly: the start counts twice. At 10^6 rows on 2 cores a copy that the plain sum allowed (about 3.7 s of
 * queries waiting against a 2.9 s start and a 0.4 s load) came after the queue had emptied (bench/README.md).
 */
const SHARED_CORES_START_FACTOR = 2;

/** `spareCores`: the machine has cores for a worker's start beside the running queries (4 or more). */
export function createWorkerCosts({ spareCores = false } = {}): WorkerCosts {
  const startFactor = spareCores ? 1 : SHARED_CORES_START_FACTOR;
  let startMs: number | undefined;
  let queryMs: number | undefined;
  const loadMs = new Map<string, number>();
  const shapeMs = new Map<string, number>();

  return {
    started(ms) {
      startMs = ms;
    },
    loaded(table, ms) {
      loadMs.set(table, ms);
    },
    queried(ms, shape) {
      queryMs = queryMs === undefined ? ms : queryMs + QUERY_WEIGHT * (ms - queryMs);
      if (shape === undefined) return;
      const before = shapeMs.get(shape);
      shapeMs.delete(shape);
      shapeMs.set(shape, before === undefined ? ms : before + SHAPE_WEIGHT * (ms - before));
      if (shapeMs.size > MAX_SHAPES) shapeMs.delete(shapeMs.keys().next().value as string);
    },
    expected: (shape) => shapeMs.get(shape),
    worthCopy(table, waiting, holders, needsStart) {
      if (waiting <= holders) return false;
      const load = loadMs.get(table);
      if (!needsStart && (load === undefined || queryMs === undefined)) return true;
      if (load === undefined || queryMs === undefined || startMs === undefined) return false;
      return (waiting * queryMs) / holders > (needsStart ? startFactor * startMs : 0) + load;
    },
    worthStart(waiting, workers) {
      if (queryMs === undefined || startMs === undefined) return false;
      return (waiting * queryMs) / workers > startFactor * startMs;
    },
  };
}
