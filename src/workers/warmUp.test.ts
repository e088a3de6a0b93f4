/** @jest-environment ./test/nodeEnvironment.js */
import { Dictionary, Int32, Utf8, tableFromArrays, tableFromIPC, tableToIPC, vectorFromArray } from 'apache-arrow';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { openNodeDuckdbInstance } from '../engine/testing/nodeDuckdb';
import { createEngineCore } from './engineCore';
import { WORKER_SPAN_PREFIX, workerSpans } from './timeline';
import { WARM_UP_STATEMENTS, WARM_UP_TABLE, warmUpFile } from './warmUp';

const WARM_UP_SPAN = WORKER_SPAN_PREFIX + workerSpans.warmUp;

/** A core over a real DuckDB-WASM instance, and the instance's connection for a look behind the core's back. */
async function newCoreAndConnection() {
  const { db, conn } = await openNodeDuckdbInstance();
  return { core: createEngineCore(async () => ({ conn, version: db.getVersion(), heapBytes: () => 0 })), conn };
}
const newCore = async () => (await newCoreAndConnection()).core;

/** A dataset file as the server writes them: a dictionary-encoded string and an integer. */
function datasetFile(): Uint8Array {
  const n = Int32Array.from({ length: 3000 }, (_, i) => i);
  const names = ['Alpha', 'Beta', 'Gamma'];
  const name = vectorFromArray(
    Array.from(n, (value) => names[value % 3]),
    new Dictionary(new Utf8(), new Int32()),
  );
  return tableToIPC(tableFromArrays({ n }).assign(tableFromArrays({ name: name.toArray() as unknown as string[] })));
}

/** The warm-up spans recorded since `since` (ms on this thread's clock). */
const warmUpSpans = (since: number) =>
  performance.getEntriesByName(WARM_UP_SPAN).filter((entry) => entry.startTime >= since) as PerformanceMeasure[];

async function untilWarmUpSpan(since: number): Promise<PerformanceMeasure> {
  for (;;) {
    const [span] = warmUpSpans(since);
    if (span) return span;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const countRows = async (core: Awaited<ReturnType<typeof newCore>>, sql: string) =>
  Number(
    tableFromIPC(await core.query(sql))
      .getChild('n')
      ?.get(0),
  );

describe("a fresh instance's warm-up", () => {
  it(
    'loads its rows as a dataset file is loaded, and runs every statement over them, each answering',
    async () => {
      const { conn } = await openNodeDuckdbInstance();
      conn.insertArrowFromIPCStream(warmUpFile(), { name: WARM_UP_TABLE, create: true });
      // The column types a dataset's file gives its table.
      expect(
        conn
          .query(
            `SELECT column_name || ' ' || data_type AS c FROM duckdb_columns() WHERE table_name = '${WARM_UP_TABLE}'`,
          )
          .getChild('c')
          ?.toArray(),
      ).toEqual([
        'event_date DATE',
        'campaign_type VARCHAR',
        'campaign_name VARCHAR',
        'sent INTEGER',
        'delivered INTEGER',
        'opens INTEGER',
        'revenue DOUBLE',
      ]);
      for (const sql of WARM_UP_STATEMENTS) expect(conn.query(sql).numRows).toBeGreaterThan(0);
    },
    START_TIMEOUT_MS,
  );

  it(
    'runs when asked, once the instance has opened, and leaves nothing behind',
    async () => {
      const since = performance.now();
      const core = await newCore();
      await core.warmUp();
      expect((await untilWarmUpSpan(since)).detail).toEqual({ stopped: false });
      expect(await countRows(core, `SELECT COUNT(*)::INTEGER AS n FROM duckdb_tables()`)).toBe(0);
      // Once only: asking again starts none.
      await core.warmUp();
      await core.load('t', 'v1', datasetFile());
      expect(warmUpSpans(since)).toHaveLength(1);
    },
    START_TIMEOUT_MS,
  );

  it(
    'stops for a dataset that arrives meanwhile, which loads and answers as without it',
    async () => {
      const since = performance.now();
      const { core, conn } = await newCoreAndConnection();
      await core.warmUp();
      // Until the warm-up's table is there: the warm-up has begun, and yields between its statements.
      while (!conn.query(`SELECT 1 FROM duckdb_tables() WHERE table_name = '${WARM_UP_TABLE}'`).numRows) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await core.load('t', 'v1', datasetFile())).toMatchObject({ rows: 3000 });
      expect((await untilWarmUpSpan(since)).detail).toEqual({ stopped: true });
      expect(await countRows(core, `SELECT COUNT(*)::INTEGER AS n FROM t WHERE name = 'Beta'`)).toBe(1000);
      expect(await countRows(core, `SELECT COUNT(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name <> 't'`)).toBe(
        0,
      );
    },
    START_TIMEOUT_MS,
  );

  it(
    'never begins once a query was asked',
    async () => {
      const since = performance.now();
      const core = await newCore();
      expect(await countRows(core, 'SELECT 42 AS n')).toBe(42);
      await core.warmUp();
      expect(await countRows(core, 'SELECT 43 AS n')).toBe(43);
      expect(warmUpSpans(since)).toHaveLength(0);
    },
    START_TIMEOUT_MS,
  );
});
