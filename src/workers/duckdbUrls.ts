import { type DuckdbBundle } from './protocol';

/** webpack emits each .wasm file as a hashed static asset (cached for a year) and hands us its URL. */
export const DUCKDB_MODULE_URLS: Record<DuckdbBundle, string> = {
  mvp: new URL('@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm', import.meta.url).href,
  eh: new URL('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm', import.meta.url).href,
};
