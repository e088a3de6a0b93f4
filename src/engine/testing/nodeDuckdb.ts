import path from 'node:path';
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import { type Table } from 'apache-arrow';

/** Resolves a file of the installed DuckDB-WASM dist folder (the wasm modules next to the Node bundle). */
function distFile(name: string): string {
  return path.join(path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs')), name);
}

/** A real synchronous DuckDB-WASM instance in Node (tests, the Node test worker, the benchmark). */
export async function openNodeDuckdbInstance(): Promise<{ db: duckdb.DuckDBBindings; conn: duckdb.DuckDBConnection }> {
  const db = await duckdb.createDuckDB(
    {
      mvp: { mainModule: distFile('duckdb-mvp.wasm'), mainWorker: '' },
      eh: { mainModule: distFile('duckdb-eh.wasm'), mainWorker: '' },
    },
    new duckdb.VoidLogger(),
    duckdb.NODE_RUNTIME,
  );
  await db.instantiate(() => undefined);
  db.open({});
  const conn = db.connect();
  conn.query('SET autoinstall_known_extensions=false');
  conn.query('SET autoload_known_extensions=false');
  return { db, conn };
}

/** A real synchronous DuckDB-WASM connection in Node, for tests of the SQL builders. */
export async function openNodeDuckdb(): Promise<duckdb.DuckDBConnection> {
  return (await openNodeDuckdbInstance()).conn;
}

/** Plain row objects with numbers and strings (Arrow values converted). */
export function tableRows(table: Table): Record<string, unknown>[] {
  return table.toArray().map((row: { toJSON(): Record<string, unknown> }) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row.toJSON())) {
      out[key] = typeof value === 'bigint' ? Number(value) : value;
    }
    return out;
  });
}

/** Runs SQL and returns plain row objects with numbers and strings (Arrow values converted). */
export function rows(conn: duckdb.DuckDBConnection, sql: string): Record<string, unknown>[] {
  return tableRows(conn.query(sql));
}
