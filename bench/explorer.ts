import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, chromium } from '@playwright/test';
import ExcelJS from 'exceljs';
import { freePort } from '../scripts/freePort';
import { literal, openLockedDuckDB } from '../server/services/duckdb';
import { getCatalogueDataset, toDatasetSchema } from '../src/contracts/catalogue';
import { type ExplorerConfig } from '../src/contracts/reports';
import { mainPresetRange } from '../src/engine/dates';
import { localToday } from '../src/features/date-range/ranges';
import { EXPORT_MEASURES } from '../src/features/explorer/useExplorerExport';
import { DATASET_INSERT_MEASURE, ENGINE_QUERY_MEASURE } from '../src/workers/pool';
import { ensureBenchData, median, ms } from './benchData';
import {
  API_HEADERS,
  benchWorkspace,
  eventTime,
  launchOptions,
  signIn,
  startServer,
  stopServer,
  WAIT_IN_PAGE,
  watchEvent,
} from './browser';
import { reportCpuProfile, startCpuProfile } from './cpuProfile';
import { BENCH_DATASET } from './engineDashboard';

/**
 * npm run bench:explorer [-- --rows 1000000 --repeats 3 --export-rows 100000 --only pivot|export]
 * The production build and server, an explorer view over the demo user's workspace with `--rows` rows, in headless
 * Chromium. Pivot: grouped by two dimensions with three values, the time from choosing a pivot dimension (cut to
 * 100 result columns) to its cells drawn, next to the engine's time for the queries it ran (from the pool's spans
 * in the performance timeline). Export: 'Export to Excel' of about `--export-rows` leaf rows × 30 columns, the time
 * from the click to the download and the page's JS heap at its peak, the file read back to count its cells.
 * `--cpu-profile`: the page's main thread during the last round's pivot change, by module and in sequence.
 */
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    repeats: { type: 'string', default: '3' },
    'end-date': { type: 'string', default: '2026-11-21' },
    'export-rows': { type: 'string', default: '100000' },
    only: { type: 'string' },
    'cpu-profile': { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const repeats = Number(values.repeats);
const endDate = values['end-date'];
const PRESET = 'last_90_days';
const GROUPS = ['country', 'campaign_type'];
const PIVOT = 'campaign_name';
const schema = toDatasetSchema(getCatalogueDataset(BENCH_DATASET)!);

const view = (title: string, rowGroups: string[], valueColumns: string[]): ExplorerConfig => ({
  title,
  dataset: BENCH_DATASET,
  dateRanges: { main: { preset: PRESET } },
  columns: rowGroups.map((colId) => ({ colId, rowGroup: true })),
  valueColumns,
});

/**
 * The page's JS heap before the export and at its peak, sampled every 50 ms. A string: tsx would wrap named
 * functions in a helper the page does not have.
 */
const WATCH_HEAP = `(() => {
  const memory = () => performance.memory.usedJSHeapSize;
  window.benchHeap = { before: memory(), peak: memory() };
  setInterval(() => (window.benchHeap.peak = Math.max(window.benchHeap.peak, memory())), 50);
})()`;

/**
 * True when the grid shows pivot cells: the first value column is a pivot cell, no cell is loading. A string for the
 * page (`WAIT_IN_PAGE`).
 */
const PIVOT_CELLS_SHOWN = `() => {
  const main = document.querySelector('.bp6-table-quadrant-main');
  if (!main || main.querySelector('.or-explorer-loading')) return false;
  const name = main.querySelectorAll('.bp6-table-column-name-text')[1]?.textContent;
  if (!name?.includes(' · ')) return false;
  return !!main.querySelector('.bp6-table-cell-row-0.bp6-table-cell-col-1')?.textContent;
}`;

/** The page's time when the pivot cells are shown (checked on DOM changes, never in animation frames). */
async function pivotDrawn(page: Page): Promise<number> {
  return (await page.evaluate(`(${WAIT_IN_PAGE})(${PIVOT_CELLS_SHOWN}, 600000, 'the pivot cells')`)) as number;
}

/** Where a pivot change's time goes, in ms: the figures the ratio is made of. */
interface PivotBreakdown {
  /** From the change to the first query's start: React, the store and the SQL builder. */
  beforeEngine: number;
  /** From the first query's start to the last one's end, split into time a query ran and time none did. */
  engine: number;
  engineBusy: number;
  engineIdle: number;
  /** From the last query's end to the cells drawn: decoding, the grid's rows and the table's render. */
  afterEngine: number;
  /** Main-thread tasks over 50 ms in the whole span (the page's own work blocking its frames). */
  longTasks: number;
  /** The dataset copied into another worker of the pool during the change (a load competes with the queries). */
  datasetLoads: number;
  queries: number;
}

/** Collects the main thread's long tasks from now on (read back by `pivotBreakdown`). */
const WATCH_LONG_TASKS = `(() => {
  window.benchLongTasks = [];
  new PerformanceObserver((list) => window.benchLongTasks.push(...list.getEntries().map((e) => [e.startTime, e.duration])))
    .observe({ type: 'longtask' });
})()`;

async function pivotBreakdown(page: Page, started: number, drawn: number): Promise<PivotBreakdown> {
  const { spans, longTasks, datasetLoads } = await page.evaluate(
    ({ name, load, since }) => ({
      spans: performance
        .getEntriesByName(name)
        .filter((entry) => entry.startTime >= since)
        .map((entry) => [entry.startTime, entry.startTime + entry.duration]),
      longTasks: (window as unknown as { benchLongTasks: number[][] }).benchLongTasks,
      datasetLoads: performance.getEntriesByName(load).filter((entry) => entry.startTime >= since).length,
    }),
    { name: ENGINE_QUERY_MEASURE, load: DATASET_INSERT_MEASURE, since: started },
  );
  spans.sort((a, b) => a[0] - b[0]);
  // Busy time is the union of the spans: queries in different workers may overlap.
  let busy = 0;
  let reach = -Infinity;
  for (const [start, end] of spans) {
    busy += Math.max(0, end - Math.max(start, reach));
    reach = Math.max(reach, end);
  }
  const first = spans[0]?.[0] ?? started;
  const last = spans.length ? reach : started;
  return {
    beforeEngine: first - started,
    engine: last - first,
    engineBusy: busy,
    engineIdle: last - first - busy,
    afterEngine: drawn - last,
    longTasks: longTasks
      .filter(([start]) => start >= started && start < drawn)
      .reduce((total, [, duration]) => total + duration, 0),
    queries: spans.length,
    datasetLoads,
  };
}

/** Dimensions whose combinations in the range come closest to `target` leaf rows (counted by DuckDB). */
async function exportGroups(sourceDir: string, target: number): Promise<{ groups: string[]; leaves: number }> {
  const { instance, connection } = await openLockedDuckDB([sourceDir]);
  // The page's range: its preset from the viewer's today, not from the data's last day (a stale expectation once
  // the data is a few days old: 83,256 leaves expected where the page rightly exported 81,704 and a totals row).
  const range = mainPresetRange(PRESET, localToday());
  const file = literal(path.join(sourceDir, `${schema.tableId}.parquet`));
  // Four dimensions and the dataset's 26 metrics make 30 columns.
  const candidates = [
    ['campaign_name', 'event_date', 'country', 'list_name'],
    ['campaign_name', 'event_date', 'country', 'send_hour'],
    ['subject_line', 'event_date', 'country', 'integration_name'],
    ['campaign_name', 'event_date', 'country', 'campaign_type'],
  ];
  let best = { groups: candidates[0], leaves: 0 };
  try {
    for (const groups of candidates) {
      const reader = await connection.runAndReadAll(
        `SELECT COUNT(*)::INTEGER AS n FROM (SELECT DISTINCT ${groups.join(', ')} FROM read_parquet(${file}) ` +
          `WHERE ${schema.dateField} BETWEEN DATE ${literal(range.start)} AND DATE ${literal(range.end)})`,
      );
      const leaves = Number(reader.getRowObjects()[0].n);
      if (Math.abs(leaves - target) < Math.abs(best.leaves - target)) best = { groups, leaves };
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return best;
}

type Create = (config: ExplorerConfig) => Promise<string>;

async function benchPivot(browser: Browser, options: BrowserContextOptions, create: Create) {
  // Pivot: each round a fresh context (the pool keeps results: no cache hit may stand in for a query), the
  // grouped grid drawn, then the pivot chosen.
  const pivotUrl = await create(view(`Bench pivot ${Date.now()}`, GROUPS, ['sent', 'open_rate', 'revenue']));
  const runs: { renderMs: number; breakdown: PivotBreakdown }[] = [];
  let notice = '';
  for (let round = 0; round < repeats; round++) {
    const fresh = await browser.newContext({ ...options, viewport: { width: 1600, height: 1000 } });
    const page = await fresh.newPage();
    await page.goto(pivotUrl);
    await page
      .getByLabel('Total rows')
      .filter({ hasText: /Rows: \d/ })
      .waitFor({ timeout: 600_000 });
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.evaluate(WATCH_LONG_TASKS);
    const stopProfile = values['cpu-profile'] && round === repeats - 1 ? await startCpuProfile(page) : undefined;
    // From the select's own input event: Playwright's checks before it changes the option are not the page's time.
    await page.evaluate(watchEvent('input'));
    await page.getByLabel('Pivot by').selectOption(PIVOT);
    const drawn = await pivotDrawn(page);
    const started = await eventTime(page);
    if (stopProfile) reportCpuProfile(await stopProfile(), path.resolve('dist'), 'pivot change (last round)', 4);
    runs.push({ renderMs: drawn - started, breakdown: await pivotBreakdown(page, started, drawn) });
    notice = (await page.getByText('The pivot was cut').allInnerTexts())[0] ?? 'not cut';
    await fresh.close();
  }

  const render = median(runs.map((run) => run.renderMs));
  const figure = (key: keyof PivotBreakdown) => median(runs.map((run) => run.breakdown[key]));
  const engine = figure('engine');
  console.log(`\nExplorer on ${BENCH_DATASET}, ${rows} rows, ${PRESET} (median of ${repeats}):`);
  console.log('| scenario | cells drawn | engine | ratio | queries |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| pivot by ${PIVOT} (group by ${GROUPS.join(' › ')}, 3 values) | ${ms(render)} | ${ms(engine)} | ` +
      `${(render / engine).toFixed(2)} | ${figure('queries')} |`,
  );
  console.log(`Pivot notice: ${notice}`);
  console.log('\nWhere the time of a pivot change goes (median of each part):');
  console.log(
    '| change → first query | engine: queries running | engine: between queries | last query → drawn | long tasks ' +
      '| dataset loads |',
  );
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| ${ms(figure('beforeEngine'))} | ${ms(figure('engineBusy'))} | ${ms(figure('engineIdle'))} | ` +
      `${ms(figure('afterEngine'))} | ${ms(figure('longTasks'))} | ${figure('datasetLoads')} |`,
  );
}

async function benchExport(context: BrowserContext, sourceDir: string, create: Create) {
  // Export: a flat grid of about `--export-rows` leaf rows and 30 columns.
  const target = Number(values['export-rows']);
  const { groups, leaves } = await exportGroups(sourceDir, target);
  const metrics = schema.fields.filter((field) => field.type === 'metric').map((field) => field.id);
  const page = await context.newPage();
  await page.goto(await create(view(`Bench export ${Date.now()}`, groups, metrics.slice(0, 30 - groups.length))));
  await page
    .getByLabel('Total rows')
    .filter({ hasText: /Rows: \d/ })
    .waitFor({ timeout: 600_000 });
  await page.evaluate(WATCH_HEAP);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const downloaded = page.waitForEvent('download', { timeout: 600_000 });
  // From the menu item's own click event: Playwright waits for the menu's opening transition before clicking.
  await page.evaluate(watchEvent('click'));
  await page.getByRole('menuitem', { name: 'Export to Excel' }).click();
  const download = await downloaded;
  const exportMs = (await page.evaluate(() => performance.now())) - (await eventTime(page));
  const heap = await page.evaluate(
    () => (window as unknown as { benchHeap: { before: number; peak: number } }).benchHeap,
  );
  const steps = await page.evaluate(
    (names) => names.map((name) => performance.getEntriesByName(name).at(-1)?.duration ?? NaN),
    Object.values(EXPORT_MEASURES),
  );
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile((await download.path())!);
  const sheet = book.getWorksheet('export')!;
  await context.close();

  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  const fileRows = sheet.rowCount - 1;
  console.log(`\nExcel export (group by ${groups.join(' › ')}; ${leaves} leaf rows in the range):`);
  console.log('| rows × columns in the file | click → download | page JS heap before | page JS heap peak |');
  console.log('|---|---|---|---|');
  console.log(`| ${fileRows} × ${sheet.columnCount} | ${ms(exportMs)} | ${mib(heap.before)} | ${mib(heap.peak)} |`);
  console.log(`| ${Object.keys(EXPORT_MEASURES).join(' | ')} |`);
  console.log(
    `|${Object.keys(EXPORT_MEASURES)
      .map(() => '---|')
      .join('')}`,
  );
  console.log(`| ${steps.map(ms).join(' | ')} |`);
  // The file holds every leaf row and the totals row: as many as native DuckDB counts over the page's range.
  if (fileRows !== leaves + 1)
    throw new Error(`The file has ${fileRows} rows: DuckDB counts ${leaves} leaves + totals`);
}

async function main() {
  if (!fs.existsSync(path.resolve('dist/index.html'))) {
    console.error('No production build found: run `npm run build` first.');
    process.exit(1);
  }
  const sourceDir = await ensureBenchData(rows, endDate);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-bench-explorer-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = await startServer(dataDir, port);
  const browser = await chromium.launch(launchOptions);
  try {
    const storageState = await signIn(browser, baseURL);
    const context = await browser.newContext({ baseURL, storageState, viewport: { width: 1600, height: 1000 } });
    const workspaceId = await benchWorkspace(context.request, dataDir, sourceDir);
    const create = async (config: ExplorerConfig) => {
      const created = await context.request.post(`/api/workspaces/${workspaceId}/reports/explorer_view`, {
        headers: API_HEADERS,
        data: { title: config.title, config },
      });
      if (!created.ok()) throw new Error(`Creating the view failed: ${created.status()} ${await created.text()}`);
      const { data } = (await created.json()) as { data: { id: number } };
      return `/workspaces/${workspaceId}/reports/explorer_view/${data.id}`;
    };
    if (values.only !== 'export') await benchPivot(browser, { baseURL, storageState }, create);
    if (values.only !== 'pivot') await benchExport(context, sourceDir, create);
  } finally {
    await browser.close();
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
