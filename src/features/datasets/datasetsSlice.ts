import { createSlice, isAnyOf, original, type PayloadAction } from '@reduxjs/toolkit';
import { copyWithStructuralSharing } from '@reduxjs/toolkit/query';
import { type DatasetSchema } from '../../contracts/datasets';
import { signedInUserChanged, signedOut } from '../session/sessionActions';

/** Shown when a dataset cannot be fetched (spec 2 §8, spec 3 §8). */
export const DATASET_FETCH_ERROR = 'Yikes! Something went wrong fetching your data.';
/** A downloaded dataset is considered current for 30 s (spec 3 §4, §9). */
export const DATASET_STALE_MS = 30_000;

export type DatasetStatus = 'loading' | 'ready' | 'error';

export interface DatasetEntry {
  status: DatasetStatus;
  /** Bytes received so far, updated per 100 KB. */
  loaded: number;
  /** Total bytes from the X-Total-Length header, when the server sent it. */
  total: number | null;
  attempt: number;
  /** The version the query engine holds (workspace and ETag); query results are cached per version. */
  version?: string;
  /** The fields the engine's table was loaded with (a dashboard's projection); undefined: every column. */
  columns?: string[];
  /** The first day of the rows the engine's table was loaded with (a dashboard's projection); undefined: all. */
  since?: string;
  schema?: DatasetSchema;
  fetchedAt?: number;
  error?: string;
  /**
   * The schema, version and columns are an earlier visit's (keptDatasets.ts), not yet confirmed by the server on
   * this page: no worker holds that version, so its queries are answered from that visit's kept answers, or wait for
   * the dataset's load. Cleared when the load succeeds.
   */
  kept?: boolean;
}

export interface DatasetsState {
  entries: Record<string, DatasetEntry>;
}

export const initialDatasetsState: DatasetsState = { entries: {} };

export const datasetKey = (workspaceId: number, datasetId: string) => `${workspaceId}/${datasetId}`;

interface KeyPayload {
  key: string;
}

export const datasetsSlice = createSlice({
  name: 'datasets',
  initialState: initialDatasetsState,
  reducers: {
    downloadStarted(state, action: PayloadAction<KeyPayload>) {
      const previous = state.entries[action.payload.key];
      // A refresh keeps the previous schema and version usable until the new file is in the engine.
      state.entries[action.payload.key] = {
        ...previous,
        status: 'loading',
        loaded: 0,
        total: null,
        attempt: 1,
        error: undefined,
      };
    },
    downloadAttempted(state, action: PayloadAction<KeyPayload & { attempt: number }>) {
      const entry = state.entries[action.payload.key];
      if (entry?.status === 'loading') {
        entry.attempt = action.payload.attempt;
        entry.loaded = 0;
      }
    },
    downloadProgressed(state, action: PayloadAction<KeyPayload & { loaded: number; total: number | null }>) {
      const entry = state.entries[action.payload.key];
      if (entry?.status === 'loading') {
        entry.loaded = action.payload.loaded;
        entry.total = action.payload.total;
      }
    },
    downloadSucceeded(
      state,
      action: PayloadAction<
        KeyPayload & {
          version: string;
          schema: DatasetSchema;
          fetchedAt: number;
          columns?: string[];
          since?: string;
          /** Kept for the user's next visit (keptDatasets.ts): a workspace's dataset, not a public report's. */
          keep?: boolean;
        }
      >,
    ) {
      const { key, version, fetchedAt, columns, since } = action.payload;
      const entry = state.entries[key];
      // An unchanged schema stays the same object (a kept visit's, confirmed by the server), so the widgets that read
      // it do not build and draw their figures again (a warm reload redrew its charts: bench/README.md).
      const previous = entry && original(entry)?.schema;
      const schema = previous ? copyWithStructuralSharing(previous, action.payload.schema) : action.payload.schema;
      state.entries[key] = {
        status: 'ready',
        loaded: entry?.loaded ?? 0,
        total: entry?.total ?? null,
        attempt: entry?.attempt ?? 1,
        version,
        schema,
        fetchedAt,
        columns,
        since,
      };
    },
    /** The workspace's schemas changed (data model saved): the next use downloads them again. */
    schemasExpired(state, action: PayloadAction<{ workspaceId: number }>) {
      const prefix = datasetKey(action.payload.workspaceId, '');
      for (const [key, entry] of Object.entries(state.entries)) if (key.startsWith(prefix)) entry.fetchedAt = 0;
    },
    downloadFailed(state, action: PayloadAction<KeyPayload & { error: string }>) {
      const entry = state.entries[action.payload.key];
      state.entries[action.payload.key] = {
        ...entry,
        loaded: entry?.loaded ?? 0,
        total: entry?.total ?? null,
        attempt: entry?.attempt ?? 1,
        status: 'error',
        error: action.payload.error,
      };
    },
  },
  extraReducers: (builder) => {
    // An earlier visit's entries may be another person's: they go, and the next use downloads as a first visit.
    builder.addMatcher(isAnyOf(signedInUserChanged, signedOut), (state) => {
      for (const [key, entry] of Object.entries(state.entries)) if (entry.kept) delete state.entries[key];
    });
  },
  selectors: {
    selectDatasetEntry: (state, workspaceId: number, datasetId: string): DatasetEntry | undefined =>
      state.entries[datasetKey(workspaceId, datasetId)],
  },
});

export const {
  downloadStarted,
  downloadAttempted,
  downloadProgressed,
  downloadSucceeded,
  downloadFailed,
  schemasExpired,
} = datasetsSlice.actions;
export const { selectDatasetEntry } = datasetsSlice.selectors;
