import { type Table } from 'apache-arrow';
import { type DatasetFormat } from '../contracts/dataModel';
import { ipcSlices } from './ipcSlices';
import {
  type EngineError,
  type EngineWorkerApi,
  type WorkerStats,
  engineError,
  engineMessages,
  toEngineError,
} from './protocol';
import { recordQuerySpan, recordWorkerSpan, workerSpans } from './timeline';
import { WARM_UP_STATEMENTS, WARM_UP_TABLE, warmUpFile } from './warmUp';

/** DuckDB-WASM's pending-query bindings: a statement run in steps, so it can be cancelled between them. */
export interface PendingQueryBindings {
  /** Null while the statement still runs; then the Arrow IPC schema message of the result. */
  startPendingQuery(conn: number, text: string, allowStreamResult: boolean): Uint8Array | null;
  pollPendingQuery(conn: number): Uint8Array | null;
  cancelPendingQuery(conn: number): boolean;
  /** The next Arrow IPC record batch message; null for "not yet", empty at the end. */
  fetchQueryResults(conn: number): Uint8Array | null;
}

/** The part of a synchronous DuckDB-WASM connection the worker uses (browser and Node bundles alike). */
export interface SyncConnection {
  query(sql: string): Table;
  insertArrowFromIPCStream(buffer: Uint8Array, options: { name: string; create?: boolean }): void;
  useUnsafe<R>(callback: (bindings: PendingQueryBindings, conn: number) => R): R;
}
export interface OpenedDuckdb {
  conn: SyncConnection;
  version: string;
  heapBytes(): number;
  /** DuckDB-WASM's in-memory files (registerFileBuffer copies the bytes into the heap), for DuckDB dataset files. */
  files?: { register(name: string, bytes: Uint8Array): void; drop(name: string): void };
}

/** The parts of DuckDB-WASM's bindings (browser and Node bundles alike) an opened instance is made of. */
interface DuckdbBindings {
  getVersion(): string;
  registerFileBuffer(name: string, bytes: Uint8Array): void;
  dropFile(name: string): void;
}

/** An opened instance from DuckDB-WASM's bindings and their connection (the browser worker's and the Node test's). */
export function openedDuckdb(db: DuckdbBindings, conn: SyncConnection): OpenedDuckdb {
  // The bindings' interface type hides the Emscripten module; its heap is the worker's DuckDB memory.
  const module = (db as unknown as { mod: { HEAPU8: Uint8Array } }).mod;
  return {
    conn,
    version: db.getVersion(),
    heapBytes: () => module.HEAPU8.buffer.byteLength,
    files: { register: (name, bytes) => db.registerFileBuffer(name, bytes), drop: (name) => db.dropFile(name) },
  };
}

const TABLE = /^[a-z][a-z0-9_]{0,62}$/;
/** A DuckDB dataset file of `table`: its name among the instance's files, and the database it is attached as. */
const datasetFile = (table: string) => ({ name: `${table}.duckdb`, database: `file_${table}` });
/**
 * Bytes per insert: the file is fed to DuckDB a slice at a time, so the WebAssembly heap (at most 4 GB)
 * holds the table plus one slice rather than the table plus the whole file.
 */
const INSERT_BYTES = 64 * 1024 * 1024;
/**
 * A running statement is polled for this long before the worker yields to its message queue (where a cancel
 * may wait): short enough for a prompt cancel, long enough that yielding costs next to nothing.
 */
export const POLL_SLICE_MS = 20;
/** The end-of-stream marker of the Arrow IPC stream format. */
const ARROW_EOS = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0);

/** Lets messages already queued for this thread (a cancel) run, without a timer's clamping. */
function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      // Closed ports keep neither the thread nor Node's event loop alive.
      channel.port1.close();
      channel.port2.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Inserts an Arrow IPC stream into a new table, a slice at a time (see INSERT_BYTES). */
function insertArrow(conn: SyncConnection, table: string, bytes: Uint8Array): void {
  let created = false;
  for (const slice of ipcSlices(bytes, INSERT_BYTES)) {
    conn.insertArrowFromIPCStream(slice, { name: table, create: !created });
    created = true;
  }
  if (!created) throw engineError(engineMessages.emptyBody);
}

/** A statement of this worker, from the moment it is asked for until it settles. */
interface Job {
  cancelled: boolean;
}

const aborted = (): EngineError => engineError(engineMessages.cancelled, 'AbortError');

/**
 * The worker's API over one synchronous DuckDB instance, independent of how the instance is opened,
 * so the browser worker and the Node test worker run the same code. Errors leave as plain objects.
 * `transfer` marks result buffers for a zero-copy hand-over (Comlink's transfer in workers); `pollSliceMs` is how
 * long a running statement is polled before the worker yields (0: after every poll), for the polling benchmark.
 * Long because its short functions share one closure: the opened instance, the loaded tables, the turn of the one
 * connection and the running job.
 */
export function createEngineCore(
  open: () => Promise<OpenedDuckdb>,
  transfer: (bytes: Uint8Array) => Uint8Array = (bytes) => bytes,
  pollSliceMs = POLL_SLICE_MS,
): EngineWorkerApi {
  let opened: Promise<OpenedDuckdb> | undefined;
  const tables = new Map<string, { version: string; rows: number; format: DatasetFormat }>();
  let queries = 0;
  // One connection runs one statement at a time: calls that arrive while a query yields wait their turn here.
  let turn: Promise<unknown> = Promise.resolve();
  const jobs = new Map<string, Job>();
  let running: { job: Job; cancel(): void } | undefined;
  // The warm-up (warmUp.ts): started when the pool asks for it and nothing was asked of the instance before, stopped by
  // the first load or query that comes, which then waits for one of its small statements at most.
  let warmUp: Job | undefined;
  let asked = false;

  const db = async (): Promise<OpenedDuckdb> => {
    opened ??= open()
      .then((duckdb) => {
        const started = performance.now();
        // Datasets live in a compressed in-memory database: about a tenth of the memory of an uncompressed
        // table at the same query speed, which is what lets 10^7 rows fit the 4 GB WebAssembly heap.
        // IF NOT EXISTS: the polling benchmark runs two engine cores over one instance.
        duckdb.conn.query(`ATTACH IF NOT EXISTS ':memory:' AS datasets (COMPRESS)`);
        duckdb.conn.query('USE datasets');
        recordWorkerSpan(workerSpans.attach, started);
        return duckdb;
      })
      .catch((error: unknown) => {
        opened = undefined;
        throw engineError(`${engineMessages.notInitialized}: ${toEngineError(error).message}`);
      });
    return opened;
  };

  const guard = <T>(work: (duckdb: OpenedDuckdb) => T | Promise<T>, job: Job = { cancelled: false }): Promise<T> => {
    const result = turn.then(async () => {
      if (job.cancelled) throw aborted();
      const duckdb = await db();
      if (job.cancelled) throw aborted();
      try {
        return await work(duckdb);
      } catch (error) {
        throw job.cancelled ? aborted() : toEngineError(error);
      }
    });
    turn = result.catch(() => undefined);
    return result;
  };

  /** Runs a statement as a pending query, polled in slices, so a cancel between two slices stops it. */
  const runPending = (conn: SyncConnection, sql: string, job: Job): Promise<Uint8Array> =>
    conn.useUnsafe(async (bindings, id) => {
      running = { job, cancel: () => bindings.cancelPendingQuery(id) };
      try {
        let header = bindings.startPendingQuery(id, sql, false);
        let sliceStart = performance.now();
        while (header === null) {
          if (performance.now() - sliceStart >= pollSliceMs) {
            await yieldToMessages();
            sliceStart = performance.now();
          }
          if (job.cancelled) throw aborted();
          header = bindings.pollPendingQuery(id);
        }
        const parts = [header];
        for (;;) {
          const batch = bindings.fetchQueryResults(id);
          if (batch === null) continue;
          if (batch.byteLength === 0) break;
          parts.push(batch);
        }
        parts.push(ARROW_EOS);
        return concat(parts);
      } finally {
        running = undefined;
      }
    });

  /** Real work has come: the warm-up, if it has not begun, never will; if it runs, it stops at its next step. */
  const stopWarmUp = () => {
    asked = true;
    if (!warmUp || warmUp.cancelled) return;
    warmUp.cancelled = true;
    if (running?.job === warmUp) running.cancel();
  };

  /** Runs the warm-up's statements over its own small table, then drops the table, whether stopped or done. */
  const startWarmUp = () => {
    if (asked || warmUp) return;
    const job: Job = { cancelled: false };
    warmUp = job;
    guard(async ({ conn }) => {
      const started = performance.now();
      let error: string | undefined;
      try {
        insertArrow(conn, WARM_UP_TABLE, warmUpFile());
        for (const sql of WARM_UP_STATEMENTS) {
          // A statement this small often ends in its first step, without yielding: the next one waits for a load
          // or query that came meanwhile.
          await yieldToMessages();
          if (job.cancelled) break;
          await runPending(conn, sql, job);
        }
      } catch (caught) {
        // Never the user's concern: the queries compile what they need as they would have without it.
        if (!job.cancelled) error = toEngineError(caught).message;
      } finally {
        conn.query(`DROP TABLE IF EXISTS "${WARM_UP_TABLE}"`);
        recordWorkerSpan(workerSpans.warmUp, started, { stopped: job.cancelled, ...(error && { error }) });
      }
    }, job).catch(() => undefined);
  };

  /** Removes `table` as it was loaded: a table of its own, or a view over an attached DuckDB file. */
  const unload = ({ conn, files }: OpenedDuckdb, table: string) => {
    const file = datasetFile(table);
    if (tables.get(table)?.format === 'duckdb') {
      conn.query(`DROP VIEW IF EXISTS "${table}"`);
      conn.query(`DETACH DATABASE IF EXISTS "${file.database}"`);
      files?.drop(file.name);
    } else {
      conn.query(`DROP TABLE IF EXISTS "${table}"`);
    }
    tables.delete(table);
  };

  /**
   * Attaches a DuckDB database file (the server wrote it with one table) read-only, under a view named as the
   * table the SQL builders read: no insert, and DuckDB's own storage (compressed, with zone maps) to scan.
   */
  const attachFile = ({ conn, files }: OpenedDuckdb, table: string, bytes: Uint8Array) => {
    if (!files) throw engineError('This engine cannot attach DuckDB files');
    const file = datasetFile(table);
    files.register(file.name, bytes);
    try {
      conn.query(`ATTACH '${file.name}' AS "${file.database}" (READ_ONLY)`);
      const found = conn
        .query(`SELECT table_name AS t FROM duckdb_tables() WHERE database_name = '${file.database}'`)
        .getChild('t')
        ?.toArray() as string[] | undefined;
      if (found?.length !== 1) throw engineError(`A dataset file holds one table, not ${found?.length ?? 0}`);
      const source = `"${file.database}"."${found[0].replaceAll('"', '""')}"`;
      conn.query(`CREATE VIEW "${table}" AS SELECT * FROM ${source}`);
    } catch (error) {
      conn.query(`DETACH DATABASE IF EXISTS "${file.database}"`);
      files.drop(file.name);
      throw error;
    }
  };

  return {
    version: () => guard((duckdb) => duckdb.version),

    warmUp: async () => startWarmUp(),

    load: (table, version, bytes, format = 'arrow') => {
      stopWarmUp();
      const received = performance.now();
      recordWorkerSpan(workerSpans.received, received, { table });
      return guard((duckdb) => {
        recordWorkerSpan(workerSpans.wait, received, { table });
        if (!TABLE.test(table)) throw engineError(`Invalid table name "${table}"`);
        if (!bytes || bytes.byteLength === 0) throw engineError(engineMessages.emptyBody);
        let started = performance.now();
        // Replace rather than append: a new version of a dataset is a whole new file.
        unload(duckdb, table);
        if (format === 'duckdb') attachFile(duckdb, table, bytes);
        else insertArrow(duckdb.conn, table, bytes);
        recordWorkerSpan(workerSpans.insert, started, { table });
        started = performance.now();
        const rows = Number(duckdb.conn.query(`SELECT COUNT(*) AS n FROM "${table}"`).getChild('n')?.get(0) ?? 0);
        recordWorkerSpan(workerSpans.count, started, { table });
        tables.set(table, { version, rows, format });
        return { rows, wasmHeapBytes: duckdb.heapBytes() };
      });
    },

    query: (sql, queryId) => {
      stopWarmUp();
      const job: Job = { cancelled: false };
      if (queryId !== undefined) jobs.set(queryId, job);
      return guard(async ({ conn }) => {
        queries += 1;
        const started = performance.now();
        const answer = transfer(await runPending(conn, sql, job));
        recordQuerySpan(started, queries);
        return answer;
      }, job).finally(() => {
        if (queryId !== undefined && jobs.get(queryId) === job) jobs.delete(queryId);
      });
    },

    // Not queued behind the statement it stops: it runs while that statement yields between slices.
    cancel: async (queryId) => {
      const job = jobs.get(queryId);
      if (!job || job.cancelled) return false;
      job.cancelled = true;
      if (running?.job === job) running.cancel();
      return true;
    },

    stats: () => {
      stopWarmUp();
      return guard(({ conn, heapBytes }): WorkerStats => {
        const memory = conn.query('SELECT COALESCE(SUM(memory_usage_bytes), 0)::DOUBLE AS bytes FROM duckdb_memory()');
        return {
          tables: [...tables].map(([table, { version, rows }]) => ({ table, version, rows })),
          wasmHeapBytes: heapBytes(),
          duckdbMemoryBytes: Number(memory.getChild('bytes')?.get(0) ?? 0),
          queries,
        };
      });
    },
  };
}
