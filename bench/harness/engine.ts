import { downloadDataset } from '../../src/features/datasets/download';
import { spawnBrowserWorker } from '../../src/workers/engineClient';
import { createPool } from '../../src/workers/pool';
import { type WorkerStats } from '../../src/workers/protocol';

/** Runs in headless Chromium: the production pool and worker, timed on one dataset file. */

export interface HarnessInput {
  url: string;
  table: string;
  queries: { name: string; sql: string }[];
  sizes: number[];
  repeats: number;
}

export interface SizeResult {
  size: number;
  /** Spawn, instantiate the .wasm, load the dataset, answer the first query (bytes already downloaded). */
  coldStartMs: number;
  /** All 12 queries at once, right after the cold start: includes copying the dataset into more workers. */
  firstBurstMs: number;
  /** All 12 queries at once with every worker holding the dataset (each run, once the pool's copies are in). */
  burstMs: number[];
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

async function run(input: HarnessInput): Promise<HarnessResult> {
  const [downloadMs, file] = await timed(() => downloadDataset(input.url));
  const sizes: SizeResult[] = [];
  for (const size of input.sizes) {
    // No result cache: every burst really runs its SQL.
    const pool = createPool({ size, spawn: () => spawnBrowserWorker(), cacheBytes: 0, hangMs: 30 * 60_000 });
    pool.setDataset(input.table, file.version, file.bytes);
    const query = (sql: string) => pool.query({ dataset: input.table, sql });
    const burst = () => Promise.all(input.queries.map((q) => query(q.sql)));
    const [coldStartMs] = await timed(() => query(input.queries[0].sql));
    const [firstBurstMs] = await timed(burst);
    await everyWorkerHolds(pool, input.table, size);
    const burstMs: number[] = [];
    for (let i = 0; i < input.repeats; i++) burstMs.push((await timed(burst))[0]);
    const perQueryMs: Record<string, number[]> = {};
    if (size === 1) {
      for (const q of input.queries) {
        perQueryMs[q.name] = [];
        for (let i = 0; i < input.repeats; i++) perQueryMs[q.name].push((await timed(() => query(q.sql)))[0]);
      }
    }
    const workers = await pool.workerStats();
    pool.terminate();
    sizes.push({ size, coldStartMs, firstBurstMs, burstMs, perQueryMs, workers });
  }
  return { downloadMs, bytes: file.byteLength, sizes };
}

(window as unknown as { engineBench: typeof run }).engineBench = run;
document.title = 'engine bench ready';
