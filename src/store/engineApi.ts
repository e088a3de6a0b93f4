import { type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { createApi, fakeBaseQuery } from '@reduxjs/toolkit/query/react';
import { type DatasetSchema, type Field } from '../contracts/datasets';
import { type Cell, toCell } from '../engine/cells';
import type { QueryInput } from '../engine/queries';
import { type DatasetEntry, type DatasetsState, datasetKey } from '../features/datasets/datasetsSlice';
import { type Priority, type QueryRequest } from '../workers/pool';
import { type EngineError, NOT_KEPT_ERROR, engineError, engineMessages, toEngineError } from '../workers/protocol';

export { type Cell } from '../engine/cells';

/** A query result as plain serialisable columns (no Arrow objects, no bigint) for the store and the charts. */
export interface ResultColumns {
  columns: string[];
  rowCount: number;
  data: Record<string, Cell[]>;
}

/** Arrow's reader (~38 KiB gz) loads with the first query result, not with the first screen. */
export async function arrowToColumns(bytes: Uint8Array): Promise<ResultColumns> {
  const { tableFromIPC } = await import('apache-arrow');
  const table = tableFromIPC(bytes);
  const columns = table.schema.fields.map((field) => field.name);
  const data: Record<string, Cell[]> = {};
  for (const name of columns) {
    const vector = table.getChild(name);
    data[name] = Array.from({ length: table.numRows }, (_, i) => toCell(vector?.get(i)));
  }
  return { columns, rowCount: table.numRows, data };
}

/** What the endpoints need from the pool (the real pool in the app, a Node-worker pool in tests). */
export interface QueryRunner {
  query(request: QueryRequest): Promise<Uint8Array>;
}

let runner: () => Promise<QueryRunner> = async () => {
  // The engine's chunk loads with the first query, not with the app.
  const { getPool } = await import('../workers/engineClient');
  return getPool();
};

export function setQueryRunner(next: () => Promise<QueryRunner>): void {
  runner = next;
}

export type QueryOf<K extends QueryInput['kind']> = Extract<QueryInput, { kind: K }>;

export interface EngineArgs<Q> {
  workspaceId: number;
  query: Q;
  /** The dataset version the caller saw: a new file makes a new cache entry and a new query. */
  version?: string;
  /** Queries with the same key replace each other (one widget's changing settings). */
  supersedeKey?: string;
  /** The dataset's fields as the data-model editor has them, unsaved custom fields included (its preview). */
  fields?: Field[];
}

export type EngineState = { datasets: DatasetsState };
/** The dataset of the queries that name none (the engagement page's). */
const ENGAGEMENT_DATASET = 'engagement_contacts';
type State = EngineState;
type AppThunkDispatch = ThunkDispatch<State, unknown, UnknownAction>;

function entryFor(state: State, workspaceId: number, dataset: string): DatasetEntry & { schema: DatasetSchema } {
  const entry = state.datasets.entries[datasetKey(workspaceId, dataset)];
  if (!entry?.schema || !entry.version) throw engineError(engineMessages.waitingForDataset);
  return { ...entry, schema: entry.schema };
}

/**
 * A query's answer as the pool gives it: Arrow IPC bytes, outside the store. For large one-off reads (the
 * explorer's export) that would otherwise sit in the cache as objects; the bytes may be the pool's cached copy,
 * so callers copy rather than transfer them.
 */
export async function queryArrow(
  args: EngineArgs<QueryInput>,
  getState: () => State,
  priority: Priority,
  signal: AbortSignal,
  dispatch: AppThunkDispatch,
): Promise<Uint8Array> {
  try {
    return await queryOnce(args, getState(), priority, signal, dispatch);
  } catch (error) {
    if (toEngineError(error).name !== NOT_KEPT_ERROR) throw error;
  }
  // An earlier visit's dataset version with no kept answer for this query: asked again once the server has
  // answered about the dataset (its load ended), over the schema and version it confirmed.
  const datasetId = args.query.dataset ?? ENGAGEMENT_DATASET;
  const { whenLoadEnds } = await import('../features/datasets/loadDataset');
  for (;;) {
    const entry = getState().datasets.entries[datasetKey(args.workspaceId, datasetId)];
    if (!entry?.kept) break;
    if (entry.status === 'error') throw engineError(engineMessages.waitingForDataset);
    await whenLoadEnds(args.workspaceId, datasetId, signal);
  }
  return queryOnce(args, getState(), priority, signal, dispatch);
}

async function queryOnce(
  args: EngineArgs<QueryInput>,
  state: State,
  priority: Priority,
  signal: AbortSignal,
  dispatch: AppThunkDispatch,
): Promise<Uint8Array> {
  const datasetId = args.query.dataset ?? ENGAGEMENT_DATASET;
  const entry = entryFor(state, args.workspaceId, datasetId);
  const schema = args.fields ? { ...entry.schema, fields: args.fields } : entry.schema;
  // The SQL builders and the projection load with the first query, as the pool does: not with the first screen.
  const [{ buildQuery, metricsMerge, pivotValuesSql }, { lacksRows, missingColumns }] = await Promise.all([
    import('../engine/queries'),
    import('../features/datasets/projection'),
  ]);
  // A table loaded with a dashboard's columns and days only never answers a query that reads another: the whole
  // dataset is loaded instead, and the query is asked again with its version (callers pass the version they saw).
  const loadWhole = () => {
    void import('../features/datasets/loadDataset').then(({ loadDataset }) =>
      dispatch(loadDataset({ workspaceId: args.workspaceId, datasetId })),
    );
    return engineError(engineMessages.waitingForDataset);
  };
  if (lacksRows(args.query, schema, entry.since)) throw loadWhole();
  const sqlOf = (sql: string) => {
    if (missingColumns(sql, schema, entry.columns).length === 0) return sql;
    throw loadWhole();
  };
  const pool = await runner();
  const keptVersion = entry.kept ? entry.version : undefined;
  const request = { dataset: schema.tableId, priority, supersedeKey: args.supersedeKey, signal, keptVersion };
  let query = args.query;
  if ((query.kind === 'explorerPivot' || query.kind === 'explorerCount') && query.pivot && !query.pivotValues?.length) {
    // A pivot's columns are its values: find them first, then spread the cells (or count its rows).
    const pivotQuery = { ...query, kind: 'explorerPivot' as const, pivot: query.pivot };
    const sql = sqlOf(pivotValuesSql(schema, pivotQuery));
    const values = await arrowToColumns(await pool.query({ ...request, sql }));
    query = { ...query, pivotValues: (values.data.value ?? []).map(String) };
  }
  const sql = sqlOf(buildQuery(schema, query));
  // A visible widget's query may share a statement with others of its dataset and periods (a dashboard's KPI cards
  // and charts); not over unsaved fields (the data model's preview), whose schema is the caller's own.
  const merge = priority === 'visible' && !args.fields ? metricsMerge(schema, query) : undefined;
  return pool.query({ ...request, sql, merge });
}

async function run(
  args: EngineArgs<QueryInput>,
  getState: () => State,
  priority: Priority,
  signal: AbortSignal,
  dispatch: AppThunkDispatch,
): Promise<{ data: ResultColumns } | { error: EngineError }> {
  // Arrow's reader is asked for with the query, not after its answer (a kept one comes in tens of milliseconds).
  void import('apache-arrow').catch(() => undefined);
  try {
    return { data: await arrowToColumns(await queryArrow(args, getState, priority, signal, dispatch)) };
  } catch (error) {
    return { error: toEngineError(error) };
  }
}

/**
 * The in-browser analytical queries (spec 2 §7, spec 3): one endpoint per query kind, answered by the
 * DuckDB worker pool. Results are columns of plain values; the pool keeps the Arrow bytes cached.
 */
export const engineApi = createApi({
  reducerPath: 'engineApi',
  baseQuery: fakeBaseQuery<EngineError>(),
  endpoints: (build) => {
    const endpoint = <K extends QueryInput['kind']>(priority: Priority = 'visible') =>
      build.query<ResultColumns, EngineArgs<QueryOf<K>>>({
        queryFn: (args, api) =>
          run(args, api.getState as () => State, priority, api.signal, api.dispatch as AppThunkDispatch),
      });
    return {
      timeSeries: endpoint<'timeSeries'>(),
      timeSeriesByDimension: endpoint<'timeSeriesByDimension'>(),
      barByDimension: endpoint<'barByDimension'>(),
      tableCompare: endpoint<'tableCompare'>(),
      highLow: endpoint<'highLow'>(),
      funnel: endpoint<'funnel'>(),
      subscriberGrowth: endpoint<'subscriberGrowth'>(),
      targetProgress: endpoint<'targetProgress'>(),
      targetHistory: endpoint<'targetHistory'>(),
      distinctValues: endpoint<'distinctValues'>('lookup'),
      explorerRows: endpoint<'explorerRows'>(),
      explorerCount: endpoint<'explorerCount'>(),
      explorerPivot: endpoint<'explorerPivot'>(),
      explorerPivotValues: endpoint<'explorerPivotValues'>(),
      engagementCsv: endpoint<'engagementCsv'>('lookup'),
      engagementMonths: endpoint<'engagementMonths'>(),
      engagementSegmentTable: endpoint<'engagementSegmentTable'>(),
    };
  },
});

export const {
  useTimeSeriesQuery,
  useTimeSeriesByDimensionQuery,
  useBarByDimensionQuery,
  useTableCompareQuery,
  useHighLowQuery,
  useFunnelQuery,
  useSubscriberGrowthQuery,
  useTargetProgressQuery,
  useTargetHistoryQuery,
  useDistinctValuesQuery,
  useExplorerRowsQuery,
  useExplorerCountQuery,
  useExplorerPivotQuery,
  useExplorerPivotValuesQuery,
  useEngagementCsvQuery,
  useEngagementMonthsQuery,
  useEngagementSegmentTableQuery,
} = engineApi;
