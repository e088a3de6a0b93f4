import { type Table, tableToIPC } from 'apache-arrow';
import { ipcSlices } from './ipcSlices';
import { type EngineWorkerApi, type WorkerStats, engineError, engineMessages, toEngineError } from './protocol';

/** The part of a synchronous DuckDB-WASM connection the worker uses (browser and Node bundles alike). */
export interface SyncConnection {
  query(sql: string): Table;
  insertArrowFromIPCStream(buffer: Uint8Array, options: { name: string; create?: boolean }): void;
}
export interface OpenedDuckdb {
  conn: SyncConnection;
  version: string;
  heapBytes(): number;
}

const TABLE = /^[a-z][a-z0-9_]{0,62}$/;
/**
 * Bytes per insert: the file is fed to DuckDB a slice at a time, so the WebAssembly heap (at most 4 GB)
 * holds the table plus one slice rather than the table plus the whole file.
 */
const INSERT_BYTES = 64 * 1024 * 1024;

/**
 * The worker's API over one synchronous DuckDB instance, independent of how the instance is opened,
 * so the browser worker and the Node test worker run the same code. Errors leave as plain objects.
 * `transfer` marks result buffers for a zero-copy hand-over (Comlink's transfer in workers).
 */
export function createEngineCore(
  open: () => Promise<OpenedDuckdb>,
  transfer: (bytes: Uint8Array) => Uint8Array = (bytes) => bytes,
): EngineWorkerApi {
  let opened: Promise<OpenedDuckdb> | undefined;
  const tables = new Map<string, { version: string; rows: number }>();
  let queries = 0;

  const db = async (): Promise<OpenedDuckdb> => {
    opened ??= open()
      .then((duckdb) => {
        // Datasets live in a compressed in-memory database: about a tenth of the memory of an uncompressed
        // table at the same query speed, which is what lets 10^7 rows fit the 4 GB WebAssembly heap.
        duckdb.conn.query(`ATTACH ':memory:' AS datasets (COMPRESS)`);
        duckdb.conn.query('USE datasets');
        return duckdb;
      })
      .catch((error: unknown) => {
        opened = undefined;
        throw engineError(`${engineMessages.notInitialized}: ${toEngineError(error).message}`);
      });
    return opened;
  };

  const guard = async <T>(work: (duckdb: OpenedDuckdb) => T): Promise<T> => {
    const duckdb = await db();
    try {
      return work(duckdb);
    } catch (error) {
      throw toEngineError(error);
    }
  };

  return {
    version: () => guard((duckdb) => duckdb.version),

    load: (table, version, bytes) =>
      guard(({ conn }) => {
        if (!TABLE.test(table)) throw engineError(`Invalid table name "${table}"`);
        if (!bytes || bytes.byteLength === 0) throw engineError(engineMessages.emptyBody);
        // Replace rather than append: a new version of a dataset is a whole new file.
        conn.query(`DROP TABLE IF EXISTS "${table}"`);
        let created = false;
        for (const slice of ipcSlices(bytes, INSERT_BYTES)) {
          conn.insertArrowFromIPCStream(slice, { name: table, create: !created });
          created = true;
        }
        if (!created) throw engineError(engineMessages.emptyBody);
        const rows = Number(conn.query(`SELECT COUNT(*) AS n FROM "${table}"`).getChild('n')?.get(0) ?? 0);
        tables.set(table, { version, rows });
        return { rows };
      }),

    query: (sql) =>
      guard(({ conn }) => {
        queries += 1;
        return transfer(tableToIPC(conn.query(sql), 'stream'));
      }),

    stats: () =>
      guard(({ conn, heapBytes }): WorkerStats => {
        const memory = conn.query('SELECT COALESCE(SUM(memory_usage_bytes), 0)::DOUBLE AS bytes FROM duckdb_memory()');
        return {
          tables: [...tables].map(([table, entry]) => ({ table, ...entry })),
          wasmHeapBytes: heapBytes(),
          duckdbMemoryBytes: Number(memory.getChild('bytes')?.get(0) ?? 0),
          queries,
        };
      }),
  };
}
