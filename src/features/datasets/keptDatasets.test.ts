/** @jest-environment ./test/nodeEnvironment.js */
import { tableToIPC } from 'apache-arrow';
import { memoryCacheStorage } from '../../../test/memoryCacheStorage';
import { memoryStorage } from '../../../test/memoryStorage';
import { stubNetwork } from '../../../test/stubNetwork';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { campaignColumns, campaignRows, campaignSchema, tableSql } from '../../engine/testing/fixtures';
import { openNodeDuckdb } from '../../engine/testing/nodeDuckdb';
import { api } from '../../store/api';
import { engineApi, setQueryRunner } from '../../store/engineApi';
import { setupStore } from '../../store/store';
import { RESULTS_CACHE_NAME, cacheStorageKeptResults } from '../../workers/keptResults';
import { createPool, type EnginePool } from '../../workers/pool';
import { RESULT_FRESH_MS } from '../../workers/resultCache';
import { spawnNodeWorker } from '../../workers/testing/spawnNodeWorker';
import { signedInUserChanged } from '../session/sessionActions';
import { cacheStorageDatasetStore } from './datasetCache';
import { datasetKey, downloadSucceeded, selectDatasetEntry } from './datasetsSlice';
import {
  KEPT_DATASETS_KEY,
  MAX_KEPT_DATASETS,
  keepDataset,
  keepDatasetsForNextVisit,
  loadKeptDatasets,
} from './keptDatasets';
import { loadDataset, setDatasetSink } from './loadDataset';

jest.setTimeout(60_000);

const key = datasetKey(7, campaignSchema.id);
const confirmed = {
  key,
  version: '7:v1',
  schema: campaignSchema,
  columns: ['sent'],
  since: '2024-01-01',
  fetchedAt: 1,
};

describe('datasets kept for the next visit', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  test("a workspace dataset the server confirmed is where the next visit starts; a public report's is not", () => {
    const storage = memoryStorage();
    stop = keepDatasetsForNextVisit(storage);
    const store = setupStore();
    store.dispatch(downloadSucceeded({ ...confirmed, key: datasetKey(7, 'public'), keep: false }));
    store.dispatch(downloadSucceeded({ ...confirmed, keep: true }));

    const next = loadKeptDatasets(storage);
    expect(Object.keys(next.entries)).toEqual([key]);
    // Stale (fetchedAt 0): its first use asks the server, as every load after 30 s does.
    expect(next.entries[key]).toEqual({
      status: 'ready',
      loaded: 0,
      total: null,
      attempt: 1,
      version: '7:v1',
      schema: campaignSchema,
      columns: ['sent'],
      since: '2024-01-01',
      fetchedAt: 0,
      kept: true,
    });
  });

  test('an entry older than the answers’ freshness, unreadable or of another shape is left out', () => {
    const storage = memoryStorage();
    keepDataset(storage, 'old', { version: 'v', schema: campaignSchema }, 0);
    keepDataset(storage, 'fresh', { version: 'v', schema: campaignSchema }, RESULT_FRESH_MS);
    expect(Object.keys(loadKeptDatasets(storage, RESULT_FRESH_MS + 1).entries)).toEqual(['fresh']);
    storage.setItem(KEPT_DATASETS_KEY, JSON.stringify({ odd: { version: 1, at: 5 } }));
    expect(loadKeptDatasets(storage, 6).entries).toEqual({});
    storage.setItem(KEPT_DATASETS_KEY, '{not json');
    expect(loadKeptDatasets(storage).entries).toEqual({});
  });

  test('at most the last datasets are kept, the longest unused going first', () => {
    const storage = memoryStorage();
    for (let n = 0; n <= MAX_KEPT_DATASETS; n++)
      keepDataset(storage, `7/d${n}`, { version: 'v', schema: campaignSchema }, n);
    const kept = Object.keys(loadKeptDatasets(storage, MAX_KEPT_DATASETS + 1).entries);
    expect(kept).toHaveLength(MAX_KEPT_DATASETS);
    expect(kept).not.toContain('7/d0');
  });

  test('someone else signing in drops what an earlier visit knew, not what this page loaded', () => {
    const store = setupStore({
      datasets: {
        entries: { [key]: { ...confirmed, status: 'ready', loaded: 0, total: null, attempt: 1, kept: true } },
      },
    });
    store.dispatch(downloadSucceeded({ ...confirmed, key: datasetKey(7, 'loaded'), keep: true }));
    store.dispatch(signedInUserChanged({ memberId: 2 }));
    expect(Object.keys(store.getState().datasets.entries)).toEqual([datasetKey(7, 'loaded')]);
  });
});

describe('a reload over the last visit’s dataset', () => {
  let file: Uint8Array<ArrayBuffer>;
  let network: ReturnType<typeof stubNetwork> | undefined;
  const pools: EnginePool[] = [];

  beforeAll(async () => {
    const conn = await openNodeDuckdb();
    for (const sql of tableSql('campaigns_fixture', campaignColumns, campaignRows())) conn.query(sql);
    file = tableToIPC(conn.query('SELECT * FROM campaigns_fixture'), 'stream') as Uint8Array<ArrayBuffer>;
  }, START_TIMEOUT_MS);
  const stores: ReturnType<typeof setupStore>[] = [];
  afterEach(() => {
    network?.restore();
    // Their cache entries would be removed by timers a minute on, in whatever test file runs then.
    for (const store of stores.splice(0)) {
      store.dispatch(api.util.resetApiState());
      store.dispatch(engineApi.util.resetApiState());
    }
  });
  afterAll(() => pools.forEach((pool) => pool.terminate()), START_TIMEOUT_MS);

  /** One visit's engine (a pool of Node workers over the kept answers) and the server (`schemaGate` holds its schema). */
  function visit(kept: ReturnType<typeof cacheStorageKeptResults>, schemaGate?: Promise<void>) {
    const pool = createPool({ size: 1, spawn: () => spawnNodeWorker(), kept });
    pools.push(pool);
    setQueryRunner(async () => pool);
    setDatasetSink((table, version, bytes, format, reread) => pool.setDataset(table, version, bytes, format, reread));
    network = stubNetwork(async (request) => {
      if (!request.url.includes('schema=true')) throw new Error('the file is downloaded by the test’s fetch');
      await schemaGate;
      return Response.json(campaignSchema);
    });
    const fetchFile = async () =>
      new Response(file, { headers: { ETag: '"v1"', 'X-Total-Length': String(file.length) } });
    return { pool, load: { workspaceId: 7, datasetId: campaignSchema.id, fetch: fetchFile } };
  }

  const sent = (metrics: string[]) =>
    engineApi.endpoints.timeSeries.initiate({
      workspaceId: 7,
      query: {
        kind: 'timeSeries',
        dataset: 'campaigns_fixture',
        range: { start: '2024-02-01', end: '2024-02-29' },
        granularity: 'week',
        metrics,
      },
      version: '7:v1',
    });

  test('a hidden tab whose file a newer one replaced meanwhile loads the new one and answers over it', async () => {
    const conn = await openNodeDuckdb();
    for (const sql of tableSql('campaigns_fixture', campaignColumns, campaignRows())) conn.query(sql);
    // The next day's file: the rows of February's first half only.
    const before15th = "SELECT * FROM campaigns_fixture WHERE send_date < DATE '2024-02-15'";
    const nextFile = tableToIPC(conn.query(before15th), 'stream') as Uint8Array<ArrayBuffer>;
    const febOpen = (rows: string) =>
      Number(
        conn.query(`SELECT SUM(open) AS n FROM (${rows}) WHERE send_date BETWEEN '2024-02-01' AND '2024-02-29'`).get(0)
          ?.n,
      );
    const { pool } = visit(cacheStorageKeptResults(memoryCacheStorage()));
    // The browser's Cache Storage, where every load of the page (the engine's again too) keeps its files.
    const browserCaches = memoryCacheStorage();
    Object.assign(globalThis, { caches: browserCaches });
    const datasetStore = cacheStorageDatasetStore(browserCaches);
    try {
      // The server: the schema, and the file as it stands (304 when asked with its ETag), to every load.
      let current = { bytes: file, etag: '"v1"' };
      const asked: (string | null)[] = [];
      network?.restore();
      network = stubNetwork(async (request) => {
        if (request.url.includes('schema=true')) return Response.json(campaignSchema);
        const condition = request.headers.get('If-None-Match');
        asked.push(condition);
        if (condition === current.etag) return new Response(null, { status: 304, headers: { ETag: current.etag } });
        const headers = { ETag: current.etag, 'X-Total-Length': String(current.bytes.length) };
        return new Response(current.bytes, { headers });
      });
      const load = { workspaceId: 7, datasetId: campaignSchema.id };
      const url = '/api/workspaces/7/datasets/campaigns_fixture';
      const store = setupStore();
      stores.push(store);
      await store.dispatch(loadDataset(load));
      const sum = (series: number[] | undefined) => (series ?? []).reduce((total, n) => total + n, 0);
      const first = await store.dispatch(sent(['open']));
      expect(sum(first.data?.data.open as number[])).toBe(febOpen('SELECT * FROM campaigns_fixture'));
      while ((await datasetStore.get(url))?.etag !== '"v1"') await new Promise((resolve) => setTimeout(resolve, 5));

      // Hidden: the workers end and the page lets go of the file. Meanwhile the nightly import replaced it, and
      // another tab of the same user downloaded the new one, which the browser now keeps in its place.
      while (!pool.shed()) await new Promise((resolve) => setTimeout(resolve, 20));
      current = { bytes: nextFile, etag: '"v2"' };
      await datasetStore.put(url, '"v2"', nextFile, nextFile.length);
      asked.length = 0;

      // Back in view, a query the page has no answer for: no error, the new file's numbers.
      const next = await store.dispatch(sent(['open', 'sent']));
      expect(next.error).toBeUndefined();
      expect(sum(next.data?.data.open as number[])).toBe(febOpen(before15th));
      expect(selectDatasetEntry(store.getState(), 7, campaignSchema.id)?.version).toBe('7:v2');
      // Confirmed by the server against the browser's copy (304): nothing downloaded again.
      expect(asked).toEqual(['"v2"']);
    } finally {
      delete (globalThis as { caches?: CacheStorage }).caches;
    }
  });

  test('draws the kept answers before the server answers, then runs the rest on what the server confirmed', async () => {
    const storage = memoryStorage();
    const caches = memoryCacheStorage();
    const kept = cacheStorageKeptResults(caches);
    const stop = keepDatasetsForNextVisit(storage);
    try {
      const first = visit(kept);
      const firstStore = setupStore();
      stores.push(firstStore);
      await firstStore.dispatch(loadDataset(first.load));
      const answered = await firstStore.dispatch(sent(['sent']));
      const both = await firstStore.dispatch(sent(['sent', 'open']));
      // Kept in the background once the worker answered.
      for (let n = 0; n < 200 && (await (await caches.open(RESULTS_CACHE_NAME)).keys()).length < 2; n++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }

      let answerSchema!: () => void;
      const reload = visit(kept, new Promise<void>((resolve) => (answerSchema = resolve)));
      const store = setupStore({ datasets: loadKeptDatasets(storage) });
      stores.push(store);
      expect(selectDatasetEntry(store.getState(), 7, campaignSchema.id)).toMatchObject({ kept: true, version: '7:v1' });
      const loading = store.dispatch(loadDataset(reload.load));
      // The schema's request is held: the kept answer comes without it, and without a worker.
      const again = await store.dispatch(sent(['sent']));
      expect(again.data).toEqual(answered.data);
      expect(reload.pool.stats()).toMatchObject({ keptHits: 1, workers: 0 });
      // A query nothing was kept for waits for the server's answer about the dataset, then runs.
      let settled = false;
      const waiting = store.dispatch(sent(['open', 'sent'])).then((result) => {
        settled = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled).toBe(false);
      answerSchema();
      await loading;
      expect(selectDatasetEntry(store.getState(), 7, campaignSchema.id)?.kept).toBeUndefined();
      const late = await waiting;
      expect(late.data?.data.sent).toEqual(both.data?.data.sent);
      expect(late.data?.data.open).toEqual(both.data?.data.open);
    } finally {
      stop();
    }
  });
});
