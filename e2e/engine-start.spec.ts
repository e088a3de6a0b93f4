import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { DATASET_CACHE_NAME } from '../src/features/datasets/datasetCache';
import { COMPILER_THREAD } from '../src/workers/duckdbModule';
import { RESULTS_CACHE_NAME } from '../src/workers/keptResults';
import { ENGINE_QUERY_MEASURE } from '../src/workers/scheduler';
import { ENGINE_START_MEASURE, WORKER_REQUEST_MEASURE, WORKER_SPAN_PREFIX, workerSpans } from '../src/workers/timeline';
import { createReport, openAcme } from './support';

/**
 * Opening a dashboard starts the engine at once and a reload reuses the DuckDB module and the dataset kept from the
 * first open (a 304, no download): measured in an on-disk browser profile, as a user's browser keeps its caches (an
 * in-memory context would say little about caching). Not timed: the order of requests and where each response came
 * from are what is checked.
 */

interface Seen {
  url: string;
  /** Epoch ms when the request started and when its response ended. */
  start: number;
  end: number;
  status: number;
}

/** The .wasm and dataset requests of the context, workers' included, with their timing and status. */
function watchRequests(context: BrowserContext): Seen[] {
  const seen: Seen[] = [];
  context.on('requestfinished', async (request) => {
    const url = request.url();
    // A dashboard in view mode asks for its columns and days only, as a DuckDB file
    // (?columns=…&format=duckdb&since=…).
    if (!url.endsWith('.wasm') && !/\/datasets\/[^/?]+(\?columns=[^&]*&format=duckdb(&since=[\d-]+)?)?$/.test(url))
      return;
    const timing = request.timing();
    const status = (await request.response())?.status() ?? 0;
    seen.push({ url, start: timing.startTime, end: timing.startTime + timing.responseEnd, status });
  });
  return seen;
}

/**
 * What the page's compiling worker downloaded of DuckDB's module (it downloads and compiles it itself), from the
 * worker's own resource timing, which the page keeps once the module has arrived: the bytes of each response that came
 * over the network (none from the HTTP cache).
 */
async function moduleTransfers(page: Page): Promise<number[]> {
  return page.evaluate(
    ({ name, thread }) =>
      (performance.getEntriesByName(name) as PerformanceMeasure[])
        .map((entry) => entry.detail as { thread: string; url: string; transferSize: number })
        .filter((detail) => detail.thread === thread && detail.url.endsWith('.wasm'))
        .map((detail) => detail.transferSize),
    { name: WORKER_REQUEST_MEASURE, thread: COMPILER_THREAD },
  );
}

/** The page's workers that are the compiling worker. */
const compilers = (page: Page) => page.workers().filter((worker) => worker.url().includes(`/${COMPILER_THREAD}.`));

/** Waits until every widget shows its numbers; answers each card's text. */
async function widgetNumbers(page: Page, count: number): Promise<string[]> {
  const cards = page.locator('[data-widget-id]');
  await expect(cards).toHaveCount(count, { timeout: 120_000 });
  await expect(page.locator('[data-widget-id] [aria-busy="true"]')).toHaveCount(0, { timeout: 120_000 });
  await expect(page.locator('[data-widget-id] .or-kpi-value').first()).toBeVisible();
  await expect(page.locator('[data-widget-id] [role="alert"]')).toHaveCount(0);
  return cards.allInnerTexts();
}

/** Creates a grid dashboard of `widgets` (no comparison period) through the API; answers its path. */
async function createDashboard(page: Page, workspaceId: number, name: string, widgets: object[]): Promise<string> {
  const config = { flags: ['grid_layout'], widgets, dateRanges: { compare: { preset: 'disabled' } } };
  return (await createReport(page, workspaceId, 'dashboard', `${name} ${Date.now().toString(36)}`, config)).path;
}

test('the engine starts with the dashboard; a warm reload draws kept answers before the server confirms its dataset and before it starts the engine, downloads neither the DuckDB module nor the data, and runs no query', async ({
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(300_000);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-profile-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    // Watched from the first page on: the reports home may already start the engine before the dashboard opens.
    const requests = watchRequests(context);
    const workspaceId = await openAcme(page);

    const dataset = 'campaign_metrics_by_send_date';
    const widgets = [
      {
        id: 'sent',
        type: 'campaign_performance',
        title: 'Sent',
        dataset,
        metrics: ['sent'],
        visualizationSettings: { display: { type: 'card' } },
        layout: { x: 0, y: 0, w: 8, h: 8 },
      },
      {
        id: 'countries',
        type: 'table',
        title: 'By country',
        dataset,
        dimensions: ['country'],
        metrics: ['sent', 'revenue'],
        layout: { x: 8, y: 0, w: 16, h: 16 },
      },
    ];
    const url = await createDashboard(page, workspaceId, 'Engine start', widgets);

    // Cold: nothing of the engine was in the profile before this sign-in.
    await page.goto(url);
    const cold = await widgetNumbers(page, widgets.length);
    const wasm = requests.filter((request) => request.url.endsWith('.wasm'));
    const download = requests.find((request) => new URL(request.url).pathname.endsWith(`/datasets/${dataset}`));
    expect(wasm.length).toBeGreaterThan(0);
    expect(download).toBeDefined();
    // The engine does not wait for the data: its module is on the way before the dataset has arrived.
    expect(wasm[0].start).toBeLessThan(download!.end);
    expect(download!.status).toBe(200);
    // The profile's first copy (the reports home may have asked for it before the dashboard) was a whole answer.
    expect(wasm[0].status).toBe(200);
    // It was downloaded and compiled in a worker of its own, not on the page's thread
    // (src/workers/duckdbCompile.worker.ts), which ends once the page holds the module and is idle: a settled tab
    // keeps no compiler. Its compilation is in the page's timeline, named by its thread.
    await expect.poll(() => compilers(page).length, { timeout: 30_000 }).toBe(0);
    const compilations = await page.evaluate(
      (span) =>
        performance
          .getEntriesByName(span)
          .map((entry) => ((entry as PerformanceMeasure).detail as { thread?: string } | null)?.thread),
      `${WORKER_SPAN_PREFIX}${workerSpans.compile}`,
    );
    expect(compilations).toEqual([COMPILER_THREAD]);

    // A user reopening the dashboard finds every file of the cold open kept. Kept copies are written as each download
    // streams in and finish just after it; a reload in the same instant (only a test is that fast) would download again.
    const coldDatasets = requests.filter((request) => request.url.includes('/datasets/')).map((request) => request.url);
    await expect
      .poll(
        () =>
          page.evaluate(async (cacheName) => {
            const cache = await caches.open(cacheName);
            return (await cache.keys()).map((request) => request.url);
          }, DATASET_CACHE_NAME),
        { timeout: 30_000 },
      )
      .toEqual(expect.arrayContaining(coldDatasets));

    // And the engine's answers: as many kept as the cold open ran.
    const coldQueries = await page.evaluate((name) => performance.getEntriesByName(name).length, ENGINE_QUERY_MEASURE);
    expect(coldQueries).toBeGreaterThan(0);
    await expect
      .poll(
        () =>
          page.evaluate(async (cacheName) => (await (await caches.open(cacheName)).keys()).length, RESULTS_CACHE_NAME),
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(coldQueries);

    // Warm: the same tab reloaded. When its first number is drawn, on the page's clock.
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (!document.querySelector('[data-widget-id] .or-kpi-value')) return;
        (window as { numbersDrawnAt?: number }).numbersDrawnAt = performance.now();
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    const seenBeforeReload = requests.length;
    const warmWasm = () => requests.slice(seenBeforeReload).filter((request) => request.url.endsWith('.wasm'));
    // The server answers about the dataset (its schema, then the file's 304) only once every number is drawn: the
    // reload starts from the last visit's schema and version (src/features/datasets/keptDatasets.ts).
    // Held with the DevTools protocol: Playwright's routing would turn the HTTP cache off, and the module with it.
    let numbersDrawn!: () => void;
    const drawn = new Promise<void>((resolve) => (numbersDrawn = resolve));
    const devtools = await context.newCDPSession(page);
    devtools.on('Fetch.requestPaused', ({ requestId }) => {
      void drawn.then(() => devtools.send('Fetch.continueRequest', { requestId }).catch(() => undefined));
    });
    await devtools.send('Fetch.enable', {
      patterns: [{ urlPattern: '*/datasets/*?schema=true', requestStage: 'Request' }],
    });
    await page.reload();
    const warm = await widgetNumbers(page, widgets.length);
    numbersDrawn();
    // The engine waited for the kept answers to be drawn: its module was asked for, and its worker started, after
    // them (src/app/main.tsx), yet it did start, ready for what the user does next.
    await expect
      .poll(() => page.evaluate((name) => performance.getEntriesByName(name).length, ENGINE_START_MEASURE), {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    await expect.poll(() => warmWasm().length, { timeout: 60_000 }).toBeGreaterThan(0);
    // On the wall clock: the module's request comes from the compiling worker, whose clock is not the page's.
    const order = await page.evaluate(
      (name) => ({
        numbers: performance.timeOrigin + ((window as { numbersDrawnAt?: number }).numbersDrawnAt ?? NaN),
        worker: performance.timeOrigin + performance.getEntriesByName(name)[0].startTime,
      }),
      ENGINE_START_MEASURE,
    );
    expect(warmWasm()[0].start).toBeGreaterThan(order.numbers);
    expect(order.worker).toBeGreaterThan(order.numbers);
    // No dataset download: the browser asks whether its kept copy is current, and the server says 304.
    const warmDatasets = () => requests.slice(seenBeforeReload).filter((request) => request.url.includes('/datasets/'));
    await expect.poll(() => warmDatasets().length).toBeGreaterThan(0);
    const statuses = () => warmDatasets().map((request) => `${request.status} ${request.url}`);
    expect(statuses()).toEqual(warmDatasets().map((request) => `304 ${request.url}`));
    // Nor of the module: it came from the HTTP cache (a 304 at most), not over the network.
    for (const response of warmWasm()) expect([200, 304]).toContain(response.status);
    await expect.poll(() => moduleTransfers(page)).toEqual([expect.any(Number)]);
    expect((await moduleTransfers(page))[0]).toBeLessThan(2_000);
    // The same numbers as the cold open, every one of them a kept answer: the reload ran no query.
    expect(warm).toEqual(cold);
    expect(await page.evaluate((name) => performance.getEntriesByName(name).length, ENGINE_QUERY_MEASURE)).toBe(0);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('widgets paint one by one: the first shows its numbers before the last query has finished', async ({ page }) => {
  test.setTimeout(300_000);
  const workspaceId = await openAcme(page);
  const dataset = 'campaign_metrics_by_send_date';
  const metrics = ['sent', 'delivered', 'open', 'clicks', 'revenue', 'unsubscribes'];
  const dimensions = ['country', 'campaign_name', 'campaign_type'];
  const widgets = [
    ...metrics.map((metric, index) => ({
      id: `card-${metric}`,
      type: 'campaign_performance',
      title: metric,
      dataset,
      metrics: [metric],
      visualizationSettings: { display: { type: 'card' } },
      layout: { x: (index % 3) * 8, y: Math.floor(index / 3) * 6, w: 8, h: 6 },
    })),
    ...dimensions.map((dimension, index) => ({
      id: `table-${dimension}`,
      type: 'table',
      title: dimension,
      dataset,
      dimensions: [dimension],
      metrics: ['sent', 'revenue'],
      layout: { x: index * 8, y: 12, w: 8, h: 12 },
    })),
  ];
  const url = await createDashboard(page, workspaceId, 'Paint order', widgets);

  // From the first script on, note when each widget first shows its numbers (nothing loading inside it).
  await page.addInitScript(() => {
    const shown: Record<string, number> = {};
    (window as unknown as { widgetShown: Record<string, number> }).widgetShown = shown;
    const check = () => {
      for (const card of document.querySelectorAll<HTMLElement>('[data-widget-id]')) {
        const id = card.dataset.widgetId ?? '';
        if (id in shown || card.querySelector('[aria-busy="true"], [role="alert"]')) continue;
        shown[id] = performance.now();
      }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(url);
  await widgetNumbers(page, widgets.length);

  const times = await page.evaluate((queryMeasure) => {
    const shown = Object.values((window as unknown as { widgetShown: Record<string, number> }).widgetShown);
    const queryEnds = performance.getEntriesByName(queryMeasure).map((entry) => entry.startTime + entry.duration);
    return { shown, queryEnds };
  }, ENGINE_QUERY_MEASURE);
  expect(times.shown).toHaveLength(widgets.length);
  expect(times.queryEnds.length).toBeGreaterThan(1);
  // The canvas does not wait for every answer: a widget paints when its own numbers arrive.
  expect(Math.min(...times.shown)).toBeLessThan(Math.max(...times.queryEnds));
  expect(new Set(times.shown).size).toBeGreaterThan(1);
});

/**
 * Holds the session's answer back until `asked` settles (at most 10 s), and tells whether it had settled first: what
 * the page asks for while the session is unknown.
 */
async function holdSessionUntil(page: Page, asked: Promise<void>): Promise<() => boolean> {
  let askedFirst = false;
  await page.route('**/session', async (route) => {
    askedFirst = await Promise.race([
      asked.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
    ]);
    await route.continue();
  });
  return () => askedFirst;
}

test('a signed-out visitor sent from a report’s address to the sign-in page downloads no DuckDB module', async ({
  page,
}) => {
  const wasm: string[] = [];
  let engineClientAsked: () => void = () => undefined;
  const engineClient = new Promise<void>((resolve) => (engineClientAsked = resolve));
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) wasm.push(request.url());
    if (/\/engine-client\.[0-9a-f]+\.js$/.test(request.url())) engineClientAsked();
  });
  // The session's answer is held back: the engine's few KiB of client code are already asked for while it is on the
  // way, so a signed-in visitor's engine would start the moment it arrives.
  const askedBeforeSession = await holdSessionUntil(page, engineClient);
  await page.goto('/workspaces/1/reports/dashboard/1');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('link', { name: 'Continue with Email' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(askedBeforeSession()).toBe(true);
  expect(wasm).toEqual([]);
});

test('a browser holding a signed-in session, with nothing of the app stored, asks for DuckDB’s module before the session’s answer', async ({
  page,
  browser,
}) => {
  const workspaceId = await openAcme(page);
  // A browser whose site storage was cleared but whose cookies were kept: the server's signed-in hint is all it has.
  const cookies = await page.context().cookies();
  expect(cookies.map((cookie) => cookie.name)).toContain('openrate_signed_in');
  const context = await browser.newContext({ storageState: { cookies, origins: [] } });
  try {
    const fresh = await context.newPage();
    let moduleAsked: () => void = () => undefined;
    const module = new Promise<void>((resolve) => (moduleAsked = resolve));
    context.on('request', (request) => {
      if (request.url().endsWith('.wasm')) moduleAsked();
    });
    const askedBeforeSession = await holdSessionUntil(fresh, module);
    await fresh.goto(`/workspaces/${workspaceId}/reports`);
    await expect(fresh.getByRole('heading', { name: 'Create a new report' })).toBeVisible({ timeout: 30_000 });
    expect(askedBeforeSession()).toBe(true);
  } finally {
    await context.close();
  }
});
