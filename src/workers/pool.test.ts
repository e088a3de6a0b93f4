import { type EnginePool, type WorkerHandle, createPool, poolSize } from './pool';
import { type EngineWorkerApi, engineMessages } from './protocol';

/** A scripted worker: each call waits until the test answers it, so the order of events is explicit. */
class FakeWorker {
  calls: { method: 'load' | 'query'; arg: string; resolve(value: unknown): void; reject(error: unknown): void }[] = [];
  exit?: (reason: string) => void;
  terminated = false;
  cancelled: string[] = [];
  warmUps = 0;

  handle(): WorkerHandle {
    const call = (method: 'load' | 'query', arg: string) =>
      new Promise<never>((resolve, reject) => this.calls.push({ method, arg, resolve, reject }));
    const api: EngineWorkerApi = {
      version: async () => 'v-fake',
      warmUp: async () => {
        this.warmUps += 1;
      },
      load: (table) => call('load', table),
      query: (sql) => call('query', sql),
      cancel: async (queryId) => {
        this.cancelled.push(queryId);
        return true;
      },
      stats: async () => ({ tables: [], wasmHeapBytes: 0, duckdbMemoryBytes: 0, queries: 0 }),
    };
    return {
      api,
      terminate: () => {
        this.terminated = true;
      },
      onExit: (listener) => {
        this.exit = listener;
      },
    };
  }

  pending() {
    return this.calls
      .filter((call) => call.method === 'query' || call.method === 'load')
      .map((c) => `${c.method}:${c.arg}`);
  }

  answer(index = 0, value: unknown = new Uint8Array([1])) {
    const [call] = this.calls.splice(index, 1);
    call.resolve(value);
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
/** Lets the pool's answers, pumps and the sending of next queries (a timer after the pump) run. */
const flush = () => tick().then(tick);

/** A pool of one worker with the dataset loaded, running `sql`. */
async function runningOne(sql: string) {
  const { pool, workers } = setup(1);
  const running = pool.query({ dataset: 'sales', sql });
  await flush();
  workers[0].answer(); // the dataset load
  await flush();
  return { pool, workers, running };
}

/** Each worker with a call waiting answers its first. */
const answerEach = (workers: FakeWorker[]) => {
  for (const worker of workers) if (worker.calls.length > 0) worker.answer();
};

/** The workers answer every call, each next query sent as an earlier one ends, until none waits. */
async function answerAll(workers: FakeWorker[]) {
  while (workers.some((worker) => worker.calls.length > 0)) {
    answerEach(workers);
    await flush();
  }
}

/** Two warmed workers and a burst of three queries: both workers load the dataset, the first query's and a copy. */
async function burstIntoTwo(pool: EnginePool, workers: FakeWorker[]) {
  pool.warm(2);
  const answers = ['q1', 'q2', 'q3'].map((sql) => pool.query({ dataset: 'sales', sql }));
  await flush();
  expect(workers.map((worker) => worker.pending())).toEqual([['load:sales'], ['load:sales']]);
  return answers;
}

/**
 * The worker runs `queries` one by one, each with the next `ahead` already sent to it (`Slot.ahead`): one while the
 * pool has other workers, three in its only one.
 */
async function answerInTurn(worker: FakeWorker, queries: string[], ahead = 1) {
  for (const index of queries.keys()) {
    expect(worker.pending()).toEqual(queries.slice(index, index + 1 + ahead).map((query) => `query:${query}`));
    worker.answer();
    await flush();
  }
}
const bytes = (n: number) => new Uint8Array(n).fill(7);

function setup(
  size = 1,
  extra: {
    now?: () => number;
    clock?: () => number;
    cacheBytes?: number;
    hangMs?: number;
    parallelStarts?: boolean;
    /** Without the downloaded dataset `sales`. */
    empty?: boolean;
  } = {},
) {
  const { empty, ...options } = extra;
  const workers: FakeWorker[] = [];
  const pool = createPool({
    size,
    spawn: () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker.handle();
    },
    ...options,
  });
  if (!empty) pool.setDataset('sales', 'v1', bytes(10));
  return { pool, workers };
}

describe('pool size', () => {
  test.each([
    [2, undefined, 2],
    [1, undefined, 1],
    [8, undefined, 4],
    [16, 8, 4],
    [8, 4, 2],
    [8, 1, 1],
    [undefined, undefined, 2],
  ])('%s cores and %s GB: %i workers', (cores, memory, expected) => {
    expect(poolSize(cores, memory)).toBe(expected);
  });
});

describe('pool scheduling (scripted workers)', () => {
  test('no worker starts before the first query; the dataset loads once, then queries run', async () => {
    const { pool, workers } = setup(2);
    expect(workers).toHaveLength(0);
    const answer = pool.query({ dataset: 'sales', sql: 'SELECT 1' });
    await flush();
    expect(workers).toHaveLength(1);
    expect(workers[0].pending()).toEqual(['load:sales']);
    workers[0].answer();
    await flush();
    expect(workers[0].pending()).toEqual(['query:SELECT 1']);
    workers[0].answer(0, bytes(3));
    await expect(answer).resolves.toEqual(bytes(3));
  });

  test('a query for a dataset that is not there yet is the spec error', async () => {
    const { pool } = setup();
    await expect(pool.query({ dataset: 'other', sql: 'SELECT 1' })).rejects.toEqual({
      name: 'EngineError',
      message: engineMessages.waitingForDataset,
    });
  });

  test('an empty dataset body is refused', () => {
    const { pool } = setup();
    expect(() => pool.setDataset('sales', 'v2', new Uint8Array())).toThrow(
      expect.objectContaining({ message: 'Body for dataset is empty' }),
    );
  });

  test('visible widgets run before lookups and prefetch, whatever the arrival order', async () => {
    const { pool, workers } = setup(1);
    const order: string[] = [];
    const track = (sql: string, priority: 'visible' | 'lookup' | 'prefetch') =>
      pool.query({ dataset: 'sales', sql, priority }).then(() => order.push(sql));
    const first = track('first', 'visible');
    await flush();
    workers[0].answer(); // load
    await flush();
    const rest = [track('prefetch', 'prefetch'), track('lookup', 'lookup'), track('widget', 'visible')];
    for (let i = 0; i < 4; i++) {
      await flush();
      workers[0].answer();
    }
    await Promise.all([first, ...rest]);
    expect(order).toEqual(['first', 'widget', 'lookup', 'prefetch']);
  });

  test('identical queries share one execution and later ones hit the cache until stale', async () => {
    let time = 0;
    const { pool, workers } = setup(1, { now: () => time });
    const a = pool.query({ dataset: 'sales', sql: 'Q' });
    const b = pool.query({ dataset: 'sales', sql: 'Q' });
    await flush();
    workers[0].answer();
    await flush();
    workers[0].answer(0, bytes(4));
    expect(await a).toBe(await b);
    expect(pool.stats()).toMatchObject({ executions: 1, sharedHits: 1 });
    time = 36_000_000 - 1;
    await pool.query({ dataset: 'sales', sql: 'Q' });
    expect(pool.stats().cacheHits).toBe(1);
    time = 36_000_000;
    const stale = pool.query({ dataset: 'sales', sql: 'Q' });
    await flush();
    expect(workers[0].pending()).toEqual(['query:Q']);
    workers[0].answer();
    await stale;
  });

  test('a new dataset version is a new cache key; the cache is bounded in bytes', async () => {
    const { pool, workers } = setup(1, { cacheBytes: 10 });
    const run = async (sql: string, size: number) => {
      const answer = pool.query({ dataset: 'sales', sql });
      await flush();
      while (workers[0].calls.length) {
        workers[0].answer(0, workers[0].calls[0].method === 'load' ? undefined : bytes(size));
        await flush();
      }
      return answer;
    };
    await run('A', 6);
    await run('B', 6);
    expect(pool.stats()).toMatchObject({ cacheEntries: 1, cacheBytes: 6 });
    pool.setDataset('sales', 'v2', bytes(10));
    expect(pool.stats().cacheEntries).toBe(0);
    await run('B', 6);
    expect(pool.stats().executions).toBe(3);
  });

  test('a superseded queued query is dropped with an AbortError and never runs', async () => {
    const { pool, workers } = setup(1);
    const blocker = pool.query({ dataset: 'sales', sql: 'blocker' });
    await flush();
    workers[0].answer();
    await flush();
    const old = pool.query({ dataset: 'sales', sql: 'old', supersedeKey: 'widget-1' });
    const current = pool.query({ dataset: 'sales', sql: 'new', supersedeKey: 'widget-1' });
    await expect(old).rejects.toEqual({ name: 'AbortError', message: 'Query superseded' });
    workers[0].answer();
    await blocker;
    await flush();
    expect(workers[0].pending()).toEqual(['query:new']);
    workers[0].answer();
    await current;
    expect(pool.stats().executions).toBe(2);
  });

  test('a superseded running query is cancelled in its worker; asking for its SQL again runs it afresh', async () => {
    const { pool, workers } = setup(1);
    const old = pool.query({ dataset: 'sales', sql: 'old', supersedeKey: 'widget-1' });
    await flush();
    workers[0].answer(); // the dataset load
    await flush();
    expect(workers[0].pending()).toEqual(['query:old']);
    const current = pool.query({ dataset: 'sales', sql: 'new', supersedeKey: 'widget-1' });
    await expect(old).rejects.toEqual({ name: 'AbortError', message: 'Query superseded' });
    expect(workers[0].cancelled).toEqual(['q1']);
    const again = pool.query({ dataset: 'sales', sql: 'old' });
    // The worker answers the cancelled statement with an AbortError and is free again.
    workers[0].calls.shift()?.reject({ name: 'AbortError', message: 'Query cancelled' });
    await flush();
    // The query asked again waits in the worker behind the new one.
    expect(workers[0].pending()).toEqual(['query:new', 'query:old']);
    workers[0].answer(0, bytes(2));
    await flush();
    expect(workers[0].pending()).toEqual(['query:old']);
    workers[0].answer(0, bytes(3));
    expect(await current).toEqual(bytes(2));
    expect(await again).toEqual(bytes(3));
    expect(pool.stats()).toMatchObject({ executions: 3, sharedHits: 0 });
  });

  test('an aborted signal drops the query', async () => {
    const { pool, workers } = setup(1);
    const blocker = pool.query({ dataset: 'sales', sql: 'blocker' });
    const controller = new AbortController();
    const dropped = pool.query({ dataset: 'sales', sql: 'x', signal: controller.signal });
    controller.abort();
    await expect(dropped).rejects.toMatchObject({ name: 'AbortError' });
    await flush();
    workers[0].answer();
    await flush();
    workers[0].answer();
    await blocker;
    expect(workers[0].pending()).toEqual([]);
  });

  test('an aborted running query is cancelled in its worker unless another caller still waits for it', async () => {
    const { pool, workers } = setup(1);
    const first = new AbortController();
    const second = new AbortController();
    const a = pool.query({ dataset: 'sales', sql: 'shared', signal: first.signal });
    const b = pool.query({ dataset: 'sales', sql: 'shared', signal: second.signal });
    await flush();
    workers[0].answer(); // the dataset load
    await flush();
    first.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0].cancelled).toEqual([]);
    second.abort();
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0].cancelled).toEqual(['q1']);
  });

  test('a hung worker is terminated, replaced, and its query retried once', async () => {
    jest.useFakeTimers();
    try {
      const { pool, workers } = setup(1, { hangMs: 1000 });
      const answer = pool.query({ dataset: 'sales', sql: 'slow' });
      await jest.advanceTimersByTimeAsync(0);
      workers[0].answer();
      await jest.advanceTimersByTimeAsync(0);
      expect(workers[0].pending()).toEqual(['query:slow']);
      await jest.advanceTimersByTimeAsync(1000);
      expect(workers[0].terminated).toBe(true);
      expect(workers).toHaveLength(2);
      expect(workers[1].pending()).toEqual(['load:sales']);
      workers[1].answer();
      await jest.advanceTimersByTimeAsync(0);
      workers[1].answer(0, bytes(2));
      await expect(answer).resolves.toEqual(bytes(2));
      expect(pool.stats()).toMatchObject({ retries: 1, replacedWorkers: 1, workers: 1 });
    } finally {
      jest.useRealTimers();
    }
  });

  test('a query that crashes its worker twice fails with a plain error', async () => {
    const { pool, workers } = setup(1);
    const answer = pool.query({ dataset: 'sales', sql: 'boom' });
    await flush();
    workers[0].answer();
    await flush();
    workers[0].exit?.('exit 1');
    await flush();
    workers[1].answer();
    await flush();
    workers[1].calls[0].reject({ name: 'RuntimeError', message: 'memory access out of bounds' });
    await expect(answer).rejects.toEqual({
      name: 'EngineError',
      message: `${engineMessages.crashed} (memory access out of bounds)`,
    });
    expect(workers[1].terminated).toBe(true);
  });

  test("the pool's only worker holds the next visible queries before it answers, so it need not wait for the page; a lookup waits", async () => {
    const { pool, workers, running: first } = await runningOne('first');
    const lookup = pool.query({ dataset: 'sales', sql: 'lookup', priority: 'lookup' });
    await flush();
    expect(workers[0].pending()).toEqual(['query:first']);
    const later = ['second', 'third', 'fourth', 'fifth'];
    const widgets = later.map((sql) => pool.query({ dataset: 'sales', sql }));
    await flush();
    // Three queries at most wait in the worker; the fifth and the lookup wait in the pool.
    expect(workers[0].pending()).toEqual(['query:first', 'query:second', 'query:third', 'query:fourth']);
    workers[0].answer();
    await flush();
    await answerInTurn(workers[0], later, 3);
    expect(workers[0].pending()).toEqual(['query:lookup']);
    workers[0].answer();
    await Promise.all([first, lookup, ...widgets]);
    expect(pool.stats().executions).toBe(6);
  });

  test("a dashboard's widgets on screen run before those outside it, which still wait in the busy worker ahead of a lookup", async () => {
    const { pool, workers, running: first } = await runningOne('first');
    const lookup = pool.query({ dataset: 'sales', sql: 'lookup', priority: 'lookup' });
    const below = pool.query({ dataset: 'sales', sql: 'below', priority: 'offscreen' });
    const onScreen = pool.query({ dataset: 'sales', sql: 'on screen' });
    await flush();
    expect(workers[0].pending()).toEqual(['query:first', 'query:on screen', 'query:below']);
    await answerInTurn(workers[0], ['first', 'on screen', 'below'], 3);
    expect(workers[0].pending()).toEqual(['query:lookup']);
    workers[0].answer();
    await Promise.all([first, lookup, below, onScreen]);
  });

  test('a query sent ahead waits behind the one expected to end first, by what the same shapes took before', async () => {
    let time = 0;
    const { pool, workers } = setup(2, { clock: () => time, parallelStarts: true });
    pool.warm(2);
    const burst = (day: number) =>
      ['long', 'short', 'third'].map((kind) =>
        pool.query({ dataset: 'sales', sql: `SELECT ${kind} WHERE d = '${day}'` }),
      );
    const first = burst(1);
    await flush();
    workers[0].answer();
    workers[1].answer(); // the loads
    await flush();
    time = 10;
    workers[1].answer(); // short: 10 ms
    await flush();
    time = 100;
    workers[0].answer(); // long: 100 ms
    await flush();
    answerEach(workers);
    await Promise.all(first);

    const next = burst(2);
    await flush();
    // The third goes behind the short query, not behind the first worker's long one.
    expect(workers.map((worker) => worker.pending())).toEqual([
      ["query:SELECT long WHERE d = '2'"],
      ["query:SELECT short WHERE d = '2'", "query:SELECT third WHERE d = '2'"],
    ]);
    for (let round = 0; round < 2; round++) {
      answerEach(workers);
      await flush();
    }
    await Promise.all(next);
  });

  test('a query superseded while it waits in a worker is cancelled there, and the worker goes on', async () => {
    const { pool, workers, running } = await runningOne('running');
    const old = pool.query({ dataset: 'sales', sql: 'old', supersedeKey: 'widget-1' });
    await flush();
    expect(workers[0].pending()).toEqual(['query:running', 'query:old']);
    const current = pool.query({ dataset: 'sales', sql: 'new', supersedeKey: 'widget-1' });
    await expect(old).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0].cancelled).toEqual(['q2']);
    workers[0].answer();
    await running;
    // The worker skips the cancelled statement (an AbortError), then takes the new one.
    workers[0].calls.shift()?.reject({ name: 'AbortError', message: 'Query cancelled' });
    await flush();
    expect(workers[0].pending()).toEqual(['query:new']);
    workers[0].answer(0, bytes(4));
    expect(await current).toEqual(bytes(4));
  });

  test('a worker that dies with a query behind the running one: that one is retried, the one behind queued again', async () => {
    const { pool, workers, running: crashing } = await runningOne('crashing');
    const behind = pool.query({ dataset: 'sales', sql: 'behind' });
    await flush();
    expect(workers[0].pending()).toEqual(['query:crashing', 'query:behind']);
    workers[0].exit?.('exit 1');
    await flush();
    expect(workers[1].pending()).toEqual(['load:sales']);
    workers[1].answer();
    await flush();
    // Still in their order, each with its attempts: a second crash fails the retried query only.
    expect(workers[1].pending()).toEqual(['query:crashing', 'query:behind']);
    workers[1].calls[0].reject({ name: 'RuntimeError', message: 'unreachable' });
    await expect(crashing).rejects.toMatchObject({ message: `${engineMessages.crashed} (unreachable)` });
    await flush();
    expect(workers[2].pending()).toEqual(['load:sales']);
    workers[2].answer();
    await flush();
    workers[2].answer(0, bytes(5));
    expect(await behind).toEqual(bytes(5));
    // One retry: the query behind was never begun.
    expect(pool.stats()).toMatchObject({ retries: 1, replacedWorkers: 2 });
  });

  test('SQL errors reach the caller as plain objects and the worker stays', async () => {
    const { pool, workers } = setup(1);
    const answer = pool.query({ dataset: 'sales', sql: 'bad' });
    await flush();
    workers[0].answer();
    await flush();
    workers[0].calls[0].reject(new Error('Catalog Error: Table with name x does not exist!'));
    await expect(answer).rejects.toEqual({
      name: 'Error',
      message: 'Catalog Error: Table with name x does not exist!',
    });
    expect(pool.stats().workers).toBe(1);
  });

  test('a second worker starts for a copy only when the measured wait of the queue outweighs its start and load', async () => {
    let time = 0;
    const { pool, workers } = setup(2, { clock: () => time });
    const first = pool.query({ dataset: 'sales', sql: 'q1' });
    time = 1000; // the worker's start: 1 s
    await flush();
    time = 1100; // the load: 100 ms
    workers[0].answer();
    await flush();
    time = 1200; // a query: 100 ms
    workers[0].answer();
    await first;

    // Two waiting queries of about 100 ms each: a copy needing a start (1 s) and a load would come too late.
    const quick = ['q2', 'q3', 'q4'].map((sql) => pool.query({ dataset: 'sales', sql }));
    await flush();
    expect(workers).toHaveLength(1);

    // The queries turn slow (5 s): four waiting now outweigh a start and a load, and a second worker takes a copy.
    const slow = ['q5', 'q6', 'q7'].map((sql) => pool.query({ dataset: 'sales', sql }));
    time = 6200;
    workers[0].answer();
    await flush();
    expect(workers).toHaveLength(2);
    expect(workers[1].pending()).toEqual(['load:sales']);
    // The first worker runs q3 with q4 sent behind it; the copy's worker takes the next two.
    expect(workers[0].pending()).toEqual(['query:q3', 'query:q4']);
    workers[1].answer();
    await flush();
    expect(workers[1].pending()).toEqual(['query:q5', 'query:q6']);
    for (let round = 0; round < 3; round++) {
      answerEach(workers);
      await flush();
    }
    await Promise.all([...quick, ...slow]);
    expect(pool.stats().executions).toBe(7);
  });

  test('a copy a burst could not wait for is made once the queue is empty, for the next burst', async () => {
    let time = 0;
    const { pool, workers } = setup(2, { clock: () => time });
    const first = pool.query({ dataset: 'sales', sql: 'q1' });
    time = 1000;
    await flush();
    time = 1100;
    workers[0].answer();
    await flush();
    time = 1200;
    workers[0].answer();
    await first;
    const burst = ['q2', 'q3', 'q4'].map((sql) => pool.query({ dataset: 'sales', sql }));
    await flush();
    expect(workers).toHaveLength(1);
    await answerInTurn(workers[0], ['q2', 'q3', 'q4'], 3);
    await Promise.all(burst);
    expect(workers).toHaveLength(2);
    expect(workers[1].pending()).toEqual(['load:sales']);
    workers[1].answer();
    await flush();
    const next = ['q5', 'q6'].map((sql) => pool.query({ dataset: 'sales', sql }));
    await flush();
    expect(workers.map((worker) => worker.pending())).toEqual([['query:q5'], ['query:q6']]);
    workers[0].answer();
    workers[1].answer();
    await Promise.all(next);
  });

  test('on 2 cores a second worker never starts while the first is still starting', async () => {
    const { pool, workers } = setup(2);
    pool.setDataset('other', 'v1', bytes(5));
    const sales = pool.query({ dataset: 'sales', sql: 'S' });
    const other = pool.query({ dataset: 'other', sql: 'O' });
    await flush();
    expect(workers).toHaveLength(1);
    expect(workers[0].pending()).toEqual(['load:sales']);
    for (const next of ['query:S', 'load:other', 'query:O']) {
      workers[0].answer();
      await flush();
      expect(workers[0].pending()).toEqual([next]);
    }
    workers[0].answer();
    await Promise.all([sales, other]);
    expect(workers).toHaveLength(1);
  });

  test('a query runs on the first holder to be free, not on a worker still loading its copy', async () => {
    const { pool, workers } = setup(2, { parallelStarts: true });
    const answers = await burstIntoTwo(pool, workers);
    workers[0].answer();
    await flush();
    // The second worker's copy is still loading: the first worker answers every query meanwhile.
    await answerInTurn(workers[0], ['q1', 'q2', 'q3']);
    await Promise.all(answers);
    expect(workers[1].pending()).toEqual(['load:sales']);
  });

  test('a query asked before its dataset changed runs once the new version is loaded', async () => {
    const { pool, workers } = setup(1);
    const first = pool.query({ dataset: 'sales', sql: 'Q1' });
    await flush();
    workers[0].answer(); // load v1
    await flush();
    const waiting = pool.query({ dataset: 'sales', sql: 'Q2', priority: 'lookup' });
    pool.setDataset('sales', 'v2', bytes(4));
    const current = pool.query({ dataset: 'sales', sql: 'Q3' });
    workers[0].answer(); // Q1
    await first;
    await flush();
    expect(workers[0].pending()).toEqual(['load:sales']);
    workers[0].answer(); // load v2
    for (let round = 0; round < 2; round++) {
      await flush();
      workers[0].answer();
    }
    await Promise.all([waiting, current]);
    expect(workers[0].pending()).toEqual([]);
  });

  test('a dataset given as a reader is read once, when the first worker loads it', async () => {
    const { pool, workers } = setup(2, { parallelStarts: true });
    let reads = 0;
    pool.setDataset('kept', 'v1', async () => {
      reads += 1;
      return bytes(4);
    });
    expect(reads).toBe(0);
    pool.warm(2);
    const answers = ['k1', 'k2', 'k3'].map((sql) => pool.query({ dataset: 'kept', sql }));
    await flush();
    expect(workers.map((worker) => worker.pending())).toEqual([['load:kept'], ['load:kept']]);
    for (let round = 0; round < 3; round++) {
      answerEach(workers);
      await flush();
    }
    await Promise.all(answers);
    expect(reads).toBe(1);
  });

  test('a downloaded dataset goes into an open idle worker at once, a kept copy once the page is idle', async () => {
    const idle: (() => void)[] = [];
    globalThis.requestIdleCallback = (callback: IdleRequestCallback) =>
      idle.push(() => callback({ didTimeout: false, timeRemaining: () => 50 }));
    try {
      // The report's widgets will ask for it: it does not wait for them, nor for the page to be idle.
      const { pool, workers } = setup(1);
      pool.warm(1);
      await flush();
      expect(workers[0].pending()).toEqual(['load:sales']);
      workers[0].answer();
      await flush();
      // A reload's kept copy may not be needed (its answers are kept): the page draws them first.
      pool.setDataset('kept', 'v1', async () => bytes(4));
      await flush();
      expect(workers[0].pending()).toEqual([]);
      for (const callback of idle.splice(0)) callback();
      await flush();
      expect(workers[0].pending()).toEqual(['load:kept']);
    } finally {
      delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
    }
  });

  test('a worker opened with nothing to do warms up; one started for a query, with its load to do, does not', async () => {
    const idle: (() => void)[] = [];
    globalThis.requestIdleCallback = (callback: IdleRequestCallback) =>
      idle.push(() => callback({ didTimeout: false, timeRemaining: () => 50 }));
    try {
      const warmed = setup(1, { empty: true });
      // A kept copy waits for the page to be idle (never, here): the warmed worker has nothing to do.
      warmed.pool.setDataset('kept', 'v1', async () => bytes(10));
      warmed.pool.warm(1);
      await flush();
      expect(warmed.workers[0].pending()).toEqual([]);
      expect(warmed.workers[0].warmUps).toBe(1);

      const asked = setup(1);
      const answer = asked.pool.query({ dataset: 'sales', sql: 'SELECT 1' });
      await flush();
      expect(asked.workers[0].pending()).toEqual(['load:sales']);
      asked.workers[0].answer();
      await flush();
      asked.workers[0].answer();
      await answer;
      expect(asked.workers[0].warmUps).toBe(0);
    } finally {
      delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
    }
  });

  test('warmed workers start before any query, never beyond the pool size, and take a copy when a burst arrives', async () => {
    const { pool, workers } = setup(2, { parallelStarts: true });
    pool.warm(2);
    pool.warm(5);
    expect(workers).toHaveLength(2);
    expect(workers.map((worker) => worker.pending())).toEqual([[], []]);

    const answers = ['q1', 'q2', 'q3'].map((sql) => pool.query({ dataset: 'sales', sql }));
    await flush();
    // The first query loads the dataset into one worker; two more waiting copy it into the warmed second one.
    expect(workers.map((worker) => worker.pending())).toEqual([['load:sales'], ['load:sales']]);
    expect(workers).toHaveLength(2);
    workers[0].answer();
    workers[1].answer();
    await flush();
    // The first worker's copy was in first: q2 waits there behind q1, and the second runs q3.
    expect(workers.map((worker) => worker.pending())).toEqual([['query:q1', 'query:q2'], ['query:q3']]);
    workers[0].answer();
    workers[1].answer();
    await flush();
    workers[0].answer();
    await Promise.all(answers);
    expect(pool.stats().executions).toBe(3);
  });

  test("once every worker of a full pool holds a file the browser keeps, the page's copy goes; a replacement reads it again", async () => {
    // The pool's own clock: whether the second burst is worth a copy is decided by the times measured in the first
    // (loads 0 ms, queries 10 ms here), never by how busy the machine running the test is.
    let time = 0;
    const { pool, workers } = setup(2, { parallelStarts: true, empty: true, clock: () => time });
    const reread = jest.fn(async () => bytes(10));
    pool.setDataset('sales', 'v1', bytes(10), 'arrow', reread);
    const answers = await burstIntoTwo(pool, workers);
    answerEach(workers); // the loads
    await flush();
    time = 10;
    await answerAll(workers);
    await Promise.all(answers);
    expect(reread).not.toHaveBeenCalled();

    // A worker ends (a crash): the one replacing it has the file read again, once.
    workers[1].exit?.('crashed');
    pool.warm(2);
    expect(workers).toHaveLength(3);
    const burst = ['q4', 'q5', 'q6'].map((sql) => pool.query({ dataset: 'sales', sql }));
    await flush();
    expect(workers[2].pending()).toEqual(['load:sales']);
    expect(reread).toHaveBeenCalledTimes(1);
    await answerAll(workers);
    await Promise.all(burst);
    expect(reread).toHaveBeenCalledTimes(1);
  });

  test("a pool that is not full keeps the page's copy for the worker a burst may start", async () => {
    const { pool, workers } = setup(2, { empty: true });
    const reread = jest.fn(async () => bytes(10));
    pool.setDataset('sales', 'v1', bytes(10), 'arrow', reread);
    const first = pool.query({ dataset: 'sales', sql: 'q1' });
    await flush();
    workers[0].answer();
    await flush();
    workers[0].answer();
    await first;
    // The only worker ends: the next one loads from the page's copy.
    workers[0].exit?.('crashed');
    const next = pool.query({ dataset: 'sales', sql: 'q2' });
    await flush();
    expect(workers[1].pending()).toEqual(['load:sales']);
    workers[1].answer();
    await flush();
    workers[1].answer();
    await next;
    expect(reread).not.toHaveBeenCalled();
  });
});
