/** @jest-environment node */
import { configureStore } from '@reduxjs/toolkit';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { campaignSchema } from '../../engine/testing/fixtures';
import {
  DATASET_FETCH_ERROR,
  datasetsSlice,
  downloadFailed,
  downloadProgressed,
  downloadStarted,
  initialDatasetsState,
  loadDataset,
  schemasExpired,
  selectDatasetEntry,
  setDatasetSink,
} from './datasetsSlice';
import { MAX_DOWNLOAD_ATTEMPTS, PROGRESS_STEP_BYTES, downloadDataset } from './download';

const reducer = datasetsSlice.reducer;
const noWait = () => Promise.resolve();

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

  function setup(fetchFn: typeof fetch) {
    const store = configureStore({ reducer: { datasets: reducer } });
    const received: { table: string; version: string; bytes: number }[] = [];
    setDatasetSink((table, version, bytes) => {
      received.push({ table, version, bytes: bytes.byteLength });
    });
    const load = () =>
      store.dispatch(loadDataset({ workspaceId: 7, datasetId: campaignSchema.id, fetch: fetchFn, sleep: noWait }));
    return { store, received, load };
  }

  test('loads the schema and the file; bytes go to the engine and never into the store', async () => {
    const file = tableToIPC(tableFromArrays({ sent: Int32Array.from({ length: 60_000 }, (_, i) => i) }), 'stream');
    const urls: string[] = [];
    const { store, received, load } = setup(async (input) => {
      const url = String(input);
      urls.push(url);
      return url.endsWith('?schema=true') ? Response.json(campaignSchema) : streamed(file, 64 * 1024);
    });
    await load();
    expect(urls).toEqual([
      '/api/workspaces/7/datasets/campaigns_fixture?schema=true',
      '/api/workspaces/7/datasets/campaigns_fixture',
    ]);
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
