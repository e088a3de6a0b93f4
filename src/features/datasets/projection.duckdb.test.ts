/** @jest-environment ./test/nodeEnvironment.js */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { type DatasetFile } from '../../../server/services/datasets';
import { projectedDatasetFile } from '../../../server/services/projectedDatasets';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ReportFilter, type Widget, type WidgetType } from '../../contracts/reports';
import { buildQuery, type QueryInput, type QueryKind } from '../../engine/queries';
import {
  campaignColumns,
  campaignRows,
  campaignSchema,
  listColumns,
  listRows,
  listSchema,
  tableSql,
} from '../../engine/testing/fixtures';
import { openNodeDuckdb, openNodeDuckdbInstance, rows, tableRows } from '../../engine/testing/nodeDuckdb';
import { createEngineCore, openedDuckdb } from '../../workers/engineCore';
import { type EngineWorkerApi } from '../../workers/protocol';
import { type TargetRead, widgetReads } from '../public-report/publicScope';
import { widgetRegistry } from '../widgets/registry';
import { effectiveFilters } from '../widgets/widgetQuery';
import { covers, type DashboardProjection, missingColumns, projectedColumns } from './projection';

/**
 * Every widget kind of the registry, configured: the columns a view-mode dashboard of it loads must answer every
 * query the kind runs with the same numbers as the whole dataset. A new kind fails to compile here until added.
 */
const campaigns = campaignSchema.id;
const examples: { readonly [T in WidgetType]: Widget } = {
  campaign_performance: { id: 'kpi', type: 'campaign_performance', dataset: campaigns, metrics: ['sent', 'open_rate'] },
  graph: {
    id: 'graph',
    type: 'graph',
    dataset: campaigns,
    metrics: ['revenue'],
    metricsByDimensions: [
      { metric: 'campaigns', dimension: 'send_weekday', filters: [{ member: 'sent', operator: 'gt', values: ['0'] }] },
    ],
  },
  funnel: {
    id: 'funnel',
    type: 'funnel',
    dataset: campaigns,
    funnelMetrics: ['sent', 'delivered'],
    conversionMetric: 'open_rate',
  },
  table: {
    id: 'table',
    type: 'table',
    dataset: campaigns,
    metrics: ['open_rate', 'revenue'],
    dimensions: ['country'],
  },
  high_low: { id: 'hl', type: 'high_low', dataset: campaigns, metrics: ['clicks_unique'], dimension: 'campaign_name' },
  subscriber_growth: { id: 'growth', type: 'subscriber_growth', dataset: listSchema.id, filteredLists: ['Newsletter'] },
  target: { id: 'target', type: 'target', targets: ['t1'] },
  list: { id: 'list', type: 'list', dataset: campaigns, metrics: ['clicks_unique'], dimensions: ['country'] },
  rich_text: { id: 'text', type: 'rich_text' },
};
const targets: TargetRead[] = [{ dataset: campaigns, metric: 'open_rate', filters: [] }];
const dashboardFilters: ReportFilter[] = [{ member: 'country', operator: 'equals', values: ['NL', 'DE'] }];
const range = { start: '2024-01-01', end: '2024-02-29' };
const compare = { start: '2023-12-01', end: '2023-12-31' };

/** The queries of one kind for one read of a widget, as its view asks them. */
function queriesOf(kind: QueryKind, read: ReturnType<typeof widgetReads>[number], schema: DatasetSchema): QueryInput[] {
  const base = { dataset: schema.id, range, filters: effectiveFilters(read.filters, schema) };
  const [dimension] = read.dimensions;
  const metric = read.metrics[0];
  switch (kind) {
    case 'timeSeries':
      return [{ ...base, kind, compare, metrics: [...read.metrics] }] as QueryInput[];
    case 'timeSeriesByDimension':
      return dimension ? ([{ ...base, kind, metric, dimension }] as QueryInput[]) : [];
    case 'funnel':
      return [{ ...base, kind, compare, metrics: [...read.metrics] }] as QueryInput[];
    case 'tableCompare':
      return [{ ...base, kind, compare, metrics: [...read.metrics], dimensions: [...read.dimensions] }] as QueryInput[];
    case 'highLow':
      return [{ ...base, kind, metrics: [...read.metrics], dimension }] as QueryInput[];
    case 'subscriberGrowth':
      return [{ ...base, kind, compare, lists: ['Newsletter'] }] as QueryInput[];
    case 'distinctValues':
      return [{ kind, dataset: schema.id, dimension: 'list_name', filters: [] }] as QueryInput[];
    case 'targetProgress':
      return [{ ...base, kind, metric, target: 1000 }] as QueryInput[];
    case 'targetHistory':
      return [{ ...base, kind, metric }] as QueryInput[];
    default:
      throw new Error(`No example query for ${kind}`);
  }
}

let conn: DuckDBConnection;
let dataDir: string | undefined;
/** The fixtures as the server keeps datasets (Parquet), for it to write projected DuckDB files from. */
const sources = new Map<string, DatasetFile>();
/** The browser worker's engine over the Node build of DuckDB-WASM: it attaches the server's DuckDB files. */
let engine: EngineWorkerApi;

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql(campaignSchema.tableId, campaignColumns, campaignRows())) conn.query(sql);
  for (const sql of tableSql(listSchema.tableId, listColumns, listRows())) conn.query(sql);
  conn.query('CREATE SCHEMA projected');

  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-projection-'));
  const native = await DuckDBInstance.create(':memory:');
  const connection = await native.connect();
  try {
    for (const [schema, columns, fixture] of [
      [campaignSchema, campaignColumns, campaignRows()],
      [listSchema, listColumns, listRows()],
    ] as const) {
      for (const sql of tableSql(schema.tableId, columns, fixture)) await connection.run(sql);
      const parquetPath = path.join(dataDir, `${schema.tableId}.parquet`);
      await connection.run(`COPY ${schema.tableId} TO '${parquetPath}' (FORMAT parquet)`);
      sources.set(schema.id, { parquetPath, arrowPath: '', gzipPath: '', version: 'v1', arrowBytes: 0, gzipBytes: 0 });
    }
  } finally {
    connection.closeSync();
    native.closeSync();
  }
  engine = createEngineCore(async () => {
    const wasm = await openNodeDuckdbInstance();
    return openedDuckdb(wasm.db, wasm.conn);
  });
}, START_TIMEOUT_MS);

afterAll(() => {
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Has the server write the DuckDB file of `columns` (native DuckDB) and the engine attach it (DuckDB-WASM). */
async function attachFile(schema: DatasetSchema, columns: readonly string[]): Promise<void> {
  const source = sources.get(schema.id)!;
  const file = await projectedDatasetFile(dataDir!, 1, schema.id, schema.tableId, source, columns, 'duckdb');
  await engine.load(schema.tableId, file.version, new Uint8Array(fs.readFileSync(file.arrowPath)), 'duckdb');
}

/** Runs `sql` over the whole tables, or over copies in the schema `projected` that hold `columns` only. */
function answer(sql: string, schema: DatasetSchema, columns?: readonly string[]) {
  if (!columns) {
    conn.query('SET search_path = main');
    return rows(conn, sql);
  }
  const stored = Object.keys(schema === listSchema ? listColumns : campaignColumns).filter((c) => columns.includes(c));
  conn.query(
    `CREATE OR REPLACE TABLE projected.${schema.tableId} AS SELECT ${stored.join(', ')} FROM main.${schema.tableId}`,
  );
  conn.query('SET search_path = projected');
  try {
    return rows(conn, sql);
  } finally {
    conn.query('SET search_path = main');
  }
}

describe('the columns a view-mode dashboard loads', () => {
  it.each(Object.keys(widgetRegistry) as WidgetType[])(
    'answers every query of a %s widget as the whole dataset does, over the columns and over their DuckDB file',
    async (type) => {
      const widget = examples[type];
      const definition = widgetRegistry[type];
      const projection: DashboardProjection = { widgets: [widget], filters: dashboardFilters, targets };
      const reads =
        type === 'target'
          ? targets.map((target) => ({ metrics: [target.metric], dimensions: [], filters: target.filters }))
          : widgetReads(widget).map((read) => ({ ...read, filters: [...read.filters, ...dashboardFilters] }));
      if (definition.queries.length === 0) {
        // A kind that runs no query reads nothing.
        expect(reads).toEqual([]);
        return;
      }
      const schema = type === 'subscriber_growth' ? listSchema : campaignSchema;
      const columns = projectedColumns(projection, schema);
      // Something is left out (a subscriber-growth widget shows every field of the list fixture).
      if (type !== 'subscriber_growth') expect(columns.length).toBeLessThan(schema.fields.length);
      await attachFile(schema, columns);
      let ran = 0;
      for (const read of reads) {
        for (const kind of definition.queries) {
          for (const query of queriesOf(kind, read, schema)) {
            const sql = buildQuery(schema, query);
            expect([kind, missingColumns(sql, schema, columns)]).toEqual([kind, []]);
            const whole = answer(sql, schema);
            expect(answer(sql, schema, columns)).toEqual(whole);
            expect(tableRows(tableFromIPC(await engine.query(sql)))).toEqual(whole);
            ran += whole.length > 0 ? 1 : 0;
          }
        }
      }
      // The comparison is of numbers, not of empty answers.
      expect(ran).toBeGreaterThan(0);
    },
  );

  it('reads the dashboard filters, the date field and the sources of ratios and distinct counts', () => {
    const projection: DashboardProjection = {
      widgets: [examples.graph, examples.table],
      filters: dashboardFilters,
      targets: [],
    };
    expect(projectedColumns(projection, campaignSchema)).toEqual([
      'send_date',
      'campaign_id',
      'country',
      'send_weekday',
      'sent',
      'delivered',
      'open',
      'revenue',
      'campaigns',
      'open_rate',
    ]);
    // No widget of the dashboard reads the list dataset: the view reads only whether it has rows.
    expect(projectedColumns(projection, listSchema)).toEqual(['date']);
  });

  it('tells when a loaded table lacks a column a query names', () => {
    const columns = projectedColumns({ widgets: [examples.funnel], filters: [], targets: [] }, campaignSchema)!;
    const revenue = buildQuery(campaignSchema, {
      kind: 'funnel',
      dataset: campaigns,
      range,
      metrics: ['revenue'],
      filters: [],
    });
    expect(missingColumns(revenue, campaignSchema, columns)).toEqual(['revenue']);
    expect(missingColumns(revenue, campaignSchema, undefined)).toEqual([]);
    expect(covers(undefined, null)).toBe(true);
    expect(covers(columns, null)).toBe(false);
    expect(covers(columns, ['sent'])).toBe(true);
    expect(covers(['sent'], columns)).toBe(false);
  });
});
