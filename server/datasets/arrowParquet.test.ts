import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as duckdbWasm from '@duckdb/duckdb-wasm/blocking';
import { DuckDBInstance } from '@duckdb/node-api';
import { catalogue } from '../../src/contracts/catalogue';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { generateWorkspaceDatasets, workspaceDatasetDir } from './generate';

/** The browser's view (DuckDB-WASM over the Arrow stream) and the server's (DuckDB over Parquet) must agree. */

let dataDir: string;
let dir: string;
let wasm: duckdbWasm.DuckDBConnection;
let wasmDb: duckdbWasm.DuckDBBindings;
let native: DuckDBInstance;

function distFile(name: string): string {
  return path.join(path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs')), name);
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-arrow-'));
  await generateWorkspaceDatasets(dataDir, 1, { rows: 30_000, seed: 11, endDate: '2026-11-21' });
  dir = workspaceDatasetDir(dataDir, 1);
  wasmDb = await duckdbWasm.createDuckDB(
    {
      mvp: { mainModule: distFile('duckdb-mvp.wasm'), mainWorker: '' },
      eh: { mainModule: distFile('duckdb-eh.wasm'), mainWorker: '' },
    },
    new duckdbWasm.VoidLogger(),
    duckdbWasm.NODE_RUNTIME,
  );
  await wasmDb.instantiate(() => undefined);
  wasmDb.open({});
  wasm = wasmDb.connect();
  native = await DuckDBInstance.create(':memory:');
}, START_TIMEOUT_MS);

afterAll(() => {
  wasm?.close();
  native?.closeSync();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Sums of every stored metric per month, plus row counts and distinct values of every dimension. */
function summaryQuery(table: string, datasetId: string): string {
  const dataset = catalogue.find((d) => d.id === datasetId)!;
  const sums = dataset.fields
    .filter((field) => field.type === 'metric' && field.agg?.type === 'sum')
    .map((field) => `round(CAST(sum("${field.id}") AS DOUBLE), 4) AS "${field.id}"`);
  const dimensions = dataset.fields
    .filter((field) => field.type === 'dimension')
    .map((field) => `CAST(count(DISTINCT "${field.id}") AS INTEGER) AS "distinct_${field.id}"`);
  return `SELECT strftime(date_trunc('month', "${dataset.dateField}"), '%Y-%m') AS month, CAST(count(*) AS INTEGER) AS n,
      ${[...sums, ...dimensions].join(', ')}
    FROM ${table} GROUP BY 1 ORDER BY 1`;
}

function plain(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [key, typeof value === 'bigint' ? Number(value) : value]),
    ),
  );
}

describe('Arrow stream in DuckDB-WASM versus Parquet in DuckDB', () => {
  it.each(catalogue.map((dataset) => dataset.id))('%s gives the same sums per metric and month', async (datasetId) => {
    wasm.insertArrowFromIPCStream(new Uint8Array(fs.readFileSync(path.join(dir, `${datasetId}.arrow`))), {
      name: datasetId,
    });
    const inBrowser = plain(
      wasm
        .query(summaryQuery(datasetId, datasetId))
        .toArray()
        .map((row: { toJSON(): Record<string, unknown> }) => row.toJSON()),
    );

    const connection = await native.connect();
    try {
      const parquet = `read_parquet('${path.join(dir, `${datasetId}.parquet`)}')`;
      const onServer = plain((await connection.runAndReadAll(summaryQuery(parquet, datasetId))).getRowObjectsJS());
      expect(inBrowser.length).toBeGreaterThan(0);
      expect(inBrowser).toEqual(onServer);
    } finally {
      connection.closeSync();
    }
  });

  it('keeps the rows in the same order in both files', async () => {
    const columns = `strftime(event_date, '%Y-%m-%d') AS day, campaign_id, country, open, CAST(revenue AS DOUBLE) AS revenue`;
    const inBrowser = plain(
      wasm
        .query(`SELECT ${columns} FROM campaign_metrics_by_event_date LIMIT 40`)
        .toArray()
        .map((row: { toJSON(): Record<string, unknown> }) => row.toJSON()),
    );
    const connection = await native.connect();
    try {
      const parquet = `read_parquet('${path.join(dir, 'campaign_metrics_by_event_date.parquet')}')`;
      const onServer = plain(
        (await connection.runAndReadAll(`SELECT ${columns} FROM ${parquet} LIMIT 40`)).getRowObjectsJS(),
      );
      expect(inBrowser).toEqual(onServer);
      expect(new Set(inBrowser.map((row) => row.campaign_id)).size).toBeGreaterThan(1);
    } finally {
      connection.closeSync();
    }
  });

  it('reads strings as text and dates as dates from the Arrow stream', () => {
    const row = wasm
      .query(
        `SELECT typeof(campaign_name) AS name_type, typeof(send_date) AS date_type, typeof(is_ab_test) AS flag_type,
           typeof(revenue) AS revenue_type FROM campaign_metrics_by_send_date LIMIT 1`,
      )
      .toArray()[0]
      .toJSON();
    expect(row).toEqual({ name_type: 'VARCHAR', date_type: 'DATE', flag_type: 'BOOLEAN', revenue_type: 'DOUBLE' });
  });
});
