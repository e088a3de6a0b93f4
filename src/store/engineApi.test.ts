/** @jest-environment ./test/nodeEnvironment.js */
import { tableToIPC } from 'apache-arrow';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { type DatasetSchema } from '../contracts/datasets';
import { customFieldToField } from '../engine/dataModel/edit';
import { bucketStart } from '../engine/dates';
import { buildQuery } from '../engine/queries';
import { campaignColumns, campaignRows, campaignSchema, tableSql } from '../engine/testing/fixtures';
import { openNodeDuckdb } from '../engine/testing/nodeDuckdb';
import { downloadSucceeded } from '../features/datasets/datasetsSlice';
import { createPool, type EnginePool, type QueryRequest, type WorkerHandle } from '../workers/pool';
import { type EngineWorkerApi } from '../workers/protocol';
import { resultKey } from '../workers/resultCache';
import { spawnNodeWorker } from '../workers/testing/spawnNodeWorker';
import { arrowToColumns } from './engineAnswers';
import { type QueryOf, engineApi, queryArrow, setQueryRunner } from './engineApi';
import { setupStore } from './store';

jest.setTimeout(60_000);

const data = campaignRows();
let pool: EnginePool;
/** The fixture's rows as the Arrow file a dataset's download brings. */
let file: Uint8Array;

beforeAll(async () => {
  const conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, data)) conn.query(sql);
  file = tableToIPC(conn.query('SELECT * FROM campaigns_fixture'), 'stream');
  pool = createPool({ size: 1, spawn: () => spawnNodeWorker() });
  pool.setDataset('campaigns_fixture', '3:v1', file);
  setQueryRunner(async () => pool);
}, START_TIMEOUT_MS);
afterAll(() => pool?.terminate(), START_TIMEOUT_MS);

function storeWith(schema: DatasetSchema = campaignSchema) {
  const store = setupStore();
  store.dispatch(downloadSucceeded({ key: `3/${schema.id}`, version: '3:v1', schema, fetchedAt: Date.now() }));
  return store;
}

test('a time series through the store: plain columns with the right numbers', async () => {
  const store = storeWith();
  const range = { start: '2024-02-01', end: '2024-02-29' };
  const result = await store.dispatch(
    engineApi.endpoints.timeSeries.initiate({
      workspaceId: 3,
      query: { kind: 'timeSeries', dataset: 'campaigns_fixture', range, granularity: 'week', metrics: ['sent'] },
    }),
  );
  const weeks = new Map<string, number>();
  for (const row of data.filter((r) => r.send_date >= range.start && r.send_date <= range.end)) {
    const week = bucketStart(row.send_date, 'week', 1);
    weeks.set(week, (weeks.get(week) ?? 0) + row.sent);
  }
  expect(result.data?.columns).toEqual(['period', 'bucket', 'sent']);
  expect(result.data?.data.bucket).toEqual([...weeks.keys()].sort());
  expect(result.data?.data.sent).toEqual([...weeks.keys()].sort().map((week) => weeks.get(week)));
  // The whole result is plain data in the store.
  expect(() => structuredClone(store.getState().engineApi)).not.toThrow();
});

test('a pivot runs its two steps and keeps within 100 columns', async () => {
  const store = storeWith();
  const result = await store.dispatch(
    engineApi.endpoints.explorerPivot.initiate({
      workspaceId: 3,
      query: {
        kind: 'explorerPivot',
        dataset: 'campaigns_fixture',
        range: { start: '2024-01-01', end: '2024-01-31' },
        rowGroups: ['country'],
        pivot: 'send_date',
        metrics: ['sent', 'open_rate', 'open'],
      },
    }),
  );
  expect(result.data?.columns).toHaveLength(1 + 31 * 3);
  expect(result.data?.rowCount).toBe(3);
});

test('before the dataset is there, and for an unknown metric, errors are plain objects', async () => {
  const funnel = (store: ReturnType<typeof setupStore>, metrics: string[]) =>
    store.dispatch(
      engineApi.endpoints.funnel.initiate({
        workspaceId: 3,
        query: {
          kind: 'funnel',
          dataset: 'campaigns_fixture',
          range: { start: '2024-01-01', end: '2024-01-02' },
          metrics,
        },
      }),
    );
  const early = await funnel(setupStore(), ['sent']);
  expect(early.error).toEqual({ name: 'EngineError', message: 'query executing while still waiting for dataset' });

  const bad = await funnel(storeWith(), ['nope']);
  expect(bad.error).toEqual({ name: 'QueryBuildError', message: 'Metric not found: "nope"' });
});

test('a table of some days answers the queries of those days; one reading earlier days loads the whole dataset', async () => {
  const store = setupStore();
  const key = `3/${campaignSchema.id}`;
  // A view-mode dashboard's file: the rows from the first of February on.
  store.dispatch(
    downloadSucceeded({ key, version: '3:v1', schema: campaignSchema, fetchedAt: Date.now(), since: '2024-02-01' }),
  );
  const funnel = (range: { start: string; end: string }) =>
    store.dispatch(
      engineApi.endpoints.funnel.initiate({
        workspaceId: 3,
        query: { kind: 'funnel', dataset: 'campaigns_fixture', range, metrics: ['sent'] },
      }),
    );
  const february = await funnel({ start: '2024-02-01', end: '2024-02-29' });
  expect(february.data?.data.sent).toEqual([
    data
      .filter((row) => row.send_date >= '2024-02-01' && row.send_date <= '2024-02-29')
      .reduce((n, r) => n + r.sent, 0),
  ]);
  expect(store.getState().datasets.entries[key].status).toBe('ready');
  // The file lacks January: no answer from it; the whole dataset is asked for.
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const january = await funnel({ start: '2024-01-15', end: '2024-02-15' });
    expect(january.error).toEqual({ name: 'EngineError', message: 'query executing while still waiting for dataset' });
    // The load of the whole dataset has started (no server answers it here).
    for (let tries = 0; store.getState().datasets.entries[key].status !== 'loading' && tries < 100; tries++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getState().datasets.entries[key]).toMatchObject({ status: 'loading', since: '2024-02-01' });
  } finally {
    quiet.mockRestore();
  }
});

test("the data-model editor's unsaved fields: a custom metric computed from the fields as edited", async () => {
  const store = storeWith();
  const range = { start: '2024-01-01', end: '2024-01-31' };
  const custom = customFieldToField({
    id: 'opens_per_send',
    type: 'metric',
    format: 'number',
    expr: 'open / sent',
    features: [],
    custom: true,
  });
  const result = await store.dispatch(
    engineApi.endpoints.funnel.initiate({
      workspaceId: 3,
      query: { kind: 'funnel', dataset: 'campaigns_fixture', range, metrics: ['opens_per_send'] },
      fields: [...campaignSchema.fields, custom],
    }),
  );
  const rows = data.filter((row) => row.send_date >= range.start && row.send_date <= range.end);
  const sum = (key: 'open' | 'sent') => rows.reduce((total, row) => total + row[key], 0);
  expect(result.data?.data.opens_per_send?.[0]).toBeCloseTo(sum('open') / sum('sent'), 10);
  // Without them the saved schema answers, which has no such metric.
  const saved = await store.dispatch(
    engineApi.endpoints.funnel.initiate({
      workspaceId: 3,
      query: { kind: 'funnel', dataset: 'campaigns_fixture', range, metrics: ['opens_per_send'] },
    }),
  );
  expect(saved.error?.message).toMatch(/opens_per_send/);
});

test("a dashboard's queries of one period share statements; each widget gets exactly its own answer, kept as its own", async () => {
  const range = { start: '2024-02-01', end: '2024-02-29' };
  const compare = { start: '2024-01-01', end: '2024-01-31' };
  const scope = { dataset: 'campaigns_fixture', range, compare };
  const queries: (QueryOf<'timeSeries'> | QueryOf<'funnel'>)[] = [
    { kind: 'timeSeries', ...scope, granularity: 'week', metrics: ['sent', 'open_rate'] },
    { kind: 'timeSeries', ...scope, granularity: 'week', chart: 'bar_grouped', metrics: ['campaigns', 'sent'] },
    { kind: 'funnel', ...scope, metrics: ['revenue'] },
    { kind: 'funnel', ...scope, metrics: ['open', 'open_rate', 'clicks_unique'] },
    {
      kind: 'funnel',
      ...scope,
      metrics: ['sent'],
      filters: [{ member: 'country', operator: 'equals', values: [data[0].country] }],
    },
  ];
  const ask = async (store: ReturnType<typeof setupStore>, query: (typeof queries)[number]) =>
    query.kind === 'timeSeries'
      ? (await store.dispatch(engineApi.endpoints.timeSeries.initiate({ workspaceId: 3, query }))).data
      : (await store.dispatch(engineApi.endpoints.funnel.initiate({ workspaceId: 3, query }))).data;

  // Each on its own: one after another, so none waits with another.
  const aloneStore = storeWith();
  const alone = [];
  for (const query of queries) alone.push(await ask(aloneStore, query));
  expect(alone.every((answer) => answer && answer.rowCount > 0)).toBe(true);

  // Together, as a dashboard's widgets ask while the engine starts, on a pool whose answers are kept between visits.
  const kept = new Map<string, Uint8Array>();
  let open = () => undefined as void;
  const opening = new Promise<void>((resolve) => (open = resolve));
  const startingWorker = (): WorkerHandle => {
    const handle = spawnNodeWorker();
    const version = async () => {
      await opening;
      return handle.api.version();
    };
    return {
      ...handle,
      api: new Proxy(handle.api, {
        get: (api, name: keyof EngineWorkerApi) => (name === 'version' ? version : api[name]),
      }),
    };
  };
  const together = createPool({
    size: 1,
    spawn: startingWorker,
    kept: {
      get: async (key) => kept.get(key),
      put: async (key, bytes) => void kept.set(key, bytes),
      prune: async () => undefined,
      clear: async () => kept.clear(),
    },
  });
  try {
    together.setDataset('campaigns_fixture', '3:v1', file);
    setQueryRunner(async () => together);
    const store = storeWith();
    const asked = Promise.all(queries.map((query) => ask(store, query)));
    while (together.stats().queued < queries.length) await new Promise((resolve) => setTimeout(resolve, 10));
    open();
    const answers = await asked;
    expect(answers).toEqual(alone);
    expect(alone[1]?.columns).toEqual(['period', 'bucket', 'campaigns', 'sent']);
    // The two series in one statement, the two unfiltered funnels in another, the filtered one alone.
    expect(together.stats().executions).toBe(3);
    // Each answer is kept under its own query's SQL: a reload finds it whatever shares its statement then.
    for (const [index, query] of queries.entries()) {
      const own = kept.get(resultKey('campaigns_fixture', '3:v1', buildQuery(campaignSchema, query)));
      expect(own && (await arrowToColumns(own, alone[index]?.columns))).toEqual(alone[index]);
    }
    // The Arrow answer of one of them (an export's way in) holds its own columns only, as its own statement's would.
    const bytes = await queryArrow(
      { workspaceId: 3, query: queries[1] },
      store.getState,
      'visible',
      new AbortController().signal,
      store.dispatch,
    );
    expect(await arrowToColumns(bytes)).toEqual(alone[1]);
  } finally {
    together.terminate();
    setQueryRunner(async () => pool);
  }
});

/** A widget's time series of the fixture: one metric over `range`. */
const seriesArgs = (range: { start: string; end: string }, metric: string, granularity: 'day' | 'week' = 'week') => ({
  workspaceId: 3,
  query: { kind: 'timeSeries' as const, dataset: 'campaigns_fixture', range, granularity, metrics: [metric] },
});

/** Runs `body` with each request to the pool seen on its way there. */
async function watchingPool(seen: (request: QueryRequest) => void, body: () => Promise<void>) {
  setQueryRunner(async () => ({
    query: (request) => {
      seen(request);
      return pool.query(request);
    },
  }));
  try {
    await body();
  } finally {
    setQueryRunner(async () => pool);
  }
}

test("once the engine has answered, a widget's query reaches the pool within its request, ahead of other widgets' work", async () => {
  const asked: string[] = [];
  await watchingPool(
    (request) => asked.push(request.sql),
    async () => {
      const store = storeWith();
      const series = (metric: string) => seriesArgs({ start: '2024-03-01', end: '2024-03-31' }, metric, 'day');
      // The first query loads the code that answers it and starts the pool.
      await store.dispatch(engineApi.endpoints.timeSeries.initiate(series('sent')));
      expect(asked).toHaveLength(1);
      const next = store.dispatch(engineApi.endpoints.timeSeries.initiate(series('open')));
      // Asked before the dispatch returned: a date change's first query no longer waits for every widget's effect.
      expect(asked).toHaveLength(2);
      expect((await next).data?.columns).toEqual(['period', 'bucket', 'open']);
    },
  );
});

test("a widget outside the screen asks with its priority, and its query's answer is the same cache entry as one in view", async () => {
  const asked: (string | undefined)[] = [];
  await watchingPool(
    (request) => asked.push(request.priority),
    async () => {
      const store = storeWith();
      const args = seriesArgs({ start: '2024-05-01', end: '2024-05-31' }, 'sent');
      const below = await store.dispatch(engineApi.endpoints.timeSeries.initiate({ ...args, priority: 'offscreen' }));
      expect(asked).toEqual(['offscreen']);
      // Scrolled into view: the same answer, from the store, no new query.
      const inView = await store.dispatch(engineApi.endpoints.timeSeries.initiate({ ...args, priority: 'visible' }));
      expect(inView.data).toBe(below.data);
      expect(asked).toEqual(['offscreen']);
    },
  );
});

test("an answer reaches the page's subscribers in the task it arrives in, not at the next animation frame", async () => {
  const store = storeWith();
  const args = seriesArgs({ start: '2024-04-01', end: '2024-04-30' }, 'clicks_unique');
  const seen: string[] = [];
  store.subscribe(() => seen.push(engineApi.endpoints.timeSeries.select(args)(store.getState()).status));
  await store.dispatch(engineApi.endpoints.timeSeries.initiate(args));
  // RTK Query's actions are batched; the page hears of them once the task's own work is done, not a frame later.
  expect(seen.at(-1)).toBe('fulfilled');
});
