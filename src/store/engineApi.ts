import { type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { createApi, defaultSerializeQueryArgs, fakeBaseQuery } from '@reduxjs/toolkit/query/react';
import { type Field } from '../contracts/datasets';
import { type Cell } from '../engine/cells';
import type { QueryInput } from '../engine/queries';
import { type DatasetsState } from '../features/datasets/datasetsSlice';
import { type Priority, type QueryRequest } from '../workers/pool';
import { type EngineError, toEngineError } from '../workers/protocol';
import type * as EngineAnswers from './engineAnswers';

export { type Cell } from '../engine/cells';

/** A query result as plain serialisable columns (no Arrow objects, no bigint) for the store and the charts. */
export interface ResultColumns {
  columns: string[];
  rowCount: number;
  data: Record<string, Cell[]>;
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
/** The runner once it has answered, which later queries reach without waiting for a turn of the event loop. */
let readyRunner: QueryRunner | undefined;

export function setQueryRunner(next: () => Promise<QueryRunner>): void {
  runner = next;
  readyRunner = undefined;
}

/**
 * The runner: at once when it has answered before, so that a widget's query reaches the pool in the effect that
 * asks for it. A date change's first query otherwise waited for every other widget's effect and their promises.
 */
function currentRunner(): QueryRunner | Promise<QueryRunner> {
  if (readyRunner) return readyRunner;
  const asked = runner;
  return asked().then((got) => {
    if (runner === asked) readyRunner = got;
    return got;
  });
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
  /**
   * How urgently, where not the endpoint's own: a dashboard's widget outside the screen asks with 'offscreen'
   * (src/features/widgets/queryPriority.ts). Not part of the cache key: the same query is the same answer.
   */
  priority?: Priority;
}

export type EngineState = { datasets: DatasetsState };
type State = EngineState;
export type AppThunkDispatch = ThunkDispatch<State, unknown, UnknownAction>;

/** How a query is answered (engineAnswers.ts): with the engine's client, so neither is in the first screen's code. */
let loadedAnswers: typeof EngineAnswers | undefined;
const answers = async () => (loadedAnswers ??= await import(/* webpackChunkName: "engine-client" */ './engineAnswers'));

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
  const answering = loadedAnswers ?? (await answers());
  return answering.queryArrow({ args, getState, priority, signal, dispatch, runner: currentRunner });
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
    // Without a wait when the module is loaded: the query then leaves for the pool before this returns.
    const answering = loadedAnswers ?? (await answers());
    return {
      data: await answering.answerColumns({ args, getState, priority, signal, dispatch, runner: currentRunner }),
    };
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
          run(
            args,
            api.getState as () => State,
            args.priority ?? priority,
            api.signal,
            api.dispatch as AppThunkDispatch,
          ),
        serializeQueryArgs: ({ queryArgs: { priority: _priority, ...key }, endpointDefinition, endpointName }) =>
          defaultSerializeQueryArgs({ queryArgs: key, endpointDefinition, endpointName }),
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
