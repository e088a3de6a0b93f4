import { type DatasetSchema } from '../contracts/datasets';
import { type Cell, toCell } from '../engine/cells';
import { type QueryInput, buildQuery, metricsMerge, pivotValuesSql } from '../engine/queries';
import { type DatasetEntry, datasetKey } from '../features/datasets/datasetsSlice';
import { lacksRows, missingColumns } from '../features/datasets/projection';
import { type Priority } from '../workers/pool';
import { DATASET_CHANGED_ERROR, NOT_KEPT_ERROR, engineError, engineMessages, toEngineError } from '../workers/protocol';
import type { AppThunkDispatch, EngineArgs, EngineState, QueryRunner, ResultColumns } from './engineApi';

// How a query of the engine's endpoints (engineApi.ts) is answered: its SQL built over the dataset's schema, asked of
// the pool, and its Arrow answer read into plain columns. Loaded with the engine's client, not with the first screen,
// and with the SQL builders and the projection's checks, which every query needs before it can leave.

type State = EngineState;

/** A query as an endpoint asks it: its arguments, the store it reads and dispatches to, and the pool it asks. */
export interface Asked {
  args: EngineArgs<QueryInput>;
  getState: () => State;
  priority: Priority;
  signal: AbortSignal;
  dispatch: AppThunkDispatch;
  /** The pool, at once when it has answered before (then the query leaves for it before `answer` returns). */
  runner: () => QueryRunner | Promise<QueryRunner>;
}

/**
 * Arrow's reader (~38 KiB gz) loads with the first query result, not with the first screen. `only`: the columns to
 * take, in their order (an answer may hold those of other queries that shared its statement), else all of them.
 */
export async function arrowToColumns(bytes: Uint8Array, only?: string[]): Promise<ResultColumns> {
  const { tableFromIPC } = await import('apache-arrow');
  const table = tableFromIPC(bytes);
  const columns = only ?? table.schema.fields.map((field) => field.name);
  const data: Record<string, Cell[]> = {};
  for (const name of columns) {
    const vector = table.getChild(name);
    data[name] = Array.from({ length: table.numRows }, (_, i) => toCell(vector?.get(i)));
  }
  return { columns, rowCount: table.numRows, data };
}

/**
 * A query's answer as the pool gives it: Arrow IPC bytes, outside the store. For large one-off reads (the
 * explorer's export) that would otherwise sit in the cache as objects; the bytes may be the pool's cached copy,
 * so callers copy rather than transfer them.
 */
export async function queryArrow(asked: Asked): Promise<Uint8Array> {
  const { bytes, columns } = await answer(asked);
  if (!columns) return bytes;
  // Only the query's own columns, as its own statement would have answered.
  const { tableFromIPC, tableToIPC } = await import('apache-arrow');
  return tableToIPC(tableFromIPC(bytes).select(columns), 'stream');
}

/** The dataset of the queries that name none (the engagement page's). */
const ENGAGEMENT_DATASET = 'engagement_contacts';

function entryFor(state: State, workspaceId: number, dataset: string): DatasetEntry & { schema: DatasetSchema } {
  const entry = state.datasets.entries[datasetKey(workspaceId, dataset)];
  if (!entry?.schema || !entry.version) throw engineError(engineMessages.waitingForDataset);
  return { ...entry, schema: entry.schema };
}

/**
 * A query's answer, and its own columns when the answer may hold others': those of the queries that shared its
 * statement (`metricsMerge`), which the pool caches and keeps as they came.
 */
async function answer(asked: Asked): Promise<Answer> {
  const { args, getState, signal } = asked;
  try {
    return await queryOnce(asked);
  } catch (error) {
    const { name } = toEngineError(error);
    if (name === DATASET_CHANGED_ERROR) return afterLoadingAgain(asked);
    if (name !== NOT_KEPT_ERROR) throw error;
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
  return queryOnce(asked);
}

/**
 * A dataset version whose file a hidden tab let go of and could not read again (DATASET_CHANGED_ERROR): the dataset
 * is loaded again, its same columns and days from the server's current file, and the query asked again over it.
 */
async function afterLoadingAgain(asked: Asked): Promise<Answer> {
  const { args, dispatch, signal } = asked;
  const datasetId = args.query.dataset ?? ENGAGEMENT_DATASET;
  const { loadDataset, whenLoadEnds } = await import('../features/datasets/loadDataset');
  // Waiting from before the dispatch: it may end this load, or the one already under way.
  const ended = whenLoadEnds(args.workspaceId, datasetId, signal);
  void dispatch(loadDataset({ workspaceId: args.workspaceId, datasetId, again: true }));
  await ended;
  return queryOnce(asked);
}

interface Answer {
  bytes: Uint8Array;
  columns?: string[];
}

async function queryOnce({ args, getState, priority, signal, dispatch, runner }: Asked): Promise<Answer> {
  const state = getState();
  const datasetId = args.query.dataset ?? ENGAGEMENT_DATASET;
  const entry = entryFor(state, args.workspaceId, datasetId);
  const schema = args.fields ? { ...entry.schema, fields: args.fields } : entry.schema;
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
  const ready = runner();
  // No wait when the pool is there: nothing before the query's request to it gives up the thread.
  const pool = 'then' in ready ? await ready : ready;
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
  // A widget's query may share a statement with others of its dataset and periods (a dashboard's KPI cards
  // and charts); not over unsaved fields (the data model's preview), whose schema is the caller's own. Whether it
  // does or not, an answer of its SQL may hold their columns too.
  const merge = metricsMerge(schema, query);
  const forWidget = priority === 'visible' || priority === 'offscreen';
  const shared = forWidget && !args.fields ? merge : undefined;
  return { bytes: await pool.query({ ...request, sql, merge: shared }), columns: merge?.columns };
}

/** A query's answer as plain columns, its own only. */
export async function answerColumns(asked: Asked): Promise<ResultColumns> {
  const { bytes, columns } = await answer(asked);
  return arrowToColumns(bytes, columns);
}
