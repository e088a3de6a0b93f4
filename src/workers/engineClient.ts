import { wrap, type Remote } from 'comlink';
import type { DuckdbWorkerApi } from './duckdb.worker';

let worker: Remote<DuckdbWorkerApi> | undefined;

/** The in-browser query engine, started on first use (its chunk and .wasm load only then). */
export function getEngine(): Remote<DuckdbWorkerApi> {
  worker ??= wrap<DuckdbWorkerApi>(new Worker(new URL('./duckdb.worker.ts', import.meta.url), { name: 'duckdb' }));
  return worker;
}
