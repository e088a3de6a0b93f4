/** @jest-environment ./test/nodeEnvironment.js */
import { type Worker } from 'node:worker_threads';
import { tableFromArrays, tableFromIPC, tableToIPC } from 'apache-arrow';
import { type EnginePool, createPool } from './pool';
import { spawnNodeWorker } from './testing/spawnNodeWorker';

// Real DuckDB-WASM in real worker threads: the same engine core and pool as the browser, minus the browser.
jest.setTimeout(60_000);

const ipc = (columns: Record<string, Int32Array | string[]>) => tableToIPC(tableFromArrays(columns), 'stream');
const numbers = (bytes: Uint8Array, column: string) =>
  Array.from(tableFromIPC(bytes).getChild(column)?.toArray() ?? [], Number);
// Most of a second of work in one DuckDB-WASM thread: long enough to act while it runs.
const SLOW = 'SELECT COUNT(DISTINCT hash(i) % 1000003)::INTEGER AS n FROM range(3000000) t(i)';
// Hours of work: it ends only if cancelled.
const ENDLESS = 'SELECT COUNT(*)::BIGINT AS n FROM range(100000000) a, range(100000) b WHERE a.range + b.range > 0';
/** A cancel must stop a statement well before it would end on its own, loaded CI machine included. */
const CANCEL_BOUND_MS = 3000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let threads: Worker[];
let pool: EnginePool;

beforeEach(() => {
  threads = [];
  pool = createPool({ size: 2, spawn: () => spawnNodeWorker(threads) });
  pool.setDataset('sales', 'v1', ipc({ amount: Int32Array.from([1, 2, 3, 4]), region: ['n', 's', 'n', 's'] }));
  pool.setDataset('lists', 'v1', ipc({ members: Int32Array.from([10, 20]) }));
});
afterEach(() => pool.terminate());

test('loads Arrow bytes and answers with Arrow bytes', async () => {
  const bytes = await pool.query({ dataset: 'sales', sql: 'SELECT SUM(amount)::INTEGER AS total FROM sales' });
  expect(numbers(bytes, 'total')).toEqual([10]);
  const [stats] = await pool.workerStats();
  expect(stats.tables).toContainEqual({ table: 'sales', version: 'v1', rows: 4 });
  expect(stats.wasmHeapBytes).toBeGreaterThan(0);
});

test('registered datasets are loaded into an open worker while it is idle, so a first query does not wait for one', async () => {
  pool.warm(1);
  let tables: string[] = [];
  for (let n = 0; n < 400 && tables.length < 2; n++) {
    await sleep(50);
    tables = (await pool.workerStats()).flatMap((stats) => stats.tables.map((entry) => entry.table));
  }
  expect(tables.sort()).toEqual(['lists', 'sales']);
  const bytes = await pool.query({ dataset: 'lists', sql: 'SELECT SUM(members)::INTEGER AS total FROM lists' });
  expect(numbers(bytes, 'total')).toEqual([30]);
  // One worker, each dataset loaded once: the query ran where its dataset already was.
  expect((await pool.workerStats()).map((stats) => stats.tables.length)).toEqual([2]);
  expect(pool.stats()).toMatchObject({ workers: 1, executions: 1 });
});

test('affinity: queries go to the worker holding their dataset; each dataset is loaded once', async () => {
  const sales = await pool.query({ dataset: 'sales', sql: 'SELECT COUNT(*)::INTEGER AS n FROM sales' });
  const lists = await pool.query({ dataset: 'lists', sql: 'SELECT SUM(members)::INTEGER AS n FROM lists' });
  for (let i = 0; i < 3; i++) {
    await pool.query({ dataset: 'sales', sql: `SELECT ${i} + COUNT(*) AS n FROM sales` });
  }
  expect([numbers(sales, 'n'), numbers(lists, 'n')]).toEqual([[4], [30]]);
  // One worker was enough for queries one at a time: the second dataset joined the same worker.
  const stats = await pool.workerStats();
  expect(stats).toHaveLength(1);
  expect(stats[0].tables.map((t) => t.table).sort()).toEqual(['lists', 'sales']);
  expect(stats[0].queries).toBe(5);
});

test('identical in-flight queries share one execution', async () => {
  const results = await Promise.all([1, 2, 3].map(() => pool.query({ dataset: 'sales', sql: SLOW })));
  expect(new Set(results.map((bytes) => numbers(bytes, 'n')[0])).size).toBe(1);
  expect(pool.stats()).toMatchObject({ executions: 1, sharedHits: 2 });
});

test('a running query is cancelled in its worker by id, and the same worker answers the next query', async () => {
  const worker = spawnNodeWorker(threads);
  try {
    await worker.api.version(); // started: the time below is the cancel's alone
    const endless = worker.api.query(ENDLESS, 'endless');
    const outcome = endless.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await sleep(500);
    const started = performance.now();
    await expect(worker.api.cancel('endless')).resolves.toBe(true);
    expect(await outcome).toEqual({ name: 'AbortError', message: 'Query cancelled' });
    expect(performance.now() - started).toBeLessThan(CANCEL_BOUND_MS);
    expect(numbers(await worker.api.query('SELECT 42::INTEGER AS n'), 'n')).toEqual([42]);
    await expect(worker.api.cancel('endless')).resolves.toBe(false);
    expect((await worker.api.stats()).queries).toBe(2);
  } finally {
    worker.terminate();
  }
});

test('a query cancelled while it waits behind another never runs', async () => {
  const worker = spawnNodeWorker(threads);
  try {
    const first = worker.api.query(SLOW, 'first');
    const second = worker.api.query('SELECT 1 AS n', 'second');
    await expect(worker.api.cancel('second')).resolves.toBe(true);
    await expect(second).rejects.toEqual({ name: 'AbortError', message: 'Query cancelled' });
    expect(numbers(await first, 'n')[0]).toBeGreaterThan(0);
    expect((await worker.api.stats()).queries).toBe(1);
  } finally {
    worker.terminate();
  }
});

test('a superseded running query is cancelled in its worker, which then answers the current one', async () => {
  const single = createPool({ size: 1, spawn: () => spawnNodeWorker(threads) });
  try {
    single.setDataset('sales', 'v1', ipc({ amount: Int32Array.from([1, 2, 3, 4]) }));
    const old = single.query({ dataset: 'sales', sql: ENDLESS, supersedeKey: 'widget' });
    const outcome = old.then(
      () => 'answered',
      (error: unknown) => error,
    );
    while (single.stats().executions === 0) await sleep(20);
    await sleep(300);
    const started = performance.now();
    const current = single.query({
      dataset: 'sales',
      sql: 'SELECT SUM(amount)::INTEGER AS n FROM sales',
      supersedeKey: 'widget',
    });
    expect(await outcome).toEqual({ name: 'AbortError', message: 'Query superseded' });
    expect(numbers(await current, 'n')).toEqual([10]);
    expect(performance.now() - started).toBeLessThan(CANCEL_BOUND_MS);
    expect(threads).toHaveLength(1);
    expect(single.stats()).toMatchObject({ workers: 1, replacedWorkers: 0, executions: 2 });
  } finally {
    single.terminate();
  }
});

test('a superseded query is dropped, and the current one answers', async () => {
  const busy = pool.query({ dataset: 'sales', sql: SLOW });
  const alsoBusy = pool.query({ dataset: 'sales', sql: `${SLOW} -- second` });
  const old = pool.query({ dataset: 'sales', sql: 'SELECT 1 AS n', supersedeKey: 'widget' });
  const current = pool.query({ dataset: 'sales', sql: 'SELECT 2 AS n', supersedeKey: 'widget' });
  await expect(old).rejects.toEqual({ name: 'AbortError', message: 'Query superseded' });
  expect(numbers(await current, 'n')).toEqual([2]);
  await Promise.all([busy, alsoBusy]);
  expect(pool.stats().executions).toBe(3);
});

test('a worker killed mid-query is replaced and the query still answered', async () => {
  const answer = pool.query({ dataset: 'sales', sql: `${SLOW} -- killed` });
  // Wait until the worker has loaded the dataset and is inside the query.
  while (pool.stats().executions === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(pool.stats().running).toBe(1);
  await threads[0].terminate();
  const bytes = await answer;
  expect(numbers(bytes, 'n')[0]).toBeGreaterThan(0);
  expect(threads).toHaveLength(2);
  expect(pool.stats()).toMatchObject({ retries: 1, replacedWorkers: 1, workers: 1 });
});

test('a shed pool ends its workers only when idle, then answers from a new worker that loads the same data', async () => {
  const busy = pool.query({ dataset: 'sales', sql: `${SLOW} -- before the shed` });
  while (pool.stats().executions === 0) await sleep(20);
  expect(pool.shed()).toBe(false);
  await busy;
  const total = 'SELECT SUM(amount)::INTEGER AS total FROM sales';
  expect(numbers(await pool.query({ dataset: 'sales', sql: total }), 'total')).toEqual([10]);
  const exited = new Promise((resolve) => threads[0].once('exit', resolve));
  expect(pool.shed()).toBe(true);
  await exited;
  expect(pool.stats()).toMatchObject({ workers: 0, replacedWorkers: 0 });
  // What the page shows is still answered, without a worker.
  expect(numbers(await pool.query({ dataset: 'sales', sql: total }), 'total')).toEqual([10]);
  expect(threads).toHaveLength(1);
  // The next change starts a worker, which loads the dataset from the bytes the pool kept.
  const byRegion = await pool.query({
    dataset: 'sales',
    sql: "SELECT SUM(amount)::INTEGER AS n FROM sales WHERE region = 'n'",
  });
  expect(numbers(byRegion, 'n')).toEqual([4]);
  expect(threads).toHaveLength(2);
  expect(pool.stats()).toMatchObject({ workers: 1, retries: 0 });
});

test('a shed lets go of the bytes it can read again: the next worker has them read again, once', async () => {
  const file = ipc({ amount: Int32Array.from([5, 6, 7]) });
  const reread = jest.fn(async () => file);
  pool.setDataset('kept', 'v1', file, 'arrow', reread);
  const total = (where: string) => `SELECT SUM(amount)::INTEGER AS total FROM kept WHERE ${where}`;
  expect(numbers(await pool.query({ dataset: 'kept', sql: total('true') }), 'total')).toEqual([18]);
  // The idle worker loads the other registered datasets next: no shed while it does.
  while (!pool.shed()) await sleep(50);
  expect(reread).not.toHaveBeenCalled();

  // Two queries at once: the one new worker has the file read again, once.
  const [big, small] = await Promise.all([
    pool.query({ dataset: 'kept', sql: total('amount > 6') }),
    pool.query({ dataset: 'kept', sql: total('amount < 6') }),
  ]);
  expect([numbers(big, 'total'), numbers(small, 'total')]).toEqual([[7], [5]]);
  expect(reread).toHaveBeenCalledTimes(1);
  // A dataset registered without a way to read it again kept its bytes through the shed.
  expect(
    numbers(await pool.query({ dataset: 'sales', sql: 'SELECT SUM(amount)::INTEGER AS n FROM sales' }), 'n'),
  ).toEqual([10]);
  expect(reread).toHaveBeenCalledTimes(1);
});

test('warmed again after a shed, the new worker loads what the old ones held before any query', async () => {
  const held = async (count: number) => {
    let tables: string[] = [];
    for (let n = 0; n < 400 && tables.length < count; n++) {
      await sleep(50);
      tables = (await pool.workerStats()).flatMap((stats) => stats.tables.map((entry) => entry.table));
    }
    return tables.sort();
  };
  await pool.query({ dataset: 'lists', sql: 'SELECT COUNT(*)::INTEGER AS n FROM lists' });
  // The idle worker loads the other registered dataset next: no shed while it does.
  expect(pool.shed()).toBe(false);
  expect(await held(2)).toEqual(['lists', 'sales']);
  expect(pool.shed()).toBe(true);
  pool.warm(1);
  expect(await held(2)).toEqual(['lists', 'sales']);
  expect(pool.stats()).toMatchObject({ workers: 1, executions: 1 });
});
