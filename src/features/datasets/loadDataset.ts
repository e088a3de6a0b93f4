import { createAsyncThunk } from '@reduxjs/toolkit';
import { type DatasetFormat, projectedColumnsParam } from '../../contracts/dataModel';
import { type DatasetSchema } from '../../contracts/datasets';
import { type DatasetBytes } from '../../workers/protocol';
import { browserDatasetStore, type DatasetStore } from './datasetCache';
import { datasetPath, type DatasetRef, datasetsApi } from './datasetsApi';
import {
  DATASET_FETCH_ERROR,
  DATASET_STALE_MS,
  type DatasetEntry,
  type DatasetsState,
  datasetKey,
  downloadAttempted,
  downloadFailed,
  downloadProgressed,
  downloadStarted,
  downloadSucceeded,
} from './datasetsSlice';
import { downloadDataset } from './download';
import { covers, coversRows, type DashboardProjection, projectedColumns, projectedSince } from './projection';

// The load of a dataset (its download, projection and hand-over to the engine) is apart from the slice it reports
// to: the slice is in the first load, this loads with the first screen that reads a dataset.

/**
 * Where downloaded bytes go: the query engine's pool (swapped in tests), with the way to read them again when the
 * browser keeps the file (`Downloaded.reread`).
 */
export type DatasetSink = (
  table: string,
  version: string,
  bytes: DatasetBytes,
  format: DatasetFormat,
  reread?: () => Promise<Uint8Array>,
) => void | Promise<void>;

let sink: DatasetSink = async (table, version, bytes, format, reread) => {
  // The router has usually started the engine already (src/app/router.tsx); this import is then a no-op.
  const { getPool } = await import('../../workers/engineClient');
  getPool().setDataset(table, version, bytes, format, reread);
};

/**
 * A new file is on its way (the server did not answer 304): no kept answer is for it, so its queries will need the
 * engine. A reload puts the engine's start off until its kept answers are drawn; it starts now, while the file
 * downloads, rather than when it has arrived (bench/README.md, `--next-day`).
 */
let newFileComing = () => {
  void import('../../workers/engineClient').then(({ getPool }) => getPool().warmNow());
};

/** Replaces the engine's side (tests): `next` takes the files, `comingFile` hears that a new one is on its way. */
export function setDatasetSink(next: DatasetSink, comingFile: () => void = () => undefined): void {
  sink = next;
  newFileComing = comingFile;
}

interface LoadArgs extends DatasetRef {
  /** A dashboard in view mode: only the columns it reads are downloaded and loaded. */
  projection?: DashboardProjection;
  /**
   * The engine could not read its table's file again (a newer one replaced it, DATASET_CHANGED_ERROR): the same
   * columns and days, from the server's current file, however recent the last load.
   */
  again?: boolean;
  /** For tests: the file's fetch, a timer and where files are kept between visits (the browser's Cache Storage). */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  store?: DatasetStore;
}

/** The columns and first day to load for `projection`: undefined for all of them; widened by what the engine holds. */
function scopeToLoad(
  projection: DashboardProjection | undefined,
  schema: DatasetSchema,
  entry: DatasetEntry | undefined,
): { columns?: string[]; since?: string } {
  const wanted = projection ? projectedColumns(projection, schema) : null;
  if (wanted === null || !projection) return {};
  // Whatever another consumer of the loaded table reads stays in (a wider projection, never a narrower one); an
  // earlier visit's columns and days are no table of this page.
  const current = entry?.version && !entry.kept;
  const kept = current ? entry.columns : [];
  if (kept === undefined) return {};
  const wantedSince = projectedSince(projection, schema);
  const since = !current ? wantedSince : wantedSince && entry.since && [wantedSince, entry.since].sort()[0];
  return { columns: [...new Set([...kept, ...wanted])], since };
}

/** True when the table of `entry` holds the columns and rows `projection` (undefined: the whole dataset) reads. */
export function entryHolds(
  entry: Pick<DatasetEntry, 'columns' | 'since'>,
  schema: DatasetSchema,
  projection?: DashboardProjection,
): boolean {
  if (!projection) return covers(entry.columns, null) && coversRows(entry.since, null);
  return (
    covers(entry.columns, projectedColumns(projection, schema)) &&
    coversRows(entry.since, projectedSince(projection, schema))
  );
}

/** True when the engine's table of `entry` is current and holds what `projection` (or the whole dataset) needs. */
export function entryServes(entry: DatasetEntry | undefined, projection?: DashboardProjection): boolean {
  if (entry?.status !== 'ready' || !entry.schema || !entry.fetchedAt) return false;
  if (Date.now() - entry.fetchedAt >= DATASET_STALE_MS) return false;
  return entryHolds(entry, entry.schema, projection);
}

/**
 * A dataset's first load on a page (none yet, or only an earlier visit's kept copy) takes a schema fetched this many
 * seconds ago or less: the one the dashboard's page asked for as its report arrived (initialRequests.ts). Every
 * later load asks again (the data model may have been saved meanwhile), so that the schema matches its file.
 */
export const SCHEMA_FRESH_S = 10;

/** Who waits for the end of a dataset's next or current load, by dataset key. */
const loadWaiters = new Map<string, (() => void)[]>();

function loadEnded(key: string): void {
  const waiters = loadWaiters.get(key) ?? [];
  loadWaiters.delete(key);
  for (const wake of waiters) wake();
}

/**
 * Resolves when the dataset's current load ends, or its next one when none runs (its consumers start one as they
 * mount), succeeded or failed; rejects when `signal` fires first. For a query over an earlier visit's version
 * (src/store/engineApi.ts), which waits for the server's answer about it.
 */
export function whenLoadEnds(workspaceId: number, datasetId: string, signal?: AbortSignal): Promise<void> {
  const key = datasetKey(workspaceId, datasetId);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const wake = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const abort = () => {
      loadWaiters.set(
        key,
        (loadWaiters.get(key) ?? []).filter((waiter) => waiter !== wake),
      );
      reject(signal?.reason);
    };
    loadWaiters.set(key, [...(loadWaiters.get(key) ?? []), wake]);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Downloads a dataset's schema and Arrow file once per workspace (again when older than 30 s, or when the engine's
 * table lacks columns or days now needed; a copy kept from an earlier visit is reused when the server says it is
 * current), with progress in the store and the bytes handed straight to the query engine. With a projection, only the
 * columns a dashboard reads, and only the rows of the days it reads.
 */
export const loadDataset = createAsyncThunk<void, LoadArgs, { state: { datasets: DatasetsState } }>(
  'datasets/load',
  async (
    { workspaceId, datasetId, publicReportId, projection, again, fetch: fetchFn, sleep, store },
    { dispatch, getState },
  ) => {
    const key = datasetKey(workspaceId, datasetId);
    const previous = getState().datasets.entries[key];
    dispatch(downloadStarted({ key }));
    const ref = { workspaceId, datasetId, publicReportId };
    try {
      // Fetched again whenever the file is (this thunk's condition decides when), so the two match; a first load
      // takes one fetched a moment ago (SCHEMA_FRESH_S).
      const forceRefetch = previous && !previous.kept ? true : SCHEMA_FRESH_S;
      const schema = await dispatch(
        datasetsApi.endpoints.getDatasetSchema.initiate(ref, { subscribe: false, forceRefetch }),
      ).unwrap();
      // A public link's file is already its report's scope.
      const scope = again
        ? { columns: previous?.columns, since: previous?.since }
        : scopeToLoad(projection, schema, previous);
      const { columns, since } = publicReportId === undefined ? scope : {};
      // A column set comes as a DuckDB file, which the engine attaches instead of inserting Arrow (measured in
      // bench/README.md); the whole file stays Arrow, the format every other reader of datasets gets.
      const format: DatasetFormat = columns ? 'duckdb' : 'arrow';
      const rows = since ? `&since=${since}` : '';
      const query = columns
        ? `?columns=${encodeURIComponent(projectedColumnsParam(columns))}&format=duckdb${rows}`
        : '';
      // The projected file has its own URL, so its kept copy and its ETag are its own.
      const url = `/api${datasetPath(ref)}${query}`;
      const file = await downloadDataset(url, {
        fetch: fetchFn,
        sleep,
        // A signed-in user's files are kept (and dropped at logout); a public report's page has no one to sign out.
        store: publicReportId === undefined ? (store ?? browserDatasetStore()) : undefined,
        onAttempt: (attempt) => dispatch(downloadAttempted({ key, attempt })),
        onProgress: ({ loaded, total }) => dispatch(downloadProgressed({ key, loaded, total })),
        onNewFile: () => newFileComing(),
      });
      const version = `${workspaceId}:${file.version}`;
      await sink(schema.tableId, version, file.bytes, format, file.reread);
      const keep = publicReportId === undefined;
      dispatch(downloadSucceeded({ key, version, schema, fetchedAt: Date.now(), columns, since, keep }));
    } catch (error) {
      console.error(error);
      dispatch(downloadFailed({ key, error: DATASET_FETCH_ERROR }));
    } finally {
      loadEnded(key);
    }
  },
  {
    condition: ({ workspaceId, datasetId, projection, again }, { getState }) => {
      const entry = getState().datasets.entries[datasetKey(workspaceId, datasetId)];
      // A load under way is awaited; its consumers ask again when it ends if it lacks what they need.
      if (entry?.status === 'loading') return false;
      return !!again || !entryServes(entry, projection);
    },
  },
);
