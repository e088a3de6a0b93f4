/** @jest-environment ./test/nodeEnvironment.js */
import { memoryCacheStorage } from '../../test/memoryCacheStorage';
import { memoryStorage } from '../../test/memoryStorage';
import {
  ANSWERS_KEPT_AT_KEY,
  KEPT_RESULT_MAX_BYTES,
  type KeptResults,
  MAX_PAGES_NOTED,
  answersKeptFor,
  cacheStorageKeptResults,
  noteAnswersKept,
} from './keptResults';
import { createPool } from './pool';
import { type EngineWorkerApi, NOT_KEPT_ERROR } from './protocol';
import { resultKey } from './resultCache';

const HOUR = 3_600_000;

describe('answers kept between visits', () => {
  const key = resultKey('sales', 'v1', 'SELECT 1');

  test('an answer comes back while fresh, not after, and not for another version of its dataset', async () => {
    let clock = 0;
    const kept = cacheStorageKeptResults(memoryCacheStorage(), { freshMs: HOUR, now: () => clock });
    await kept.put(key, new Uint8Array([1, 2, 3]));
    expect(await kept.get(key)).toEqual(new Uint8Array([1, 2, 3]));
    expect(await kept.get(resultKey('sales', 'v2', 'SELECT 1'))).toBeUndefined();
    clock = HOUR;
    expect(await kept.get(key)).toBeUndefined();
  });

  test('large answers are not kept; pruning drops the stale ones and the oldest beyond the budget', async () => {
    let clock = 0;
    const kept = cacheStorageKeptResults(memoryCacheStorage(), { freshMs: 10 * HOUR, maxBytes: 250, now: () => clock });
    await kept.put('too large', new Uint8Array(KEPT_RESULT_MAX_BYTES + 1));
    expect(await kept.get('too large')).toBeUndefined();
    for (const name of ['stale', 'oldest', 'older', 'newest']) {
      await kept.put(name, new Uint8Array(100));
      clock += name === 'stale' ? 9 * HOUR : HOUR / 10;
    }
    clock = 10 * HOUR + 1;
    await kept.prune();
    const left = await Promise.all(
      ['stale', 'oldest', 'older', 'newest'].map(async (name) => !!(await kept.get(name))),
    );
    expect(left).toEqual([false, false, true, true]);
  });
});

describe('pages whose answers were kept', () => {
  const page = '/workspaces/3/reports/dashboard/12';

  test('a page is noted while its answers are fresh, and only that page', () => {
    const storage = memoryStorage();
    expect(answersKeptFor(storage, page)).toBe(false);
    noteAnswersKept(storage, page, 1_000);
    expect(answersKeptFor(storage, page, { now: 1_000 + HOUR - 1, freshMs: HOUR })).toBe(true);
    expect(answersKeptFor(storage, page, { now: 1_000 + HOUR, freshMs: HOUR })).toBe(false);
    expect(answersKeptFor(storage, '/workspaces/3/reports/dashboard/13', { now: 1_000, freshMs: HOUR })).toBe(false);
    // A clock set back (or a note from the future) is no reason to wait.
    expect(answersKeptFor(storage, page, { now: 999, freshMs: HOUR })).toBe(false);
  });

  test('the notes stay few, the longest unused go first, and what is unreadable counts as nothing noted', () => {
    const storage = memoryStorage();
    for (let n = 0; n <= MAX_PAGES_NOTED; n++) noteAnswersKept(storage, `/page/${n}`, n);
    const noted = JSON.parse(storage.getItem(ANSWERS_KEPT_AT_KEY) ?? '{}') as Record<string, number>;
    expect(Object.keys(noted)).toHaveLength(MAX_PAGES_NOTED);
    expect(noted['/page/0']).toBeUndefined();
    expect(noted[`/page/${MAX_PAGES_NOTED}`]).toBe(MAX_PAGES_NOTED);
    storage.setItem(ANSWERS_KEPT_AT_KEY, '{broken');
    expect(answersKeptFor(storage, '/page/1', { now: 1 })).toBe(false);
    noteAnswersKept(storage, page, 5);
    expect(answersKeptFor(storage, page, { now: 5 })).toBe(true);
  });
});

/**
 * A worker that answers at once, or when `hold` lets a query go: loads succeed, each query's answer is its SQL's
 * bytes. Counts what it ran and what was cancelled. The dataset `sales` is registered at `version`, unless null.
 */
function visit(kept: KeptResults, version: string | null, hold?: (sql: string) => Promise<void> | undefined, size = 1) {
  const ran: string[] = [];
  const cancelled: string[] = [];
  const pool = createPool({
    size,
    kept,
    spawn: () => {
      const api: EngineWorkerApi = {
        version: async () => 'v-test',
        warmUp: async () => undefined,
        load: async () => ({ rows: 1, wasmHeapBytes: 0 }),
        query: async (sql, runId) => {
          ran.push(sql);
          await hold?.(sql);
          if (runId && cancelled.includes(runId)) throw new Error('cancelled');
          return new TextEncoder().encode(sql);
        },
        cancel: async (runId) => {
          cancelled.push(runId);
          return true;
        },
        stats: async () => ({ tables: [], wasmHeapBytes: 0, duckdbMemoryBytes: 0, queries: 0 }),
      };
      return { api, terminate: () => undefined, onExit: () => undefined };
    },
  });
  if (version !== null) pool.setDataset('sales', version, new Uint8Array(10));
  return { pool, ran, cancelled };
}

/** A promise and its resolve, for letting a held step go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('the pool with kept answers', () => {
  test('a reload answers the same queries over the same dataset version without starting a worker', async () => {
    const kept = cacheStorageKeptResults(memoryCacheStorage());
    const first = visit(kept, 'v1');
    expect(text(await first.pool.query({ dataset: 'sales', sql: 'SELECT 1' }))).toBe('SELECT 1');
    expect(first.ran).toEqual(['SELECT 1']);
    // Kept in the background once the worker answered.
    for (let n = 0; n < 100 && !(await kept.get(resultKey('sales', 'v1', 'SELECT 1'))); n++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }

    const reload = visit(kept, 'v1');
    expect(text(await reload.pool.query({ dataset: 'sales', sql: 'SELECT 1' }))).toBe('SELECT 1');
    expect(reload.ran).toEqual([]);
    expect(reload.pool.stats()).toMatchObject({ workers: 0, keptHits: 1, cacheHits: 1, executions: 0 });

    // A new version of the dataset (the server's file changed): the query runs again.
    const changed = visit(kept, 'v2');
    expect(text(await changed.pool.query({ dataset: 'sales', sql: 'SELECT 1' }))).toBe('SELECT 1');
    expect(changed.ran).toEqual(['SELECT 1']);
    expect(changed.pool.stats().keptHits).toBe(0);
  });

  test('a query superseded while its kept answer is read gives way to the later one', async () => {
    const kept = cacheStorageKeptResults(memoryCacheStorage());
    await kept.put(resultKey('sales', 'v1', 'SELECT 1'), new TextEncoder().encode('SELECT 1'));
    const { pool, ran } = visit(kept, 'v1');
    const older = pool.query({ dataset: 'sales', sql: 'SELECT 1', supersedeKey: 'widget' });
    const newer = pool.query({ dataset: 'sales', sql: 'SELECT 2', supersedeKey: 'widget' });
    await expect(older).rejects.toMatchObject({ name: 'AbortError' });
    expect(text(await newer)).toBe('SELECT 2');
    expect(ran).toEqual(['SELECT 2']);
  });

  test('once a worker holds a dataset, a query runs without waiting for its kept answer, and the first wins', async () => {
    const storage = cacheStorageKeptResults(memoryCacheStorage());
    await storage.put(resultKey('sales', 'v1', 'SELECT 3'), new TextEncoder().encode('kept SELECT 3'));
    const lookup = gate();
    // Kept answers that arrive only when the test lets them.
    const kept: KeptResults = { ...storage, get: async (key) => (await lookup.opened, storage.get(key)) };
    const slowRun = gate();
    const { pool, ran, cancelled } = visit(kept, 'v1', (sql) => (sql === 'SELECT 3' ? slowRun.opened : undefined));

    // The first query waits for its kept answer (none): no worker holds the dataset yet.
    const first = pool.query({ dataset: 'sales', sql: 'SELECT 1' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran).toEqual([]);
    lookup.open();
    expect(text(await first)).toBe('SELECT 1');

    // Now a worker holds the dataset: a query with no kept answer runs at once and answers from the worker.
    const held = gate();
    const lookups = kept.get;
    kept.get = async (key) => (await held.opened, lookups(key));
    const second = pool.query({ dataset: 'sales', sql: 'SELECT 2' });
    expect(text(await second)).toBe('SELECT 2');
    expect(ran).toEqual(['SELECT 1', 'SELECT 2']);
    held.open();

    // A kept answer that comes before the worker's is the answer, and the run is called off.
    const third = pool.query({ dataset: 'sales', sql: 'SELECT 3' });
    expect(text(await third)).toBe('kept SELECT 3');
    expect(ran).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3']);
    expect(cancelled).toHaveLength(1);
    expect(pool.stats().keptHits).toBe(1);
    slowRun.open();

    // A query called off before it is asked for is refused, and never runs.
    const calledOff = new AbortController();
    calledOff.abort();
    await expect(pool.query({ dataset: 'sales', sql: 'SELECT 4', signal: calledOff.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(ran).not.toContain('SELECT 4');
  });

  describe('a reload whose engine waits for the kept answers', () => {
    /** Idle callbacks held until the test runs them, as a busy page would. */
    let idle: (() => void)[] = [];
    const holdIdleCallbacks = () => {
      globalThis.requestIdleCallback = (callback: IdleRequestCallback) =>
        idle.push(() => callback({ didTimeout: false, timeRemaining: () => 10 })) as unknown as number;
    };
    afterEach(() => {
      idle = [];
      delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
    });

    test('draws a kept answer without a worker, and starts its workers once the page is idle', async () => {
      const kept = cacheStorageKeptResults(memoryCacheStorage());
      await kept.put(resultKey('sales', 'v1', 'SELECT 1'), new TextEncoder().encode('SELECT 1'));
      holdIdleCallbacks();
      const { pool, ran } = visit(kept, 'v1', undefined, 2);
      pool.warmAfterKept(2);
      expect(pool.stats().workers).toBe(0);
      expect(text(await pool.query({ dataset: 'sales', sql: 'SELECT 1' }))).toBe('SELECT 1');
      expect(pool.stats().workers).toBe(0);
      idle.splice(0).forEach((run) => run());
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(pool.stats().workers).toBe(2);
      // Ready for what comes next (a date change): it runs in a worker.
      expect(text(await pool.query({ dataset: 'sales', sql: 'SELECT 2' }))).toBe('SELECT 2');
      expect(ran).toEqual(['SELECT 2']);
    });

    test('starts them at once when a dataset was downloaded anew: no kept answer can be for it', () => {
      holdIdleCallbacks();
      const { pool } = visit(cacheStorageKeptResults(memoryCacheStorage()), 'v1', undefined, 2);
      pool.warmAfterKept(2);
      pool.setDataset('sales', 'v2', async () => new Uint8Array(10));
      expect(pool.stats().workers).toBe(0);
      pool.setDataset('sales', 'v3', new Uint8Array(10));
      expect(pool.stats().workers).toBe(2);
    });

    test('starts them at once when a new file is on its way, before it has arrived', () => {
      holdIdleCallbacks();
      const { pool } = visit(cacheStorageKeptResults(memoryCacheStorage()), 'v1', undefined, 2);
      pool.warmNow();
      // Nothing was put off: nothing starts.
      expect(pool.stats().workers).toBe(0);
      pool.warmAfterKept(2);
      expect(pool.stats().workers).toBe(0);
      pool.warmNow();
      expect(pool.stats().workers).toBe(2);
    });

    test("answers for an earlier visit's version before the server confirms it, from its kept answers only", async () => {
      const kept = cacheStorageKeptResults(memoryCacheStorage());
      await kept.put(resultKey('sales', 'v1', 'SELECT 1'), new TextEncoder().encode('SELECT 1'));
      holdIdleCallbacks();
      // The page knows the dataset's last version (keptDatasets.ts); the server has not answered about it yet.
      const { pool, ran } = visit(kept, null, undefined, 2);
      pool.warmAfterKept(2);
      expect(text(await pool.query({ dataset: 'sales', sql: 'SELECT 1', keptVersion: 'v1' }))).toBe('SELECT 1');
      expect(pool.stats()).toMatchObject({ workers: 0, keptHits: 1 });
      // Another version's answer is not this one's.
      await expect(pool.query({ dataset: 'sales', sql: 'SELECT 1', keptVersion: 'v0' })).rejects.toMatchObject({
        name: NOT_KEPT_ERROR,
      });
      // Nothing kept: the caller waits for the dataset, which the engine, started now, will need.
      await expect(pool.query({ dataset: 'sales', sql: 'SELECT 2', keptVersion: 'v1' })).rejects.toMatchObject({
        name: NOT_KEPT_ERROR,
      });
      expect(pool.stats().workers).toBe(2);
      expect(ran).toEqual([]);
      // Another workspace's table of the same name in the pool answers nothing for it.
      pool.setDataset('sales', 'other', new Uint8Array(10));
      await expect(pool.query({ dataset: 'sales', sql: 'SELECT 2', keptVersion: 'v1' })).rejects.toMatchObject({
        name: NOT_KEPT_ERROR,
      });
      expect(ran).toEqual([]);
      // Once the server confirmed it, the query runs.
      pool.setDataset('sales', 'v1', async () => new Uint8Array(10));
      expect(text(await pool.query({ dataset: 'sales', sql: 'SELECT 2', keptVersion: 'v1' }))).toBe('SELECT 2');
      expect(ran).toEqual(['SELECT 2']);
    });

    test('starts them at once when a query finds no kept answer', async () => {
      holdIdleCallbacks();
      const { pool, ran } = visit(cacheStorageKeptResults(memoryCacheStorage()), 'v1', undefined, 2);
      pool.warmAfterKept(2);
      // Answered by a worker although the page was never idle (its idle callbacks are held): the query started it,
      // and with it every worker asked for.
      expect(text(await pool.query({ dataset: 'sales', sql: 'SELECT 1' }))).toBe('SELECT 1');
      expect(ran).toEqual(['SELECT 1']);
      expect(pool.stats().workers).toBe(2);
    });
  });
});
