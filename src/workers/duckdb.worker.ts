// Aliased in webpack.config.ts and tsconfig.json: the package does not export its browser blocking build.
import * as duckdb from '@duckdb/duckdb-wasm/browser-blocking';
import { tableToIPC } from 'apache-arrow';
import { expose, transfer } from 'comlink';

// webpack emits each .wasm file as a hashed static asset and hands us its URL.
const BUNDLES: duckdb.DuckDBBundles = {
  mvp: { mainModule: new URL('@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm', import.meta.url).href, mainWorker: '' },
  eh: { mainModule: new URL('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm', import.meta.url).href, mainWorker: '' },
};

let ready: Promise<duckdb.DuckDBConnection> | undefined;

/** One synchronous DuckDB-WASM instance per worker, opened on first use behind one shared promise. */
function connection(): Promise<duckdb.DuckDBConnection> {
  ready ??= (async () => {
    const db = await duckdb.createDuckDB(BUNDLES, new duckdb.VoidLogger(), duckdb.BROWSER_RUNTIME);
    await db.instantiate(() => undefined);
    db.open({});
    const conn = db.connect();
    // Never reach for the internet: datasets arrive as Arrow IPC, not Parquet.
    conn.query('SET autoinstall_known_extensions=false');
    conn.query('SET autoload_known_extensions=false');
    return conn;
  })();
  return ready;
}

const engine = {
  async version(): Promise<string> {
    const conn = await connection();
    return String(conn.query('SELECT version() AS v').getChild('v')?.get(0));
  },
  /** Runs SQL and returns the result as Arrow IPC stream bytes, transferred rather than copied. */
  async query(sql: string): Promise<Uint8Array> {
    const conn = await connection();
    const bytes = tableToIPC(conn.query(sql), 'stream');
    return transfer(bytes, [bytes.buffer]);
  },
};

export type DuckdbWorkerApi = typeof engine;
expose(engine);
