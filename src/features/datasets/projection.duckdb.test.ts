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
import {
  covers,
  coversRows,
  type DashboardProjection,
  lacksRows,
  missingColumns,
  projectedColumns,
  projectedSince,
  projectionFirstDay,
} from './projection';

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
  subscriber_growth: { id: 'growth', type: 'subscriber_growth', dataset: listSchema.id, filteredLists: ['A'] },
  target: { id: 'target', type: 'target', targets: ['t1'] },
  list: { id: 'list', type: 'list', dataset: campaigns, metrics: ['clicks_unique'], dimensions: ['country'] },
  rich_text: { id: 'text', type: 'rich_text' },
};
const targets: TargetRead[] = [{ dataset: campaigns, metric: 'open_rate', filters: [] }];
const dashboardFilters: ReportFilter[] = [{ member: 'country', operator: 'equals', values: ['NL', 'DE'] }];
const range = { start: '2024-01-01', end: '2024-02-29' };
const compare = { start: '2023-12-01', end: '2023-12-31' };

/** The queries of one kind for one read of a widget, as its view asks them over `range` and `compare`. */
function queriesOf(
  kind: QueryKind,
  read: ReturnType<typeof widgetReads>[number],
  schema: DatasetSchema,
  ranges = { range, compare },
): QueryInput[] {
  const { compare } = ranges;
  const base = { dataset: schema.id, range: ranges.range, filters: effectiveFilters(read.filters, schema) };
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
      return [{ ...base, kind, compare, lists: ['A'] }] as QueryInput[];
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

/**
 * Has the server write the DuckDB file of `columns` (native DuckDB), of the rows from `since` on when given, and the
 * engine attach it (DuckDB-WASM).
 */
async function attachFile(schema: DatasetSchema, columns: readonly string[], since?: string): Promise<void> {
  const source = sources.get(schema.id)!;
  const rows = since ? { since, dateField: schema.dateField } : {};
  const file = await projectedDatasetFile(dataDir!, 1, schema.id, schema.tableId, source, columns, 'duckdb', rows);
  await engine.load(schema.tableId, file.version, new Uint8Array(fs.readFileSync(file.arrowPath)), 'duckdb');
}

/**
 * Runs `sql` over the whole tables, or over copies in the schema `projected` that hold `columns` only, and only the
 * rows from `since` on when given.
 */
function answer(sql: string, schema: DatasetSchema, columns?: readonly string[], since?: string) {
  if (!columns) {
    conn.query('SET search_path = main');
    return rows(conn, sql);
  }
  const stored = Object.keys(schema === listSchema ? listColumns : campaignColumns).filter((c) => columns.includes(c));
  conn.query(
    `CREATE OR REPLACE TABLE projected.${schema.tableId} AS SELECT ${stored.join(', ')} FROM main.${schema.tableId}` +
      (since ? ` WHERE CAST(${schema.dateField} AS DATE) >= DATE '${since}'` : ''),
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

describe('the days a view-mode dashboard loads', () => {
  // From the first of January: the campaign fixture's December rows are left out.
  const days = {
    range: { start: '2024-02-10', end: '2024-03-10' },
    compare: { start: '2024-01-11', end: '2024-02-09' },
  };
  const firstDay = projectionFirstDay([days.range.start, days.compare.start]);
  /** The queries only a drawer runs (the whole dataset's scope): they read beyond the dashboard's days. */
  const drawerOnly: QueryKind[] = ['distinctValues', 'targetHistory'];

  it.each(Object.keys(widgetRegistry) as WidgetType[])(
    'answers every query a %s widget runs on the canvas as the whole dataset does, over the rows of its days',
    async (type) => {
      const widget = examples[type];
      const definition = widgetRegistry[type];
      if (definition.queries.length === 0) return;
      const projection: DashboardProjection = { widgets: [widget], filters: dashboardFilters, targets, firstDay };
      const reads =
        type === 'target'
          ? targets.map((target) => ({ metrics: [target.metric], dimensions: [], filters: target.filters }))
          : widgetReads(widget).map((read) => ({ ...read, filters: [...read.filters, ...dashboardFilters] }));
      const schema = type === 'subscriber_growth' ? listSchema : campaignSchema;
      const columns = projectedColumns(projection, schema);
      const since = projectedSince(projection, schema);
      expect(since).toBe('2024-01-01');
      await attachFile(schema, columns, since);
      let ran = 0;
      for (const read of reads) {
        for (const kind of definition.queries) {
          for (const query of queriesOf(kind, read, schema, days)) {
            // A drawer's query over this table would load the whole dataset first (engineApi).
            expect([kind, lacksRows(query, schema, since)]).toEqual([kind, drawerOnly.includes(kind)]);
            if (drawerOnly.includes(kind)) continue;
            const sql = buildQuery(schema, query);
            const whole = answer(sql, schema);
            expect(answer(sql, schema, columns, since)).toEqual(whole);
            expect(tableRows(tableFromIPC(await engine.query(sql)))).toEqual(whole);
            ran += whole.length > 0 ? 1 : 0;
          }
        }
      }
      expect(ran).toBeGreaterThan(0);
    },
  );

  it('leaves rows out: the file of the days holds fewer rows than the dataset', () => {
    const count = (since?: string) => {
      answer('SELECT 1', campaignSchema, ['send_date'], since);
      conn.query('SET search_path = projected');
      const [{ n }] = rows(conn, `SELECT count(*)::INTEGER AS n FROM ${campaignSchema.tableId}`);
      conn.query('SET search_path = main');
      return Number(n);
    };
    expect(count('2024-01-01')).toBeGreaterThan(0);
    expect(count('2024-01-01')).toBeLessThan(count());
  });

  it('reads every day for another date field, a row outlier or a dataset no widget reads', () => {
    const base: DashboardProjection = { widgets: [examples.table], filters: [], targets: [], firstDay };
    expect(projectedSince(base, campaignSchema)).toBe('2024-01-01');
    expect(projectedSince({ ...base, firstDay: undefined }, campaignSchema)).toBeUndefined();
    const rowOutlier: ReportFilter = { member: 'sent', operator: 'outlierHigh', values: ['-2'] };
    expect(projectedSince({ ...base, filters: [rowOutlier] }, campaignSchema)).toBeUndefined();
    expect(projectedSince({ ...base, filters: [{ or: [rowOutlier] }] }, campaignSchema)).toBeUndefined();
    // An aggregate outlier compares the query's own groups.
    expect(projectedSince({ ...base, filters: [{ ...rowOutlier, aggregate: true }] }, campaignSchema)).toBe(
      '2024-01-01',
    );
    const dated = campaignSchema.fields.find(
      (field) => field.format === 'date' && field.id !== campaignSchema.dateField,
    );
    if (dated) {
      const byOther = { ...examples.table, dateField: dated.id };
      expect(projectedSince({ ...base, widgets: [byOther] }, campaignSchema)).toBeUndefined();
    }
    expect(projectedSince(base, listSchema)).toBeUndefined();
    // A table of every row serves any query; one of some days serves the queries of those days only.
    const query: QueryInput = { kind: 'funnel', dataset: campaigns, ...days, metrics: ['sent'], filters: [] };
    expect(lacksRows(query, campaignSchema, undefined)).toBe(false);
    expect(lacksRows(query, campaignSchema, '2024-01-01')).toBe(false);
    expect(lacksRows(query, campaignSchema, '2024-02-01')).toBe(true);
    expect(coversRows('2024-01-01', '2024-02-01')).toBe(true);
    expect(coversRows('2024-02-01', '2024-01-01')).toBe(false);
    expect(coversRows('2024-02-01', undefined)).toBe(false);
    expect(coversRows(undefined, null)).toBe(true);
  });
});
