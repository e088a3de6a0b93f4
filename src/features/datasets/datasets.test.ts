/** @jest-environment ./test/nodeEnvironment.js */
import { configureStore } from '@reduxjs/toolkit';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { memoryCacheStorage } from '../../../test/memoryCacheStorage';
import { memoryStorage } from '../../../test/memoryStorage';
import { stubNetwork } from '../../../test/stubNetwork';
import { type Widget } from '../../contracts/reports';
import { campaignSchema } from '../../engine/testing/fixtures';
import { api } from '../../store/api';
import { REQUESTED_WITH } from '../../store/httpRules';
import { KEPT_DATASET_URLS_KEY, cacheStorageDatasetStore } from './datasetCache';
import { datasetsApi } from './datasetsApi';
import {
  DATASET_FETCH_ERROR,
  datasetsSlice,
  downloadFailed,
  downloadProgressed,
  downloadStarted,
  downloadSucceeded,
  initialDatasetsState,
  schemasExpired,
  selectDatasetEntry,
} from './datasetsSlice';
import { DatasetChangedError, MAX_DOWNLOAD_ATTEMPTS, PROGRESS_STEP_BYTES, downloadDataset } from './download';
import { SCHEMA_FRESH_S, loadDataset, setDatasetSink } from './loadDataset';

const reducer = datasetsSlice.reducer;
const noWait = () => Promise.resolve();

/** A request's path and query, whether the schema endpoint (a Request) or the file download (a URL) asked. */
const pathOf = (input: RequestInfo | URL) => {
  const url = new URL(input instanceof Request ? input.url : String(input), 'http://openrate.test');
  return url.pathname + url.search;
};

let network: ReturnType<typeof stubNetwork> | undefined;
const stores: { dispatch(action: unknown): unknown }[] = [];
afterEach(() => {
  network?.restore();
  // The schema's cache entries would be removed by a timer a minute on, in whatever test file runs then.
  stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState()));
});

/**
 * A store with the datasets slice and the one api (the schema is its endpoint); `fetchFn` answers both the
 * api's calls and the file downloads.
 */
function storeWith(fetchFn: typeof fetch) {
  network = stubNetwork((request) => fetchFn(request));
  const store = configureStore({
    reducer: { datasets: reducer, [api.reducerPath]: api.reducer },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
  });
  stores.push(store);
  return store;
}

/** Polls `check` until it holds (a write the code under test does not wait for). */
async function waitFor(check: () => Promise<boolean>, attempts = 200): Promise<void> {
  for (let n = 0; n < attempts; n++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('Condition not met');
}

/** A response streaming `bytes` in chunks of `chunk` bytes, as a real download arrives. */
function streamed(bytes: Uint8Array, chunk: number, headers: Record<string, string> = {}): Response {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
  return new Response(body, { headers: { ETag: '"abc123"', 'X-Total-Length': String(bytes.byteLength), ...headers } });
}

describe('download', () => {
  test('reports progress per 100 KB against the total-length header and returns every byte', async () => {
    const bytes = new Uint8Array(350 * 1024).map((_, i) => i % 251);
    const progress: [number, number | null][] = [];
    const result = await downloadDataset('/x', {
      fetch: async () => streamed(bytes, 16 * 1024),
      onProgress: ({ loaded, total }) => progress.push([loaded, total]),
    });
    expect(result.version).toBe('abc123');
    expect(result.bytes).toEqual(bytes);
    const total = bytes.byteLength;
    // 0, then the first chunk end past each 100 KB step, then the end.
    expect(progress.map(([loaded]) => loaded)).toEqual([0, 100 * 1024 + 12 * 1024, 208 * 1024, 304 * 1024, total]);
    expect(progress.every(([, t]) => t === total)).toBe(true);
    expect(PROGRESS_STEP_BYTES).toBe(102_400);
  });

  test('retries server errors and network failures, at most 6 attempts', async () => {
    let calls = 0;
    const failing = async () => {
      calls += 1;
      if (calls % 2) throw new TypeError('Failed to fetch');
      return new Response('oops', { status: 503 });
    };
    await expect(downloadDataset('/x', { fetch: failing, sleep: noWait })).rejects.toThrow('status 503');
    expect(calls).toBe(MAX_DOWNLOAD_ATTEMPTS);

    let attempts = 0;
    const flaky = async () =>
      ++attempts < 3 ? new Response('', { status: 502 }) : streamed(new Uint8Array([1, 2]), 1);
    await expect(downloadDataset('/x', { fetch: flaky, sleep: noWait })).resolves.toMatchObject({
      bytes: new Uint8Array([1, 2]),
    });
    expect(attempts).toBe(3);
  });

  test.each([400, 401, 403, 404])('never retries a %i', async (status) => {
    let calls = 0;
    const fetchFn = async () => {
      calls += 1;
      return new Response('{}', { status });
    };
    await expect(downloadDataset('/x', { fetch: fetchFn, sleep: noWait })).rejects.toMatchObject({ status });
    expect(calls).toBe(1);
  });

  test('an empty body is the spec error', async () => {
    await expect(
      downloadDataset('/x', { fetch: async () => streamed(new Uint8Array(), 1), sleep: noWait }),
    ).rejects.toThrow('Body for dataset is empty');
  });
});

describe('datasets slice', () => {
  test('progress, success and failure as plain state', () => {
    let state = reducer(initialDatasetsState, downloadStarted({ key: '1/sales' }));
    expect(state.entries['1/sales']).toMatchObject({ status: 'loading', loaded: 0, total: null });
    state = reducer(state, downloadProgressed({ key: '1/sales', loaded: 102_400, total: 500_000 }));
    expect(state.entries['1/sales']).toMatchObject({ loaded: 102_400, total: 500_000 });
    state = reducer(state, downloadFailed({ key: '1/sales', error: DATASET_FETCH_ERROR }));
    expect(state.entries['1/sales']).toMatchObject({ status: 'error', error: DATASET_FETCH_ERROR });
    // Progress after the end is ignored.
    expect(reducer(state, downloadProgressed({ key: '1/sales', loaded: 1, total: 1 }))).toBe(state);
  });

  test("a schema the server confirms unchanged stays the same object; a changed one is the server's", () => {
    const key = '7/campaigns_fixture';
    const loaded = (state: typeof initialDatasetsState, schema: typeof campaignSchema) =>
      reducer(
        reducer(state, downloadStarted({ key })),
        downloadSucceeded({ key, version: '7:abc123', schema, fetchedAt: 1 }),
      );
    const first = loaded(initialDatasetsState, campaignSchema);
    const kept = first.entries[key]?.schema;
    // The same schema, parsed again from the server's answer: the widgets reading it keep their figures.
    const again = loaded(first, structuredClone(campaignSchema));
    expect(again.entries[key]?.schema).toBe(kept);
    const renamed = { ...campaignSchema, name: 'Campaigns renamed' };
    const changed = loaded(again, structuredClone(renamed));
    expect(changed.entries[key]?.schema).not.toBe(kept);
    expect(changed.entries[key]?.schema).toEqual(renamed);
  });

  function setup(fetchFn: typeof fetch) {
    const store = storeWith(fetchFn);
    const received: { table: string; version: string; bytes: number }[] = [];
    setDatasetSink(async (table, version, bytes) => {
      const file = typeof bytes === 'function' ? await bytes() : bytes;
      received.push({ table, version, bytes: file.byteLength });
    });
    const load = () =>
      store.dispatch(loadDataset({ workspaceId: 7, datasetId: campaignSchema.id, fetch: fetchFn, sleep: noWait }));
    return { store, received, load };
  }

  test('loads the schema and the file; bytes go to the engine and never into the store', async () => {
    const file = tableToIPC(tableFromArrays({ sent: Int32Array.from({ length: 60_000 }, (_, i) => i) }), 'stream');
    const urls: string[] = [];
    const { store, received, load } = setup(async (input) => {
      const url = pathOf(input);
      urls.push(url);
      return url.endsWith('?schema=true') ? Response.json(campaignSchema) : streamed(file, 64 * 1024);
    });
    await load();
    expect(urls).toEqual([
      '/api/workspaces/7/datasets/campaigns_fixture?schema=true',
      '/api/workspaces/7/datasets/campaigns_fixture',
    ]);
    // The schema comes through the one api, with its header against cross-site requests.
    expect(network?.calls[0]?.headers.get(REQUESTED_WITH.name)).toBe(REQUESTED_WITH.value);
    expect(received).toEqual([{ table: 'campaigns_fixture', version: '7:abc123', bytes: file.byteLength }]);
    const entry = selectDatasetEntry({ datasets: store.getState().datasets }, 7, campaignSchema.id);
    expect(entry).toMatchObject({
      status: 'ready',
      loaded: file.byteLength,
      total: file.byteLength,
      version: '7:abc123',
    });
    expect(entry?.schema?.tableId).toBe('campaigns_fixture');
    expect(JSON.stringify(store.getState()).length).toBeLessThan(10_000);
    // Fresh for 30 s: a second load does not download again.
    await load();
    expect(urls).toHaveLength(2);
    // A saved data model expires the workspace's schemas: the next use fetches them again.
    store.dispatch(schemasExpired({ workspaceId: 7 }));
    await load();
    expect(urls).toHaveLength(4);
  });

  test("a dataset's first load takes the schema its page asked for a moment ago; a later one asks again", async () => {
    const file = tableToIPC(tableFromArrays({ sent: Int32Array.from([1, 2, 3]) }), 'stream');
    const urls: string[] = [];
    const { store, load } = setup(async (input) => {
      const url = pathOf(input);
      urls.push(url);
      return url.endsWith('?schema=true') ? Response.json(campaignSchema) : streamed(file, 1024);
    });
    const ref = { workspaceId: 7, datasetId: campaignSchema.id };
    // The dashboard's page asked for it as its report arrived (initialRequests.ts).
    await store.dispatch(datasetsApi.endpoints.getDatasetSchema.initiate(ref, { subscribe: false }));
    await load();
    expect(urls).toEqual([
      '/api/workspaces/7/datasets/campaigns_fixture?schema=true',
      '/api/workspaces/7/datasets/campaigns_fixture',
    ]);
    // Any load after the first asks for the schema with its file (the data model may have been saved meanwhile).
    store.dispatch(schemasExpired({ workspaceId: 7 }));
    await load();
    expect(urls.filter((url) => url.endsWith('?schema=true'))).toHaveLength(2);

    // A schema older than SCHEMA_FRESH_S is not taken by a first load either.
    const later = setup(async (input) => {
      const url = pathOf(input);
      urls.push(url);
      return url.endsWith('?schema=true') ? Response.json(campaignSchema) : streamed(file, 1024);
    });
    await later.store.dispatch(datasetsApi.endpoints.getDatasetSchema.initiate(ref, { subscribe: false }));
    urls.length = 0;
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'clearTimeout', 'queueMicrotask'] });
    try {
      jest.setSystemTime(Date.now() + (SCHEMA_FRESH_S + 1) * 1000);
      await later.load();
      expect(urls).toEqual([
        '/api/workspaces/7/datasets/campaigns_fixture?schema=true',
        '/api/workspaces/7/datasets/campaigns_fixture',
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  /** A server of the schema and of a small file, each file under its own ETag as the server versions each set. */
  function versionedFiles() {
    const file = tableToIPC(tableFromArrays({ sent: Int32Array.from([1, 2, 3]) }), 'stream');
    const urls: string[] = [];
    const fetchFn = async (input: RequestInfo | URL) => {
      const url = pathOf(input);
      urls.push(url);
      if (url.endsWith('?schema=true')) return Response.json(campaignSchema);
      return streamed(file, 1024, { ETag: `"v${urls.length}"` });
    };
    return { urls, fetchFn };
  }

  test("a view-mode dashboard's projection: its columns only, widened, then the whole file when anything may be read", async () => {
    const { urls, fetchFn } = versionedFiles();
    const store = cacheStorageDatasetStore(memoryCacheStorage());
    const redux = storeWith(fetchFn);
    const versions: string[] = [];
    const formats: string[] = [];
    setDatasetSink((_table, version, _bytes, format) => {
      versions.push(version);
      formats.push(format);
    });
    const base = { workspaceId: 7, datasetId: campaignSchema.id, fetch: fetchFn, sleep: noWait, store };
    const widget = (id: string, metrics: string[]): Widget => ({
      id,
      type: 'table',
      dataset: campaignSchema.id,
      metrics,
    });
    const rates = { widgets: [widget('a', ['open_rate'])], filters: [], targets: [] };
    const entry = () => selectDatasetEntry({ datasets: redux.getState().datasets }, 7, campaignSchema.id);
    const whole = '/api/workspaces/7/datasets/campaigns_fixture';

    await redux.dispatch(loadDataset({ ...base, projection: rates }));
    expect(urls.at(-1)).toBe(
      `${whole}?columns=${encodeURIComponent('delivered,open,open_rate,send_date')}&format=duckdb`,
    );
    expect(entry()).toMatchObject({ status: 'ready', columns: ['send_date', 'delivered', 'open', 'open_rate'] });
    // The same projection again, or a narrower one, is served by the loaded table.
    await redux.dispatch(loadDataset({ ...base, projection: rates }));
    await redux.dispatch(loadDataset({ ...base, projection: { ...rates, widgets: [widget('b', ['open'])] } }));
    expect(urls).toHaveLength(2);
    // A widget reading another column: a wider projection, which keeps what the table held.
    await redux.dispatch(loadDataset({ ...base, projection: { ...rates, widgets: [widget('c', ['revenue'])] } }));
    expect(urls.at(-1)).toBe(
      `${whole}?columns=${encodeURIComponent('delivered,open,open_rate,revenue,send_date')}&format=duckdb`,
    );
    // Anything that lets the user pick any field (edit mode, the explorer, drawers): the whole file.
    await redux.dispatch(loadDataset(base));
    expect(urls.at(-1)).toBe(whole);
    expect(entry()?.columns).toBeUndefined();
    expect(new Set(versions).size).toBe(3);
    // A column set comes as a DuckDB file for the engine to attach; the whole file stays Arrow.
    expect(formats).toEqual(['duckdb', 'duckdb', 'arrow']);
    // Now every projection is served by the whole table.
    await redux.dispatch(loadDataset({ ...base, projection: rates }));
    expect(urls).toHaveLength(6);
    // The projected files were kept under their own URLs, next to the whole one.
    await waitFor(
      async () =>
        (await store.get(`${whole}?columns=delivered%2Copen%2Copen_rate%2Csend_date&format=duckdb`)) !== undefined,
    );
    await waitFor(async () => (await store.get(whole)) !== undefined);
  });

  test("a view-mode dashboard's days: the rows from the month of its first day, earlier ones when it reads them", async () => {
    const { urls, fetchFn } = versionedFiles();
    const redux = storeWith(fetchFn);
    setDatasetSink(() => undefined);
    const base = { workspaceId: 7, datasetId: campaignSchema.id, fetch: fetchFn, sleep: noWait };
    const table: Widget = { id: 'a', type: 'table', dataset: campaignSchema.id, metrics: ['sent'] };
    const from = (firstDay?: string) => ({ widgets: [table], filters: [], targets: [], firstDay });
    const entry = () => selectDatasetEntry({ datasets: redux.getState().datasets }, 7, campaignSchema.id);
    const projectedUrl = (rows: string) =>
      `/api/workspaces/7/datasets/campaigns_fixture?columns=${encodeURIComponent('send_date,sent')}&format=duckdb${rows}`;

    await redux.dispatch(loadDataset({ ...base, projection: from('2024-03-01') }));
    expect(urls.at(-1)).toBe(projectedUrl('&since=2024-03-01'));
    expect(entry()).toMatchObject({ status: 'ready', since: '2024-03-01' });
    // Later days (a shorter range) are in the table already.
    await redux.dispatch(loadDataset({ ...base, projection: from('2024-05-01') }));
    expect(urls).toHaveLength(2);
    // An earlier first day (a range reaching back further) loads the rows from then on.
    await redux.dispatch(loadDataset({ ...base, projection: from('2024-01-01') }));
    expect(urls.at(-1)).toBe(projectedUrl('&since=2024-01-01'));
    // The engine could not read its table's file again (a newer one replaced it): the same columns and days, at once.
    const before = urls.length;
    await redux.dispatch(loadDataset({ ...base, again: true }));
    expect(urls.slice(before)).toEqual([
      '/api/workspaces/7/datasets/campaigns_fixture?schema=true',
      projectedUrl('&since=2024-01-01'),
    ]);
    expect(entry()).toMatchObject({ status: 'ready', since: '2024-01-01' });
    // A dashboard reading every day (a row outlier filter) loads every row.
    const outliers = { ...from('2024-01-01'), filters: [{ member: 'sent', operator: 'outlier', values: ['-2'] }] };
    await redux.dispatch(loadDataset({ ...base, projection: outliers }));
    expect(urls.at(-1)).toBe(projectedUrl(''));
    expect(entry()?.since).toBeUndefined();
    // Which serves every dashboard of these columns after it, whatever its days.
    await redux.dispatch(loadDataset({ ...base, projection: from('2024-05-01') }));
    expect(urls).toHaveLength(8);
  });

  test('a 403 fails at once with the Yikes state', async () => {
    let calls = 0;
    const { store, received, load } = setup(async () => {
      calls += 1;
      return new Response('{"error":"Forbidden"}', { status: 403 });
    });
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await load();
    spy.mockRestore();
    expect(calls).toBe(1);
    expect(received).toEqual([]);
    expect(store.getState().datasets.entries['7/campaigns_fixture']).toMatchObject({
      status: 'error',
      error: 'Yikes! Something went wrong fetching your data.',
    });
  });
});

describe('files kept between visits', () => {
  const url = '/api/workspaces/7/datasets/campaigns_fixture';

  /**
   * A server holding one file version: the file to a plain request, 304 when asked with its ETag; `replace` puts
   * another version in its place.
   */
  function server(bytes: Uint8Array, etag = '"abc123"') {
    const seen: (string | null)[] = [];
    const caching: (RequestCache | undefined)[] = [];
    let current = { bytes, etag };
    const fetchFn = async (_input: RequestInfo | URL, init?: RequestInit) => {
      const condition = new Headers(init?.headers).get('If-None-Match');
      seen.push(condition);
      caching.push(init?.cache);
      if (condition === current.etag) return new Response(null, { status: 304, headers: { ETag: current.etag } });
      return streamed(current.bytes, 64 * 1024, { ETag: current.etag });
    };
    const replace = (next: Uint8Array, nextEtag: string) => (current = { bytes: next, etag: nextEtag });
    return { fetchFn, seen, caching, replace };
  }

  /** Waits for the store's write, which the download does not wait for. */
  const kept = (store: ReturnType<typeof cacheStorageDatasetStore>) =>
    waitFor(async () => (await store.get(url)) !== undefined);

  test('a kept copy is reused when the server answers 304, and replaced when the file changed', async () => {
    const store = cacheStorageDatasetStore(memoryCacheStorage());
    const bytes = new Uint8Array(250 * 1024).map((_, i) => i % 13);
    const first = server(bytes);
    expect(await downloadDataset(url, { fetch: first.fetchFn, store })).toMatchObject({ bytes, version: 'abc123' });
    await kept(store);

    const progress: number[] = [];
    const again = await downloadDataset(url, {
      fetch: first.fetchFn,
      store,
      onProgress: ({ loaded, total }) => progress.push(loaded, total ?? -1),
    });
    expect(first.seen).toEqual([null, '"abc123"']);
    // The kept copy is read only when the engine asks for it (a reload answered from kept answers never does).
    expect(again).toMatchObject({ byteLength: bytes.byteLength, version: 'abc123' });
    expect(typeof again.bytes).toBe('function');
    expect(await (again.bytes as () => Promise<Uint8Array>)()).toEqual(bytes);
    // Progress still reaches the whole file, so the loading state ends as after a download.
    expect(progress.slice(-2)).toEqual([bytes.byteLength, bytes.byteLength]);

    const changed = new Uint8Array([9, 8, 7]);
    const next = server(changed, '"def456"');
    expect(await downloadDataset(url, { fetch: next.fetchFn, store })).toMatchObject({
      bytes: changed,
      byteLength: changed.byteLength,
      version: 'def456',
    });
    expect(next.seen).toEqual(['"abc123"']);
    await waitFor(async () => (await store.get(url))?.etag === '"def456"');
    expect(await (await store.get(url))!.read()).toEqual(changed);
  });

  test('a new file is announced as soon as the server starts sending it; a 304 announces nothing', async () => {
    const store = cacheStorageDatasetStore(memoryCacheStorage());
    const bytes = new Uint8Array(250 * 1024).map((_, i) => i % 7);
    const first = server(bytes);
    const heard: string[] = [];
    const listen = () => ({
      onNewFile: () => heard.push('new file'),
      onProgress: ({ loaded }: { loaded: number }) => heard.push(`progress ${loaded}`),
    });
    await downloadDataset(url, { fetch: first.fetchFn, store, ...listen() });
    // Before any of the body: the engine can start while the file downloads.
    expect(heard.slice(0, 2)).toEqual(['new file', 'progress 0']);
    expect(heard.filter((event) => event === 'new file')).toHaveLength(1);
    await kept(store);
    heard.length = 0;
    await downloadDataset(url, { fetch: first.fetchFn, store, ...listen() });
    expect(first.seen).toEqual([null, '"abc123"']);
    expect(heard).not.toContain('new file');
  });

  test('a kept copy that cannot be read after the server’s 304 is downloaded when the engine asks for it, if still that version', async () => {
    const store = cacheStorageDatasetStore(memoryCacheStorage());
    const bytes = new Uint8Array(70 * 1024).map((_, i) => i % 7);
    const { fetchFn, seen, replace } = server(bytes);
    await downloadDataset(url, { fetch: fetchFn, store });
    await kept(store);
    // The copy is listed, but its body is gone by the time the engine reads it (storage cleared, quota reclaimed).
    const unreadable: typeof store = {
      ...store,
      get: async (key) => {
        const copy = await store.get(key);
        return copy && { ...copy, read: async () => undefined };
      },
    };
    const again = await downloadDataset(url, { fetch: fetchFn, store: unreadable, sleep: noWait });
    expect(await (again.bytes as () => Promise<Uint8Array>)()).toEqual(bytes);
    expect(seen).toEqual([null, '"abc123"', null]);
    // A newer file on the server is refused: its answers would pass for the confirmed version's.
    const later = await downloadDataset(url, { fetch: fetchFn, store: unreadable, sleep: noWait });
    replace(new Uint8Array([1, 2, 3]), '"def456"');
    await expect((later.bytes as () => Promise<Uint8Array>)()).rejects.toThrow(DatasetChangedError);
  });

  test('a file is read again from its kept copy while that is its version’s, else from the server while it sends it', async () => {
    const store = cacheStorageDatasetStore(memoryCacheStorage());
    const bytes = new Uint8Array(90 * 1024).map((_, i) => i % 11);
    const { fetchFn, seen, caching, replace } = server(bytes);
    const first = await downloadDataset(url, { fetch: fetchFn, store });
    await kept(store);
    // From the copy the download kept: no request.
    expect(await first.reread!()).toEqual(bytes);
    expect(seen).toEqual([null]);
    // The copy a 304 confirmed, read again as often as asked.
    const confirmed = await downloadDataset(url, { fetch: fetchFn, store });
    expect(await confirmed.reread!()).toEqual(bytes);
    expect(await confirmed.reread!()).toEqual(bytes);
    expect(seen).toEqual([null, '"abc123"']);

    // The copy gone (storage cleared): the server's file, still the same version, kept out of the HTTP cache.
    await store.clear();
    expect(await first.reread!()).toEqual(bytes);
    expect(seen).toEqual([null, '"abc123"', null]);
    expect(caching.at(-1)).toBe('no-store');

    // The file replaced on the server and in the store: neither is the version read before.
    replace(new Uint8Array([4, 5, 6]), '"def456"');
    await downloadDataset(url, { fetch: fetchFn, store });
    await waitFor(async () => (await store.get(url))?.etag === '"def456"');
    const asked = seen.length;
    await expect(first.reread!()).rejects.toThrow(DatasetChangedError);
    await expect(confirmed.reread!()).rejects.toThrow(DatasetChangedError);
    // The newer copy says so without a request; with no copy, the server's answer does.
    expect(seen).toHaveLength(asked);
    await store.clear();
    await expect(first.reread!()).rejects.toThrow(DatasetChangedError);
    expect(seen).toHaveLength(asked + 1);
  });

  test('without a store there is nothing to read again', async () => {
    const { fetchFn } = server(new Uint8Array([1, 2]));
    expect((await downloadDataset(url, { fetch: fetchFn })).reread).toBeUndefined();
  });

  test('with its notes, a first download leaves without asking Cache Storage; the next visit finds its copy', async () => {
    const caches = memoryCacheStorage();
    const open = jest.spyOn(caches, 'open');
    const notes = memoryStorage();
    const bytes = new Uint8Array(70 * 1024).map((_, i) => i % 5);
    const { fetchFn, seen } = server(bytes);
    let opensBeforeRequest = -1;
    const watched: typeof fetchFn = async (input, init) => {
      opensBeforeRequest = open.mock.calls.length;
      return fetchFn(input, init);
    };
    const store = cacheStorageDatasetStore(caches, { notes });
    expect(await downloadDataset(url, { fetch: watched, store })).toMatchObject({ bytes, version: 'abc123' });
    // Nothing was noted: no lookup (each of its steps waits for the page's thread) before the request.
    expect(opensBeforeRequest).toBe(0);
    await kept(store);
    expect(Object.keys(JSON.parse(notes.getItem(KEPT_DATASET_URLS_KEY)!))).toEqual([url]);

    // The next visit's store reads the same notes: the copy is looked up, and the server's 304 reuses it.
    const next = cacheStorageDatasetStore(caches, { notes });
    const again = await downloadDataset(url, { fetch: fetchFn, store: next });
    expect(seen).toEqual([null, '"abc123"']);
    expect(await (again.bytes as () => Promise<Uint8Array>)()).toEqual(bytes);

    // Notes that cannot be read count as none: the file is downloaded again.
    notes.setItem(KEPT_DATASET_URLS_KEY, '{broken');
    expect(await next.get(url)).toBeUndefined();
    // Emptied with the copies (logout, another user).
    await next.clear();
    expect(notes.getItem(KEPT_DATASET_URLS_KEY)).toBeNull();
  });

  test('beyond the size limit the oldest copies go, and a file larger than the limit is not kept', async () => {
    let clock = 0;
    const store = cacheStorageDatasetStore(memoryCacheStorage(), { maxBytes: 250, now: () => ++clock });
    await store.put('/a', '"1"', new Uint8Array(100), 100);
    await store.put('/b', '"1"', new Uint8Array(100), 100);
    await store.put('/c', '"1"', new Uint8Array(100), 100);
    expect(await store.get('/a')).toBeUndefined();
    expect(await store.get('/b')).toMatchObject({ bytes: 100 });
    expect(await store.get('/c')).toMatchObject({ bytes: 100 });
    await store.put('/d', '"1"', new Uint8Array(300), 300);
    expect(await store.get('/d')).toBeUndefined();
    expect(await store.get('/c')).toBeDefined();
    await store.clear();
    expect(await store.get('/c')).toBeUndefined();
  });

  test('a public report’s files are not kept: its page has no user whose logout would remove them', async () => {
    const caches = memoryCacheStorage();
    const store = cacheStorageDatasetStore(caches);
    const file = tableToIPC(tableFromArrays({ sent: Int32Array.from([1, 2, 3]) }), 'stream');
    const fetchFn = async (input: RequestInfo | URL) =>
      pathOf(input).endsWith('?schema=true') ? Response.json(campaignSchema) : streamed(file, 1024);
    const redux = storeWith(fetchFn);
    setDatasetSink(() => undefined);
    const args = { workspaceId: 7, datasetId: campaignSchema.id, fetch: fetchFn, sleep: noWait, store };
    await redux.dispatch(loadDataset({ ...args, publicReportId: 3 }));
    await redux.dispatch(loadDataset({ ...args, workspaceId: 8 }));
    await waitFor(async () => (await store.get('/api/workspaces/8/datasets/campaigns_fixture')) !== undefined);
    expect(await store.get('/api/reports/3/datasets/campaigns_fixture')).toBeUndefined();
  });
});
