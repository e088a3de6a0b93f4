// First: no schema may be made before zod is told not to use eval (see noEval.ts).
import '../app/noEval';
// Aliased in webpack.config.ts and tsconfig.json: the package does not export its browser blocking build.
import * as duckdb from '@duckdb/duckdb-wasm/browser-blocking';
import { expose, transfer } from 'comlink';
import { createEngineCore } from './engineCore';

// webpack emits each .wasm file as a hashed static asset and hands us its URL.
const BUNDLES: duckdb.DuckDBBundles = {
  mvp: { mainModule: new URL('@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm', import.meta.url).href, mainWorker: '' },
  eh: { mainModule: new URL('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm', import.meta.url).href, mainWorker: '' },
};

const MODULE_FETCH_ATTEMPTS = 3;

/**
 * The chosen module's bytes as an in-memory URL. DuckDB's own loader compiles straight from the HTTP response,
 * and when that stream breaks (Chromium fails to write the 33 MB module to its disk cache when a reload
 * interrupted the previous copy) its loader neither answers nor fails, leaving every query waiting. Read
 * here, a broken download is an error we can retry.
 */
async function moduleUrl(url: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`HTTP ${response.status} for the DuckDB module`);
      return URL.createObjectURL(new Blob([await response.arrayBuffer()], { type: 'application/wasm' }));
    } catch (error) {
      if (attempt >= MODULE_FETCH_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** One synchronous DuckDB-WASM instance per worker: queries run on this thread, one at a time. */
async function open() {
  const bundle = await duckdb.selectBundle(BUNDLES);
  const url = await moduleUrl(bundle.mainModule);
  const chosen = { mainModule: url, mainWorker: '' };
  const db = await duckdb.createDuckDB({ mvp: chosen, eh: chosen }, new duckdb.VoidLogger(), duckdb.BROWSER_RUNTIME);
  try {
    await db.instantiate(() => undefined);
  } finally {
    URL.revokeObjectURL(url);
  }
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
