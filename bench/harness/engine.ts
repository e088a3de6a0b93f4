import { downloadDataset } from '../../src/features/datasets/download';
import { spawnBrowserWorker } from '../../src/workers/engineClient';
import { createPool } from '../../src/workers/pool';
import { type WorkerStats } from '../../src/workers/protocol';

/** Runs in headless Chromium: the production pool and worker, timed on one dataset file. */

export interface HarnessInput {
  url: string;
  table: string;
  queries: { name: string; sql: string }[];
  /**
   * Copies of one query, each with its own SQL text: a burst that every pool size splits evenly, so its ratio is
   * what the machine allows two DuckDB workers at once, whatever the pool's scheduling.
   */
  balanced: { name: string; sql: string }[];
  sizes: number[];
  repeats: number;
}

export interface SizeResult {
  size: number;
  /** Spawn, instantiate the .wasm, load the dataset, answer the first query (bytes already downloaded). */
  coldStartMs: number;
  /** All 12 queries at once, right after the cold start: includes copying the dataset into more workers. */
  firstBurstMs: number;
  /**
   * All 12 queries at once with every worker holding the dataset (each run, once the pool's copies are in); the
   * i-th burst of each pool size ran in the same round.
   */
  burstMs: number[];
  /** The balanced burst (`HarnessInput.balanced`), in the same rounds. */
  balancedBurstMs: number[];
  /** Each query alone, repeated (pool size 1 only). */
  perQueryMs: Record<string, number[]>;
  workers: WorkerStats[];
}

export interface HarnessResult {
  downloadMs: number;
  bytes: number;
  sizes: SizeResult[];
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

/**
 * Waits (a minute at most) until `size` workers hold the table: on a machine without spare cores, the pool makes
 * the copies a first burst could not wait for once it is idle (scheduler.ts), and `burstMs` is timed after them.
 */
async function everyWorkerHolds(pool: ReturnType<typeof createPool>, table: string, size: number): Promise<void> {
  for (const until = performance.now() + 60_000; performance.now() < until;) {
    const workers = await pool.workerStats();
    if (workers.length >= size && workers.every((worker) => worker.tables.some((held) => held.table === table))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The queries at once. */
const burst = (pool: ReturnType<typeof createPool>, table: string, queries: HarnessInput['queries']) =>
  Promise.all(queries.map((q) => pool.query({ dataset: table, sql: q.sql })));

async function run(input: HarnessInput): Promise<HarnessResult> {
  const [downloadMs, file] = await timed(() => downloadDataset(input.url));
  const started: (SizeResult & { pool: ReturnType<typeof createPool> })[] = [];
  for (const size of input.sizes) {
    // No result cache: every burst really runs its SQL.
    const pool = createPool({ size, spawn: () => spawnBrowserWorker(), cacheBytes: 0, hangMs: 30 * 60_000 });
    pool.setDataset(input.table, file.version, file.bytes);
    const [coldStartMs] = await timed(() => pool.query({ dataset: input.table, sql: input.queries[0].sql }));
    const [firstBurstMs] = await timed(() => burst(pool, input.table, input.queries));
    await everyWorkerHolds(pool, input.table, size);
    started.push({
      size,
      pool,
      coldStartMs,
      firstBurstMs,
      burstMs: [],
      balancedBurstMs: [],
      perQueryMs: {},
      workers: [],
    });
  }
  // The pools' bursts alternate round by round, in an order reversed every other round: timed one pool after the
  // other, a ratio between two pools compared bursts minutes apart, and a shared machine's speed moves by more than
  // the goal's margin in that time (bench/README.md). The idle pools' workers take no CPU.
  for (let round = 0; round < input.repeats; round++) {
    for (const result of round % 2 === 0 ? started : [...started].reverse()) {
      result.burstMs.push((await timed(() => burst(result.pool, input.table, input.queries)))[0]);
      result.balancedBurstMs.push((await timed(() => burst(result.pool, input.table, input.balanced)))[0]);
    }
  }
  const sizes: SizeResult[] = [];
  for (const { pool, ...result } of started) {
    if (result.size === 1) {
      for (const q of input.queries) {
        result.perQueryMs[q.name] = [];
        for (let i = 0; i < input.repeats; i++) {
          result.perQueryMs[q.name].push((await timed(() => pool.query({ dataset: input.table, sql: q.sql })))[0]);
        }
      }
    }
    result.workers = await pool.workerStats();
    pool.terminate();
    sizes.push(result);
  }
  return { downloadMs, bytes: file.byteLength, sizes };
}

(window as unknown as { engineBench: typeof run }).engineBench = run;
document.title = 'engine bench ready';
