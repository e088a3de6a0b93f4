/** @jest-environment ./test/nodeEnvironment.js */
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import type * as DuckdbBlocking from '@duckdb/duckdb-wasm/blocking';
import { GLUE_CHANGES, GLUE_COPIES, withLeanStartCode } from '../scripts/duckdbGlue';

const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'));
const shipped = (name: string) => fs.readFileSync(path.join(dist, name), 'utf8');

/** DuckDB-WASM's Node bundle compiled from `source` (Node's own module loader, as for the installed file). */
function bundleFrom(source: string): typeof DuckdbBlocking {
  const filename = path.join(dist, 'duckdb-node-blocking.patched.cjs');
  const loaded = new Module(filename) as Module & { _compile(code: string, file: string): void };
  loaded.filename = filename;
  loaded.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dist);
  loaded._compile(source, filename);
  return loaded.exports as typeof DuckdbBlocking;
}

/** What DuckDB answers to `sql` (rows as JSON, or the error's message) on an instance of `bundle`. */
async function answers(bundle: typeof DuckdbBlocking, sql: string[]): Promise<string[]> {
  const db = await bundle.createDuckDB(
    {
      mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: '' },
      eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: '' },
    },
    new bundle.VoidLogger(),
    bundle.NODE_RUNTIME,
  );
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

describe('DuckDB-WASM with a lean start code (scripts/duckdbGlue.ts)', () => {
  it('applies to each copy of the start code in the browser bundle the app builds and in the Node bundle', () => {
    for (const name of ['duckdb-browser-blocking.mjs', 'duckdb-node-blocking.cjs']) {
      const source = shipped(name);
      const patched = withLeanStartCode(source);
      expect(patched).not.toEqual(source);
      for (const { from, to } of GLUE_CHANGES) {
        expect(patched).not.toContain(from);
        expect(patched.split(to)).toHaveLength(GLUE_COPIES + 1);
      }
    }
    expect(() => withLeanStartCode('var GOT={};')).toThrow(/check scripts\/duckdbGlue.ts/);
  });

  it('answers what the shipped start code answers, errors included', async () => {
    const sql = [
      'SET autoinstall_known_extensions=false',
      'SET autoload_known_extensions=false',
      "SELECT sum(i)::BIGINT AS s, avg(i) AS a, string_agg(DISTINCT (i % 3)::VARCHAR, ',' ORDER BY 1) AS g FROM range(100000) t(i)",
      "SELECT date_trunc('week', DATE '2026-11-27' + i::INTEGER) AS w, count(*) AS n FROM range(30) t(i) GROUP BY 1 ORDER BY 1",
      'SELECT i, sum(i) OVER (ORDER BY i ROWS 2 PRECEDING) AS s FROM range(5) t(i)',
      "SELECT regexp_extract('campaign-2026-11', '(\\d+)-(\\d+)', 2) AS m, upper('openrate') AS u",
      "SELECT CAST('not a number' AS INTEGER)",
      'SELECT * FROM no_such_table',
    ];
    const expected = await answers(bundleFrom(shipped('duckdb-node-blocking.cjs')), sql);
    const patched = await answers(bundleFrom(withLeanStartCode(shipped('duckdb-node-blocking.cjs'))), sql);
    expect(patched).toEqual(expected);
    expect(expected[2]).toBe('[{"s":"4999950000","a":49999.5,"g":"0,1,2"}]');
    expect(expected[6]).toMatch(/^error: Conversion Error/);
  });
});
