import { z } from 'zod';
import { datasetSchemaSchema } from '../../contracts/datasets';
import { startAppListening } from '../../store/listeners';
import { readStoredObject } from '../../workers/keptResults';
import { RESULT_FRESH_MS } from '../../workers/resultCache';
import { type DatasetsState, downloadSucceeded } from './datasetsSlice';

/**
 * What a visit knew of each workspace dataset it loaded, kept in localStorage for the next visit: the schema, the
 * version the engine held and the columns and first day it was loaded with. A reload starts from them
 * (src/app/main.tsx), so its widgets build their queries at once and draw that visit's kept answers
 * (src/workers/keptResults.ts) while the dataset is checked with the server, instead of after the schema's request and
 * the file's 304 (bench/README.md). The check runs as before: a changed schema or file brings new queries, and their
 * numbers replace the kept ones, as a refresh every 30 s does (spec 3 §4). A public report's datasets are not kept.
 * Removed with the user's other stored items (src/features/session/userDataPersistence.ts).
 */
export const KEPT_DATASETS_KEY = 'keptDatasets';
/** The datasets kept at most; the longest unused go first. */
export const MAX_KEPT_DATASETS = 20;

const keptEntrySchema = z.object({
  version: z.string(),
  schema: datasetSchemaSchema,
  columns: z.array(z.string()).optional(),
  since: z.string().optional(),
  /** When the server last confirmed it (ms since the epoch). */
  at: z.number(),
});
type KeptEntry = z.infer<typeof keptEntrySchema>;

type KeptStorage = Pick<Storage, 'getItem' | 'setItem'>;

const readKept = (storage: KeptStorage) => readStoredObject(storage, KEPT_DATASETS_KEY);

/**
 * The datasets state a page starts with: the kept datasets confirmed less than the answers' freshness ago (older
 * ones have no fresh kept answer to draw), as stale entries that the first use checks with the server.
 */
export function loadKeptDatasets(storage: KeptStorage, now = Date.now()): DatasetsState {
  const entries: DatasetsState['entries'] = {};
  for (const [key, value] of Object.entries(readKept(storage))) {
    const parsed = keptEntrySchema.safeParse(value);
    if (!parsed.success || now < parsed.data.at || now - parsed.data.at >= RESULT_FRESH_MS) continue;
    const { version, schema, columns, since } = parsed.data;
    const entry = { status: 'ready', loaded: 0, total: null, attempt: 1, version, schema, columns, since } as const;
    entries[key] = { ...entry, fetchedAt: 0, kept: true };
  }
  return { entries };
}

/** Keeps `entry` for the dataset `key` (workspace/dataset), replacing its earlier one. */
export function keepDataset(storage: KeptStorage, key: string, entry: Omit<KeptEntry, 'at'>, now = Date.now()): void {
  const others = Object.entries(readKept(storage))
    .filter((pair): pair is [string, KeptEntry] => pair[0] !== key && typeof (pair[1] as KeptEntry)?.at === 'number')
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, MAX_KEPT_DATASETS - 1);
  try {
    storage.setItem(KEPT_DATASETS_KEY, JSON.stringify(Object.fromEntries([...others, [key, { ...entry, at: now }]])));
  } catch {
    // A full or refused storage only means the next visit waits for the server, as a first one does.
  }
}

/** Keeps each workspace dataset the server confirms for the next visit. Returns the function that stops it. */
export function keepDatasetsForNextVisit(storage: KeptStorage): () => void {
  return startAppListening({
    actionCreator: downloadSucceeded,
    effect: ({ payload: { key, keep, version, schema, columns, since } }) => {
      if (keep) keepDataset(storage, key, { version, schema, columns, since });
    },
  });
}
