// Aliased in webpack.config.ts and tsconfig.json: the package does not export its browser blocking build.
import * as duckdb from '@duckdb/duckdb-wasm/browser-blocking';
import { expose, transfer } from 'comlink';
import { createEngineCore } from './engineCore';

// webpack emits each .wasm file as a hashed static asset and hands us its URL.
const BUNDLES: duckdb.DuckDBBundles = {
  mvp: { mainModule: new URL('@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm', import.meta.url).href, mainWorker: '' },
  eh: { mainModule: new URL('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm', import.meta.url).href, mainWorker: '' },
};

/** One synchronous DuckDB-WASM instance per worker: queries run on this thread, one at a time. */
async function open() {
  const db = await duckdb.createDuckDB(BUNDLES, new duckdb.VoidLogger(), duckdb.BROWSER_RUNTIME);
  await db.instantiate(() => undefined);
  db.open({});
  const conn = db.connect();
  // Never reach for the internet: datasets arrive as Arrow IPC, not Parquet.
  conn.query('SET autoinstall_known_extensions=false');
  conn.query('SET autoload_known_extensions=false');
  // The bindings' interface type hides the Emscripten module; its heap is the worker's DuckDB memory.
  const module = (db as unknown as { mod: { HEAPU8: Uint8Array } }).mod;
  return { conn, version: db.getVersion(), heapBytes: () => module.HEAPU8.buffer.byteLength };
}

expose(createEngineCore(open, (bytes) => transfer(bytes, [bytes.buffer])));
