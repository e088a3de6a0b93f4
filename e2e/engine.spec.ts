import fs from 'node:fs';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import webpack from 'webpack';
import { engineHarnessConfig } from '../bench/engine.webpack.config';
import { type PoolHarness } from '../bench/harness/pool';

/**
 * The query pool in real Chromium: the production pool and DuckDB worker, built with the app's webpack rules into
 * the engine harness (bench/engine.webpack.config.ts) and served by a static server of this spec. The app's build
 * does not contain the harness page, so the pool is driven from here rather than through the app's UI, which
 * cannot kill a worker or count executions.
 */

// Many seconds of work in one DuckDB-WASM thread: long enough to act while it runs.
const SLOW = 'SELECT COUNT(DISTINCT hash(i) % 1000003)::INTEGER AS n FROM range(25000000) t(i)';
// Hours of work: it ends only if cancelled.
const ENDLESS = 'SELECT COUNT(*)::INTEGER AS n FROM range(100000000) a, range(100000) b WHERE a.range + b.range > 0';

let outDir: string;
let server: http.Server;
let harnessUrl: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-engine-harness-'));
  await new Promise<void>((resolve, reject) =>
    webpack(engineHarnessConfig(outDir), (error, stats) => {
      if (error || !stats) return reject(error ?? new Error('webpack gave no stats'));
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve();
    }),
  );
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  server = http.createServer((request, response) => {
    const file = path.join(outDir, path.normalize(new URL(request.url ?? '/', 'http://localhost').pathname));
    if (!file.startsWith(outDir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  harnessUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pool.html`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

/** Opens the harness with a fresh pool of `size` workers and the dataset `numbers` (n = 1..1000). */
async function openPool(page: Page, size: number, hangMs = 120_000): Promise<void> {
  await page.goto(harnessUrl);
  await expect(page).toHaveTitle('pool harness ready');
  await page.evaluate(
    ([size, hangMs]) => {
      const harness = (window as unknown as { poolHarness: PoolHarness }).poolHarness;
      harness.start(size, hangMs);
      harness.setDataset('numbers', 'v1', 1000);
    },
    [size, hangMs],
  );
}

const send = (page: Page, name: string, request: { dataset?: string; sql: string; supersedeKey?: string }) =>
  page.evaluate(
    ([name, request]) => (window as unknown as { poolHarness: PoolHarness }).poolHarness.send(name, request),
    [name, request] as const,
  );
const outcome = (page: Page, name: string) =>
  page.evaluate((name) => (window as unknown as { poolHarness: PoolHarness }).poolHarness.outcome(name), name);
const stats = (page: Page) =>
  page.evaluate(() => (window as unknown as { poolHarness: PoolHarness }).poolHarness.stats());
const workerStats = (page: Page) =>
  page.evaluate(() => (window as unknown as { poolHarness: PoolHarness }).poolHarness.workerStats());

test('affinity: a second query on a loaded dataset goes to the worker holding it', async ({ page }) => {
  await openPool(page, 2);
  await send(page, 'sum', { dataset: 'numbers', sql: 'SELECT SUM(n)::INTEGER AS n FROM numbers' });
  expect(await outcome(page, 'sum')).toMatchObject({ ok: true, values: [500500] });
  await send(page, 'count', { dataset: 'numbers', sql: 'SELECT COUNT(*)::INTEGER AS n FROM numbers WHERE n > 900' });
  expect(await outcome(page, 'count')).toMatchObject({ ok: true, values: [100] });
  const workers = await workerStats(page);
  expect(workers).toHaveLength(1);
  expect(workers[0]).toMatchObject({ tables: [{ table: 'numbers', version: 'v1', rows: 1000 }], queries: 2 });
  expect(await stats(page)).toMatchObject({ workers: 1, executions: 2 });
});

test('identical queries in flight share one execution', async ({ page }) => {
  await openPool(page, 2);
  for (const name of ['a', 'b', 'c']) await send(page, name, { dataset: 'numbers', sql: SLOW });
  const results = await Promise.all(['a', 'b', 'c'].map((name) => outcome(page, name)));
  expect(results.every((result) => result.ok)).toBe(true);
  expect(new Set(results.map((result) => (result.ok ? result.values[0] : undefined))).size).toBe(1);
  expect(await stats(page)).toMatchObject({ executions: 1, sharedHits: 2 });
  expect((await workerStats(page)).reduce((sum, worker) => sum + worker.queries, 0)).toBe(1);
});

test('a superseded running query is cancelled in its worker, which answers the current one', async ({ page }) => {
  await openPool(page, 1);
  await send(page, 'old', { dataset: 'numbers', sql: ENDLESS, supersedeKey: 'widget' });
  await expect.poll(async () => (await stats(page)).executions).toBe(1);
  await page.waitForTimeout(500);
  await send(page, 'current', { dataset: 'numbers', sql: 'SELECT MAX(n) AS n FROM numbers', supersedeKey: 'widget' });
  expect(await outcome(page, 'old')).toMatchObject({
    ok: false,
    error: { name: 'AbortError', message: 'Query superseded' },
  });
  const current = await outcome(page, 'current');
  expect(current).toMatchObject({ ok: true, values: [1000] });
  // Cancelled rather than waited for: the endless statement would never have let the worker go.
  expect(current.ms).toBeLessThan(5_000);
  expect(await stats(page)).toMatchObject({ workers: 1, replacedWorkers: 0, executions: 2 });
});

test('a worker terminated mid-query is replaced and the query answered', async ({ page }) => {
  await openPool(page, 1, 15_000);
  await send(page, 'slow', { dataset: 'numbers', sql: SLOW });
  await expect.poll(async () => (await stats(page)).executions).toBe(1);
  // Long enough (seconds, even on an idle machine) that the kill lands while it runs.
  expect((await stats(page)).running).toBe(1);
  await page.evaluate(() => (window as unknown as { poolHarness: PoolHarness }).poolHarness.kill(0));
  const result = await outcome(page, 'slow');
  expect(result.ok && result.values[0]).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { poolHarness: PoolHarness }).poolHarness.spawned())).toBe(2);
  expect(await stats(page)).toMatchObject({ workers: 1, replacedWorkers: 1, retries: 1 });
});
