import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import type * as DuckdbBlocking from '@duckdb/duckdb-wasm/blocking';

/** Where DuckDB-WASM's bundles and modules are installed. */
export const DUCKDB_DIST = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'));
export const shipped = (name: string) => fs.readFileSync(path.join(DUCKDB_DIST, name), 'utf8');

/** DuckDB-WASM's Node bundle compiled from `source` (Node's own module loader, as for the installed file). */
export function bundleFrom(source: string): typeof DuckdbBlocking {
  const filename = path.join(DUCKDB_DIST, 'duckdb-node-blocking.patched.cjs');
  const loaded = new Module(filename) as Module & { _compile(code: string, file: string): void };
  loaded.filename = filename;
  loaded.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(DUCKDB_DIST);
  loaded._compile(source, filename);
  return loaded.exports as typeof DuckdbBlocking;
}

/** The shipped modules: the bundle runs the eh one where Node has WebAssembly exceptions, as it does. */
const SHIPPED_MODULES: DuckdbBlocking.DuckDBBundles = {
  mvp: { mainModule: path.join(DUCKDB_DIST, 'duckdb-mvp.wasm'), mainWorker: '' },
  eh: { mainModule: path.join(DUCKDB_DIST, 'duckdb-eh.wasm'), mainWorker: '' },
};

/** Statements of the kinds the engine runs, and two that fail (a conversion, a missing table). */
export const ENGINE_STATEMENTS = [
  'SET autoinstall_known_extensions=false',
  'SET autoload_known_extensions=false',
  "SELECT sum(i)::BIGINT AS s, avg(i) AS a, string_agg(DISTINCT (i % 3)::VARCHAR, ',' ORDER BY 1) AS g FROM range(100000) t(i)",
  "SELECT date_trunc('week', DATE '2026-11-27' + i::INTEGER) AS w, count(*) AS n FROM range(30) t(i) GROUP BY 1 ORDER BY 1",
  'SELECT i, sum(i) OVER (ORDER BY i ROWS 2 PRECEDING) AS s FROM range(5) t(i)',
  "SELECT regexp_extract('campaign-2026-11', '(\\d+)-(\\d+)', 2) AS m, upper('openrate') AS u",
  "SELECT CAST('not a number' AS INTEGER)",
  'SELECT * FROM no_such_table',
];

/** What DuckDB answers to `sql` (rows as JSON, or the error's message) on an instance of `bundle`. */
export async function answers(
  bundle: typeof DuckdbBlocking,
  sql: string[],
  modules: DuckdbBlocking.DuckDBBundles = SHIPPED_MODULES,
): Promise<string[]> {
  const db = await bundle.createDuckDB(modules, new bundle.VoidLogger(), bundle.NODE_RUNTIME);
  await db.instantiate(() => undefined);
  db.open({});
  const conn = db.connect();
  const out = sql.map((statement) => {
    try {
      const rows = conn
        .query(statement)
        .toArray()
        .map((row) => row.toJSON());
      return JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  });
  conn.close();
  db.reset();
  return out;
}
