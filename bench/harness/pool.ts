import { tableFromArrays, tableFromIPC, tableToIPC } from 'apache-arrow';
import { spawnBrowserWorker } from '../../src/workers/engineClient';
import { type EnginePool, type PoolStats, type QueryRequest, createPool } from '../../src/workers/pool';
import { type EngineError, type WorkerStats } from '../../src/workers/protocol';

/**
 * Runs in Chromium for e2e/engine.spec.ts: the production pool and DuckDB worker, driven from the test
 * through plain values (page.evaluate), with a way to kill a worker from outside as a crash would.
 */

type Outcome = { ok: true; values: number[] } | { ok: false; error: EngineError };

let pool: EnginePool | undefined;
let workers: Worker[] = [];
const outcomes = new Map<string, Promise<Outcome & { ms: number }>>();

const harness = {
  start(size: number, hangMs: number): void {
    pool?.terminate();
    workers = [];
    outcomes.clear();
    pool = createPool({ size, hangMs, spawn: () => spawnBrowserWorker(workers) });
  },

  /** A table with one INTEGER column `n` holding 1..rows. */
  setDataset(table: string, version: string, rows: number): void {
    const n = Int32Array.from({ length: rows }, (_, i) => i + 1);
    current().setDataset(table, version, tableToIPC(tableFromArrays({ n }), 'stream'));
  },

  /** Starts a query under a name; `outcome(name)` waits for it. The column read back is `n`. */
  send(name: string, request: Omit<QueryRequest, 'signal'>): void {
    const started = performance.now();
    outcomes.set(
      name,
      current()
        .query(request)
        .then(
          (bytes): Outcome => ({
            ok: true,
            values: Array.from(tableFromIPC(bytes).getChild('n')?.toArray() ?? [], Number),
          }),
          (error: EngineError): Outcome => ({ ok: false, error: { name: error.name, message: error.message } }),
        )
        .then((outcome) => ({ ...outcome, ms: performance.now() - started })),
    );
  },

  outcome(name: string): Promise<Outcome & { ms: number }> {
    const outcome = outcomes.get(name);
    if (!outcome) throw new Error(`No query named ${name}`);
    return outcome;
  },

  stats(): PoolStats {
    return current().stats();
  },

  workerStats(): Promise<WorkerStats[]> {
    return current().workerStats();
  },

  /** Terminates the worker thread behind the pool's back: to the pool, a worker that stopped answering. */
  kill(index: number): void {
    workers[index].terminate();
  },

  spawned(): number {
    return workers.length;
  },
};

function current(): EnginePool {
  if (!pool) throw new Error('Call start() first');
  return pool;
}

export type PoolHarness = typeof harness;
(window as unknown as { poolHarness: PoolHarness }).poolHarness = harness;
document.title = 'pool harness ready';
