import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type APIRequestContext, type Browser, type BrowserContext, type Page, chromium } from '@playwright/test';
import { freePort } from '../scripts/freePort';
import { type Widget } from '../src/contracts/reports';
import { addDays } from '../src/engine/dates';
import { COMPILER_THREAD } from '../src/workers/duckdbModule';
import { RESULTS_CACHE_NAME } from '../src/workers/keptResults';
import { DATASET_INSERT_MEASURE, ENGINE_QUERY_MEASURE } from '../src/workers/pool';
import {
  DATASET_FETCH_MEASURE,
  ENGINE_START_MEASURE,
  KEPT_READ_MEASURE,
  WORKER_REQUEST_MEASURE,
  WORKER_SPAN_PREFIX,
  workerSpans,
} from '../src/workers/timeline';
import { ensureBenchData, machineState, median, ms } from './benchData';
import {
  API_HEADERS,
  benchWorkspace,
  importBenchSource,
  engineSpan,
  eventTime,
  launchOptions,
  signIn,
  startServer,
  stopServer,
  WAIT_IN_PAGE,
  watchEvent,
} from './browser';
import { printTrace, reportCpuProfile, startCpuProfile, startTimelineTrace } from './cpuProfile';
import { BENCH_DATASET } from './engineDashboard';
import { hiddenTabResident } from './hiddenTab';
import {
  browserStartDone,
  browserStartedHere,
  browserWithProfile,
  faultSnapshot,
  faultsBetween,
  tabResidentBytes,
} from './pageFaults';

/**
 * npm run bench:dashboard [-- --rows 1000000 --repeats 3 --screenshot bench/out/dashboard --latency 50 --mbps 20]
 * The production build and server, a 12-widget dashboard on the demo user's workspace with `--rows` rows, in
 * headless Chromium: time from navigation to every widget rendered (cold: fresh browser; warm: reload with the
 * dataset kept from the cold open), and from applying a new date range to every widget rendered again, next to the
 * engine's own time for the same queries (the spans the pool leaves in the performance timeline). Each open is
 * also broken down: first paint, worker start, .wasm fetch, dataset download, Arrow → DuckDB insertion, per-query
 * times, first and last widget numbers, JS heap and WebAssembly memory.
 */
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    repeats: { type: 'string', default: '3' },
    'end-date': { type: 'string', default: '2026-11-21' },
    screenshot: { type: 'string' },
    'skip-date-change': { type: 'boolean', default: false },
    bundles: { type: 'boolean', default: false },
    'disk-profile': { type: 'boolean', default: false },
    // With --disk-profile: navigate as soon as the fresh browser is launched, sharing the cores with its own start.
    'at-launch': { type: 'boolean', default: false },
    waterfall: { type: 'boolean', default: false },
    demo: { type: 'boolean', default: false },
    'cpu-profile': { type: 'boolean', default: false },
    timeline: { type: 'boolean', default: false },
    latency: { type: 'string', default: '0' },
    mbps: { type: 'string', default: '0' },
    'second-reload': { type: 'boolean', default: false },
    // V8 flags for the browser, to measure what an engine setting costs (e.g. --no-wasm-lazy-compilation).
    'js-flags': { type: 'string' },
    // The warm reload opens the next day's data, as a returning user does after the nightly import (not with --demo).
    'next-day': { type: 'boolean', default: false },
  },
});
/** The browser's launch options, with `--js-flags` passed on to V8. */
const browserOptions = {
  ...launchOptions,
  args: [...launchOptions.args, ...(values['js-flags'] ? [`--js-flags=${values['js-flags']}`] : [])],
};
const rows = Number(values.rows);
const repeats = Number(values.repeats);
const endDate = values['end-date'];

/** The 12 widgets: the same mix as the engine benchmark's dashboard, all on one dataset. */
function benchWidgets(): Widget[] {
  const base = { dataset: BENCH_DATASET };
  const notTransactional = [{ member: 'campaign_type', operator: 'notEquals', values: ['transactional'] }];
  const widgets: Omit<Widget, 'id' | 'layout'>[] = [
    {
      ...base,
      type: 'campaign_performance',
      title: 'KPI cards',
      metrics: ['sent_unique', 'sent', 'open_rate', 'click_to_open_rate', 'cto_unique', 'sessions', 'revenue'],
      filters: notTransactional,
      visualizationSettings: { display: { type: 'grid' } },
    },
    { ...base, type: 'graph', title: 'Rates', metrics: ['sent', 'open_rate', 'click_rate'] },
    {
      ...base,
      type: 'graph',
      title: 'Revenue',
      metrics: ['revenue', 'transactions'],
      visualizationSettings: { chart: { chartType: 'bar', groupMode: 'grouped' } },
    },
    { ...base, type: 'list', title: 'Countries', dimension: 'country', metrics: ['sent'], limit: 10 },
    {
      ...base,
      type: 'list',
      title: 'Campaigns by revenue',
      dimension: 'campaign_name',
      metrics: ['revenue'],
      limit: 10,
    },
    {
      ...base,
      type: 'table',
      title: 'By campaign type',
      dimensions: ['campaign_type'],
      metrics: ['sent_unique', 'sent', 'open', 'opens', 'clicks_unique', 'transactions'],
    },
    {
      ...base,
      type: 'table',
      title: 'By list',
      dimensions: ['list_name'],
      metrics: ['open_rate', 'click_rate', 'conversion_rate'],
    },
    {
      ...base,
      type: 'high_low',
      title: 'Highs and lows',
      dimension: 'campaign_name',
      metrics: ['open_rate', 'click_rate'],
    },
    {
      ...base,
      type: 'funnel',
      title: 'Funnel',
      metrics: ['sent_unique', 'sent', 'delivered', 'open', 'opens', 'clicks_unique', 'transactions'],
      funnelMetrics: ['sent_unique', 'sent', 'delivered', 'open', 'opens', 'clicks_unique', 'transactions'],
      conversionMetric: 'transactions',
    },
    {
      ...base,
      type: 'graph',
      title: 'Revenue per integration',
      metrics: ['revenue'],
      groupBy: ['integration_name'],
    },
    {
      ...base,
      type: 'campaign_performance',
      title: 'Revenue',
      metrics: ['revenue', 'transactions'],
      visualizationSettings: { display: { type: 'card' } },
    },
    { ...base, type: 'table', title: 'By country', dimensions: ['country'], metrics: ['sent', 'revenue'] },
  ];
  return widgets.map((widget, index) => ({
    ...widget,
    id: `bench-${index + 1}`,
    layout: { x: (index % 2) * 12, y: Math.floor(index / 2) * 24, w: 12, h: 24 },
  }));
}

/** What `until` waits for in the page. */
type Condition =
  /** Every widget card shows its content: none loading, every plotly chart drawn. */
  | { kind: 'rendered'; widgets: number }
  /** A performance entry of that name that began at or after `since` (the page's clock). */
  | { kind: 'entry-since'; name: string; since: number }
  /** At least `count` performance entries of that name. */
  | { kind: 'entries'; name: string; count: number };

/**
 * Resolves with the page's clock when `condition` first holds: checked at once, then after every change that can
 * make it hold (a DOM change: nodes, a widget's `aria-busy`; a new performance mark or measure) and every 250 ms
 * (`benchUntil`, installed by WATCH_WIDGETS).
 */
function until(page: Page, condition: Condition, timeoutMs = 600_000): Promise<number> {
  return page.evaluate(
    ([wanted, ms]) =>
      (window as unknown as { benchUntil(c: Condition, ms: number): Promise<number> }).benchUntil(wanted, ms),
    [condition, timeoutMs] as const,
  );
}

/** Resolves when every widget card shows its content: none loading, every plotly chart drawn. */
function allRendered(page: Page, widgets: number): Promise<number> {
  return until(page, { kind: 'rendered', widgets });
}

/**
 * With --next-day: the reload draws the day before's kept answers at once, then queries the new file. This waits for
 * as many queries as the cold open ran, and for every widget drawn after them: when the new day's numbers show.
 */
async function newNumbersDrawn(page: Page, widgets: number, queries: number): Promise<number> {
  await until(page, { kind: 'entries', name: ENGINE_QUERY_MEASURE, count: queries });
  return allRendered(page, widgets);
}

/** The longest the warm reload waits for the cold open's answers to be kept. */
const KEPT_WAIT_MS = 10_000;

/**
 * Waits until the cold open's answers are kept for the next visit: at least one per executed query in the kept
 * answers' cache, and none added for 300 ms. The page writes them once it is idle (keptResults.ts), up to 2 s after
 * the numbers on a busy page; a reload before that runs its queries in the engine, as a user's reload a second after
 * the numbers would, and is not the returning visit the warm figure stands for. Returns how many were kept at the
 * first look (once the cold open's figures were read) and in the end, and when each was, after the numbers.
 */
async function answersKept(page: Page, queries: number, renderedAt: number) {
  /** The kept answers' count, and the page's clock when it was read. */
  const look = () =>
    page.evaluate(
      async (name) => [(await (await caches.open(name)).keys()).length, performance.now()] as const,
      RESULTS_CACHE_NAME,
    );
  let [kept, keptAt] = await look();
  const first = { kept, afterMs: keptAt - renderedAt };
  const deadline = keptAt + KEPT_WAIT_MS;
  for (;;) {
    await page.waitForTimeout(100);
    const [next, time] = await look();
    if (next !== kept) [kept, keptAt] = [next, time];
    else if (kept >= queries && time - keptAt >= 300) break;
    if (time > deadline) break;
  }
  return { first, kept, afterMs: keptAt - renderedAt };
}

interface Run {
  renderMs: number;
  engineMs: number;
  queries: number;
  /** A date change's ends: click → first query start, last query end → every widget drawn. */
  beforeEngineMs?: number;
  afterEngineMs?: number;
  /** Dataset loads into a worker during a date change, and their time. */
  loads?: number;
  loadMs?: number;
  /**
   * A date change's per-query durations as the page sees them: from the query's turn until the page took its answer,
   * which waits while the page's thread draws the answers before it.
   */
  queryMs?: number[];
  /** The same queries' runs in their workers (`workerSpans.query`), and which worker ran each. */
  workerQueryMs?: number[];
  workerOfQuery?: number[];
}

/** Where one open's time went, in ms since navigation start unless named a duration. */
interface Breakdown {
  firstPaint: number;
  workerSpawnToReady: number[];
  wasmRequestStart: number;
  wasmFetchMs: number;
  wasmBytes: number;
  datasetStart: number;
  datasetEnd: number;
  datasetBytes: number;
  /** The page's scripts and style sheets as sent (HTTP cache hits count 0; workers' requests are in their own timelines). */
  codeBytes: number;
  insertMs: number[];
  queryMs: number[];
  /** Each query's run in its worker (the worker's own span). */
  workerQueryMs: number[];
  /** The busiest worker's gaps between its queries, from its first query's start to its last's end. */
  workerIdleMs: number;
  firstWidget: number;
  /** The mean over the widgets of when each showed its numbers: how soon a user sees the dashboard's numbers. */
  meanWidget: number;
  /** When the last widget in view (the viewport as the page opened: the benchmark never scrolls) showed its numbers. */
  inViewWidgets: number;
  allWidgets: number;
  jsHeapBytes: number;
  wasmHeapBytes: number;
  /** Durations inside a worker's start and the benchmark table's load (see `steps`). */
  steps: Record<string, number>;
  /** Memory first touched during the open, in bytes, by process and thread group (`faultsBetween`). */
  fresh: Record<string, number>;
}

/** A span a worker left in its own timeline, moved onto the page's clock. */
interface WorkerSpan {
  worker: number;
  name: string;
  start: number;
  end: number;
  table?: string;
  outcome?: string;
  /** A request's bytes over the wire (its resource timing's transferSize). */
  bytes?: number;
}

/** A worker's request among its spans: named `request ` and the address's path and query. */
const WORKER_REQUEST = 'request ';

/** A dataset file's request (not its schema's), by its address. */
const isDatasetFile = (address: string) => address.includes('/datasets/') && !address.includes('schema=');

/**
 * Every worker's own spans (`src/workers/timeline.ts`), on the page's clock: workers have their own time origin. The
 * compiling worker's are read from the page, which keeps a copy of them as the module arrives (the worker then ends).
 */
async function readWorkerSpans(page: Page, pageOrigin: number): Promise<WorkerSpan[]> {
  const compilerKept = page.evaluate(
    ({ prefix, request, requestMeasure }) => ({
      origin: performance.timeOrigin,
      requests: (performance.getEntriesByName(requestMeasure) as PerformanceMeasure[]).map((entry) => {
        const detail = entry.detail as { url: string; transferSize: number };
        return {
          name: `${request}${detail.url.replace(location.origin, '')}`,
          start: entry.startTime,
          end: entry.startTime + entry.duration,
          bytes: detail.transferSize,
        };
      }),
      spans: (performance.getEntriesByType('measure') as PerformanceMeasure[])
        .filter((entry) => entry.name.startsWith(prefix))
        .map((entry) => ({
          name: entry.name.slice(prefix.length),
          start: entry.startTime,
          end: entry.startTime + entry.duration,
          table: undefined,
          outcome: undefined,
        })),
    }),
    { prefix: WORKER_SPAN_PREFIX, request: WORKER_REQUEST, requestMeasure: WORKER_REQUEST_MEASURE },
  );
  const running = page.workers().filter((worker) => !worker.url().includes(`/${COMPILER_THREAD}.`));
  const perWorker = await Promise.all(
    running.map((worker) =>
      worker
        .evaluate(
          ({ prefix, request }) => ({
            origin: performance.timeOrigin,
            // The worker's requests (the dataset download worker's files, the compiling worker's module).
            requests: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
              name: `${request}${entry.name.replace(location.origin, '')}`,
              start: entry.startTime,
              end: entry.responseEnd,
              bytes: entry.transferSize,
            })),
            spans: (performance.getEntriesByType('measure') as PerformanceMeasure[])
              .filter((entry) => entry.name.startsWith(prefix))
              .map((entry) => {
                const detail = entry.detail as { table?: string; stopped?: boolean; error?: string } | null;
                // The warm-up's outcome: run to its end, stopped by the first load, or failed.
                const finished = detail?.stopped === undefined ? undefined : detail.stopped ? 'stopped' : 'done';
                return {
                  name: entry.name.slice(prefix.length),
                  start: entry.startTime,
                  end: entry.startTime + entry.duration,
                  table: detail?.table,
                  outcome: detail?.error ?? finished,
                };
              }),
          }),
          { prefix: WORKER_SPAN_PREFIX, request: WORKER_REQUEST },
        )
        .catch(() => null),
    ),
  );
  // The compiling worker's copy counts as the last worker.
  perWorker.push(await compilerKept);
  return perWorker
    .flatMap((found, worker) =>
      [...(found?.spans ?? []), ...(found?.requests ?? [])].map((span) => ({
        ...span,
        worker,
        start: span.start + found!.origin - pageOrigin,
        end: span.end + found!.origin - pageOrigin,
      })),
    )
    .sort((a, b) => a.start - b.start);
}

/**
 * The worker start's and the table load's parts: the first worker's start (from the page's spawn), then the first
 * load of the benchmark table (from the pool's load call) and a second worker's copy, when there is one.
 */
function steps(spans: WorkerSpan[], spawnedAt: number, loadCalls: number[], page: Record<string, number>) {
  const first = spans.find((span) => span.name === workerSpans.chunk)?.worker;
  const of = (name: string, worker = first) =>
    spans.find(
      (span) => span.name === name && span.worker === worker && (span.table ?? BENCH_DATASET) === BENCH_DATASET,
    );
  const duration = (span?: WorkerSpan) => (span ? span.end - span.start : NaN);
  const loads = spans.filter((span) => span.name === workerSpans.received && span.table === BENCH_DATASET);
  const load = (index: number) => {
    const received = loads[index];
    if (!received) return {};
    const at = (name: string) => duration(of(name, received.worker));
    // The pool's call for this load: the latest one before the worker received it.
    const call = Math.max(...loadCalls.filter((start) => start <= received.start + 1));
    return {
      [`load ${index + 1}: call → bytes in the worker`]: received.start - call,
      [`load ${index + 1}: waiting for DuckDB`]: at(workerSpans.wait),
      [`load ${index + 1}: insert`]: at(workerSpans.insert),
      [`load ${index + 1}: count rows`]: at(workerSpans.count),
    };
  };
  const chunk = of(workerSpans.chunk);
  return {
    'dataset file: request → bytes (benchmark table)': page.fetch,
    'dataset file: reading the kept copy': page.kept,
    'worker: spawn → chunk evaluated': chunk ? chunk.end - spawnedAt : NaN,
    'worker: waiting for the compiled module': duration(of(workerSpans.moduleWait)),
    'worker: instantiate': duration(of(workerSpans.instantiate)),
    'worker: of which WebAssembly.instantiate': duration(of(workerSpans.instantiateModule)),
    'worker: DuckDB open + connect': duration(of(workerSpans.open)),
    'worker: SETs': duration(of(workerSpans.settings)),
    'worker: ATTACH the datasets database': duration(of(workerSpans.attach)),
    ...load(0),
    ...load(1),
  };
}

/**
 * Installed before each navigation. Notes when each widget first shows its numbers (nothing loading, its chart
 * drawn), so the first and the last can be told apart, and gives `until` its wait (`benchUntil`, `WAIT_IN_PAGE`).
 * Both check after every DOM change that can show a widget (nodes, `aria-busy`), never in animation frames: in a
 * traced cold open at 10^6 rows on 2 cores, checks in every frame cost 504 ms of the page's thread in style alone
 * (bench/README.md). A string: tsx would wrap named functions in a helper the page does not have.
 */
const WATCH_WIDGETS = `(() => {
  const domChanges = { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] };
  const cardShown = (card) => {
    if (card.querySelector('[aria-busy="true"]')) return false;
    // A chart's frame is in place before plotly has drawn into it: shown once it holds plotly's SVG.
    const plot = card.querySelector('.or-graph-chart, .js-plotly-plot, .bp6-spinner');
    return !plot || !!plot.querySelector('.main-svg');
  };
  const shown = new Map();
  window.benchWidgetTimes = shown;
  new MutationObserver(() => {
    for (const card of document.querySelectorAll('[data-widget-id]')) {
      const id = card.dataset.widgetId ?? '';
      if (!shown.has(id) && cardShown(card)) shown.set(id, performance.now());
    }
  }).observe(document, domChanges);
  const holds = (condition) => {
    if (condition.kind === 'entries') return performance.getEntriesByName(condition.name).length >= condition.count;
    if (condition.kind === 'entry-since') {
      return performance.getEntriesByName(condition.name).some((entry) => entry.startTime >= condition.since);
    }
    const cards = [...document.querySelectorAll('[data-widget-id]')];
    return cards.length === condition.widgets && cards.every(cardShown);
  };
  window.benchUntil = (condition, timeoutMs) =>
    (${WAIT_IN_PAGE})(() => holds(condition), timeoutMs, JSON.stringify(condition));
})()`;

interface WasmRequest {
  url: string;
  /** Epoch ms. */
  start: number;
  end: number;
  bytes: number;
}

/** Every .wasm request of the context (the engine's workers' included), with its timing. */
function recordWasmRequests(context: BrowserContext): WasmRequest[] {
  const requests: WasmRequest[] = [];
  context.on('requestfinished', (request) => {
    if (!request.url().endsWith('.wasm')) return;
    const timing = request.timing();
    void request.sizes().then((sizes) =>
      requests.push({
        url: request.url(),
        start: timing.startTime,
        end: timing.startTime + timing.responseEnd,
        // -1 where Playwright has no size (a body read from the cache): nothing came over the wire.
        bytes: Math.max(0, sizes.responseBodySize),
      }),
    );
  });
  return requests;
}

async function breakdown(page: Page, wasmRequests: WasmRequest[], fresh: Record<string, number>): Promise<Breakdown> {
  const timeline = await page.evaluate(
    ({ start, insert, query, table, fetchSpan, keptSpan }) => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      // The page's requests: its scripts and style sheets, and the dataset files where the page downloads them (the
      // benchmark's and the default dataset the not-configured notice reads).
      const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
        name: entry.name,
        start: entry.startTime,
        end: entry.responseEnd,
        bytes: entry.transferSize,
      }));
      const times = (window as unknown as { benchWidgetTimes: Map<string, number> }).benchWidgetTimes;
      const shown = [...times.values()];
      // Read after the open: the page is not laid out again in the middle of it for the benchmark.
      const inView = [...document.querySelectorAll<HTMLElement>('[data-widget-id]')]
        .filter((card) => card.getBoundingClientRect().top < window.innerHeight)
        .map((card) => times.get(card.dataset.widgetId ?? '') ?? NaN);
      const inserts = performance.getEntriesByName(insert) as PerformanceMeasure[];
      const heaps = inserts.map((entry) => (entry.detail as { wasmHeapBytes?: number } | null)?.wasmHeapBytes ?? 0);
      return {
        timeOrigin: performance.timeOrigin,
        spawnedAt: performance.getEntriesByName(start)[0]?.startTime ?? NaN,
        loadCalls: inserts.map((entry) => entry.startTime),
        // The benchmark dataset's file (its dataset id is its table's name). No named functions here: see WATCH_WIDGETS.
        pageSteps: Object.fromEntries(
          Object.entries({ fetch: fetchSpan, kept: keptSpan }).map(([key, name]) => [
            key,
            (performance.getEntriesByName(name) as PerformanceMeasure[]).find((entry) =>
              ((entry.detail as { url?: string } | null)?.url ?? '').includes(`/datasets/${table}`),
            )?.duration ?? NaN,
          ]),
        ) as { fetch: number; kept: number },
        firstPaint: paint?.startTime ?? NaN,
        workerSpawnToReady: performance.getEntriesByName(start).map((entry) => entry.duration),
        requests,
        // The benchmark dataset's loads first: the not-configured notice's dataset may load before it.
        insertMs: [
          ...inserts.filter((entry) => (entry.detail as { table?: string } | null)?.table === table),
          ...inserts.filter((entry) => (entry.detail as { table?: string } | null)?.table !== table),
        ].map((entry) => entry.duration),
        // Each load answers its worker's heap after it: summed over the loads (one per worker in this benchmark).
        wasmHeapBytes: heaps.reduce((sum, bytes) => sum + bytes, 0),
        queryMs: performance.getEntriesByName(query).map((entry) => entry.duration),
        firstWidget: Math.min(...shown),
        meanWidget: shown.reduce((sum, at) => sum + at, 0) / shown.length,
        inViewWidgets: Math.max(...inView),
        allWidgets: Math.max(...shown),
        jsHeapBytes: (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? NaN,
      };
    },
    {
      start: ENGINE_START_MEASURE,
      insert: DATASET_INSERT_MEASURE,
      query: ENGINE_QUERY_MEASURE,
      table: BENCH_DATASET,
      fetchSpan: DATASET_FETCH_MEASURE,
      keptSpan: KEPT_READ_MEASURE,
    },
  );
  const spans = await readWorkerSpans(page, timeline.timeOrigin);
  // The requests of this navigation: those that started after its time origin.
  const wasm = wasmRequests.filter((request) => request.start >= timeline.timeOrigin - 1);
  const first = wasm[0];
  const { spawnedAt, loadCalls, pageSteps, requests, ...rest } = timeline;
  // The page's dataset files and the download worker's.
  const datasets = [
    ...requests.filter((request) => isDatasetFile(request.name)),
    ...spans.filter((span) => span.name.startsWith(WORKER_REQUEST) && isDatasetFile(span.name)),
  ];
  return {
    ...rest,
    datasetStart: datasets.length ? Math.min(...datasets.map((entry) => entry.start)) : NaN,
    datasetEnd: datasets.length ? Math.max(...datasets.map((entry) => entry.end)) : NaN,
    datasetBytes: datasets.length ? datasets.reduce((sum, entry) => sum + (entry.bytes ?? 0), 0) : NaN,
    codeBytes: requests
      .filter((request) => /\.(js|css)$/.test(new URL(request.name).pathname))
      .reduce((sum, request) => sum + request.bytes, 0),
    steps: steps(spans, spawnedAt, loadCalls, pageSteps),
    workerQueryMs: spans.filter((span) => span.name === workerSpans.query).map((span) => span.end - span.start),
    workerIdleMs: idleBetweenQueries(spans),
    wasmRequestStart: first ? first.start - timeline.timeOrigin : NaN,
    wasmFetchMs: first ? Math.max(...wasm.map((request) => request.end)) - first.start : NaN,
    wasmBytes: wasm.reduce((sum, request) => sum + request.bytes, 0),
    fresh,
  };
}

/**
 * How long the worker that ran the most queries sat without one between its first query's start and its last's end:
 * waiting for the page to take an answer and send the next query (spans sorted by start).
 */
function idleBetweenQueries(spans: WorkerSpan[]): number {
  const queries = spans.filter((span) => span.name === workerSpans.query);
  const counts = new Map<number, number>();
  for (const span of queries) counts.set(span.worker, (counts.get(span.worker) ?? 0) + 1);
  const [busiest] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  let idle = 0;
  let lastEnd: number | undefined;
  for (const span of queries.filter((query) => query.worker === busiest)) {
    if (lastEnd !== undefined && span.start > lastEnd) idle += span.start - lastEnd;
    lastEnd = Math.max(span.end, lastEnd ?? span.end);
  }
  return idle;
}

/**
 * `--waterfall`: one open's events in the order they began, on the page's clock: the page's requests (documents,
 * scripts, API calls, dataset files), the engine's spans on the page and in each worker, and when each widget first
 * showed its numbers. For finding waits the breakdown's fixed steps do not name.
 */
async function printWaterfall(page: Page, label: string): Promise<void> {
  const timeline = await page.evaluate(() => {
    const origin = location.origin;
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
      name: entry.name.replace(origin, '').slice(0, 90),
      start: entry.startTime,
      firstByte: entry.responseStart as number | undefined,
      end: entry.responseEnd,
    }));
    const measures = (performance.getEntriesByType('measure') as PerformanceMeasure[])
      // Not the compiling worker's spans the page keeps: readWorkerSpans lists them as that worker's.
      .filter((entry) => entry.name.startsWith('openrate:') && !(entry.detail as { thread?: string } | null)?.thread)
      .map((entry) => {
        const detail = entry.detail as { table?: string; url?: string } | null;
        const about = detail?.table ?? detail?.url?.replace(origin, '').slice(0, 60) ?? '';
        return { name: `${entry.name} ${about}`.trim(), start: entry.startTime, end: entry.startTime + entry.duration };
      });
    const shown = [...(window as unknown as { benchWidgetTimes: Map<string, number> }).benchWidgetTimes.entries()].map(
      ([id, at]) => ({ name: `widget ${id} shows its numbers`, start: at, end: at }),
    );
    return { origin: performance.timeOrigin, events: [...resources, ...measures, ...shown] };
  });
  const workers = (await readWorkerSpans(page, timeline.origin)).map((span) => ({
    name: `worker ${span.worker}: ${span.name}${span.table ? ` ${span.table}` : ''}${span.outcome ? ` (${span.outcome})` : ''}`,
    start: span.start,
    end: span.end,
  }));
  const events: { name: string; start: number; end: number; firstByte?: number }[] = [
    ...timeline.events,
    ...workers,
  ].sort((a, b) => a.start - b.start);
  console.log(`\nWaterfall of the ${label} open (ms from navigation):`);
  // A request's first byte (its response's start) tells the server's wait from the transfer.
  console.log('| start | first byte | end | duration | event |');
  console.log('|---|---|---|---|---|');
  for (const event of events) {
    const firstByte = event.firstByte ? event.firstByte.toFixed(0) : '';
    console.log(
      `| ${event.start.toFixed(0)} | ${firstByte} | ${event.end.toFixed(0)} | ${(event.end - event.start).toFixed(0)} | ${event.name} |`,
    );
  }
}

/**
 * DuckDB-WASM's two builds side by side: size on disk and on the wire (the build's precompressed copies), and the time
 * Chromium takes to fetch and compile each from a fresh context, then again from the HTTP cache.
 */
async function compareBundles(browser: Browser, baseURL: string): Promise<void> {
  const dir = path.resolve('dist/duckdb');
  const size = (file: string) => (fs.existsSync(file) ? mib(fs.statSync(file).size) : 'none');
  console.log('\nDuckDB-WASM builds (fetch + WebAssembly.compileStreaming in Chromium, median of 3 fresh contexts):');
  console.log('| build | size | .br | .gz | compile, cold | compile, from HTTP cache |');
  console.log('|---|---|---|---|---|---|');
  for (const name of ['eh', 'mvp']) {
    const file = fs
      .readdirSync(dir)
      .find((candidate) => candidate.startsWith(`duckdb-${name}.`) && candidate.endsWith('.wasm'));
    if (!file) continue;
    const cold: number[] = [];
    const cached: number[] = [];
    for (let round = 0; round < 3; round++) {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await page.goto('/favicon.svg');
      const [first, second] = await page.evaluate(async (url) => {
        const times: number[] = [];
        for (let i = 0; i < 2; i++) {
          const started = performance.now();
          await WebAssembly.compileStreaming(fetch(url));
          times.push(performance.now() - started);
        }
        return times;
      }, `/duckdb/${file}`);
      cold.push(first);
      cached.push(second);
      await context.close();
    }
    const full = path.join(dir, file);
    console.log(
      `| ${name} | ${size(full)} | ${size(`${full}.br`)} | ${size(`${full}.gz`)} | ${ms(median(cold))} | ${ms(median(cached))} |`,
    );
  }
}

const percentile = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

function printBreakdown(cold: Breakdown[], warm: Breakdown[], warmName: string): void {
  const line = (name: string, of: (b: Breakdown) => number, format: (x: number) => string = ms) =>
    console.log(`| ${name} | ${format(median(cold.map(of)))} | ${format(median(warm.map(of)))} |`);
  console.log(`\nBreakdown (median of ${cold.length}; times from navigation start unless a duration):`);
  console.log(`| step | cold | ${warmName} |`);
  console.log('|---|---|---|');
  line('first contentful paint (HTML + JS)', (b) => b.firstPaint);
  line('.wasm request starts', (b) => b.wasmRequestStart);
  line('.wasm fetch (duration, all requests)', (b) => b.wasmFetchMs);
  line('.wasm response bodies (Playwright counts cache hits too)', (b) => b.wasmBytes, mib);
  line('worker spawn → DuckDB ready (duration, first worker)', (b) => b.workerSpawnToReady[0] ?? NaN);
  line('dataset requests start (first)', (b) => b.datasetStart);
  line('dataset responses end (last)', (b) => b.datasetEnd);
  line('dataset bytes transferred (all files)', (b) => b.datasetBytes, mib);
  line("the page's scripts and style sheets transferred", (b) => b.codeBytes, kib);
  line(
    'load call → table ready (duration, first load of the benchmark table; waits for DuckDB to open)',
    (b) => b.insertMs[0] ?? NaN,
  );
  // Counts are not medians: the rounds' own pairs when they differ (a median of 1 / 1 and 2 / 2 would mix them).
  const rounds = (list: Breakdown[]) => {
    const pairs = list.map((b) => `${b.workerSpawnToReady.length} / ${b.insertMs.length}`);
    return new Set(pairs).size <= 1 ? (pairs[0] ?? '–') : `by round: ${pairs.join(', ')}`;
  };
  console.log(`| workers started / loads | ${rounds(cold)} | ${rounds(warm)} |`);
  line('per-widget query p50 (duration)', (b) => percentile(b.queryMs, 50));
  line('per-widget query p95 (duration)', (b) => percentile(b.queryMs, 95));
  // The page's span above ends when the page takes the answer, which waits while its thread draws another widget.
  line('per-widget query p50 in the worker (duration)', (b) => percentile(b.workerQueryMs, 50));
  line('per-widget query p95 in the worker (duration)', (b) => percentile(b.workerQueryMs, 95));
  line('worker idle between its queries (duration, the busiest worker)', (b) => b.workerIdleMs);
  line('first widget numbers', (b) => b.firstWidget);
  line('widget numbers, mean over the widgets', (b) => b.meanWidget);
  line('widgets in view (the first screen): all their numbers', (b) => b.inViewWidgets);
  line('all widget numbers', (b) => b.allWidgets);
  line('JS heap of the page', (b) => b.jsHeapBytes, mib);
  line('WebAssembly heap of the workers', (b) => b.wasmHeapBytes, mib);
  const names = [...new Set([...cold, ...warm].flatMap((b) => Object.keys(b.steps)))];
  for (const name of names) line(name, (b) => b.steps[name] ?? NaN);
  // Page faults: what the open touched of fresh memory (slow on some of these machines; see "Why this machine is slow").
  const touched = [...new Set([...cold, ...warm].flatMap((b) => Object.keys(b.fresh)))];
  for (const name of touched) line(`memory first touched: ${name}`, (b) => b.fresh[name] ?? NaN, mib);
}

/** The benchmark's 12-widget dashboard on the demo workspace reading `--rows` rows; answers where it opens. */
async function benchDashboard(request: APIRequestContext, dataDir: string) {
  const sourceDir = await ensureBenchData(rows, endDate);
  const workspaceId = await benchWorkspace(request, dataDir, sourceDir);
  // The same generator's rows one day later: every file differs, so nothing of the first day's is kept.
  const nextDay = values['next-day']
    ? { first: sourceDir, next: await ensureBenchData(rows, addDays(endDate, 1), `${rows}-next-day`), workspaceId }
    : undefined;
  const widgets = benchWidgets();
  const created = await request.post(`/api/workspaces/${workspaceId}/reports/dashboard`, {
    headers: API_HEADERS,
    data: {
      title: `Benchmark dashboard ${Date.now()}`,
      config: {
        flags: ['grid_layout'],
        widgets,
        dateRanges: { main: { preset: 'last_90_days' }, compare: { preset: 'preceding_period' } },
      },
    },
  });
  if (!created.ok()) throw new Error(`Creating the dashboard failed: ${created.status()} ${await created.text()}`);
  const { data: report } = (await created.json()) as { data: { id: number } };
  return {
    url: `/workspaces/${workspaceId}/reports/dashboard/${report.id}`,
    widgets: widgets.length,
    label: `Dashboard of ${widgets.length} widgets on ${BENCH_DATASET}, ${rows} rows`,
    nextDay,
  };
}

/** `--demo`: the demo workspace's Default Dashboard over the demo data, as a new user meets it after `npm start`. */
async function demoDashboard(request: APIRequestContext) {
  const me = (await (await request.get('/api/me')).json()) as { workspaces: { id: number; name: string }[] };
  const workspace = me.workspaces.find((candidate) => candidate.name === 'Acme Retail');
  if (!workspace) throw new Error('The demo workspace Acme Retail is missing');
  const listed = (await (await request.get(`/api/workspaces/${workspace.id}/reports`)).json()) as {
    data: { id: number; type: string; title: string }[];
  };
  const found = listed.data.find((report) => report.type === 'dashboard' && report.title === 'Default Dashboard');
  if (!found) throw new Error('The demo workspace has no Default Dashboard');
  const opened = (await (
    await request.get(`/api/workspaces/${workspace.id}/reports/dashboard/${found.id}`)
  ).json()) as {
    data: { config: { widgets: unknown[] } };
  };
  const widgets = opened.data.config.widgets.length;
  return {
    url: `/workspaces/${workspace.id}/reports/dashboard/${found.id}`,
    widgets,
    label: `The demo Default Dashboard (${widgets} widgets over the demo data)`,
  };
}

async function main() {
  if (!fs.existsSync(path.resolve('dist/index.html'))) {
    console.error('No production build found: run `npm run build` first.');
    process.exit(1);
  }
  console.log(`Machine at the start: ${machineState()}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-bench-dashboard-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = await startServer(dataDir, port);
  const browser = await chromium.launch(browserOptions);
  const profiles: string[] = [];
  try {
    if (values.bundles) await compareBundles(browser, baseURL);
    const storageState = await signIn(browser, baseURL);
    const context = await browser.newContext({ baseURL, storageState, viewport: { width: 1600, height: 1000 } });
    const { url, widgets, label, nextDay } = values.demo
      ? { ...(await demoDashboard(context.request)), nextDay: undefined }
      : await benchDashboard(context.request, dataDir);
    // Each round's cold open reads the first day, its reload the next (the first cold open builds its file).
    const importDay = (day: 'first' | 'next') =>
      nextDay && importBenchSource(dataDir, nextDay.workspaceId, nextDay[day], BENCH_DATASET);
    const reloadName = nextDay ? "reload on the next day's data" : 'warm reload';
    await context.close();

    const cold: Run[] = [];
    const warm: Run[] = [];
    const secondReload: Run[] = [];
    const dateChange: Run[] = [];
    const keptWaits: Awaited<ReturnType<typeof answersKept>>[] = [];
    const resident: number[] = [];
    const hiddenResident: Awaited<ReturnType<typeof hiddenTabResident>>[] = [];
    const coldSteps: Breakdown[] = [];
    const browserStarts: Awaited<ReturnType<typeof browserStartDone>>[] = [];
    const warmSteps: Breakdown[] = [];
    for (let round = 0; round < repeats; round++) {
      if (round > 0) await importDay('first');
      // Cold: a fresh browser context (no HTTP cache, no workers): download, start the engine, query, render.
      // With --disk-profile, a fresh on-disk profile as a user's browser has: an in-memory context's cache drops
      // entries of more than a few MB (the .wasm, the dataset at 10^6 rows), so its warm reload downloads again.
      const viewport = { width: 1600, height: 1000 };
      let fresh: BrowserContext;
      let browserPid: number | undefined;
      if (values['disk-profile']) {
        const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-bench-profile-'));
        profiles.push(profile);
        fresh = await chromium.launchPersistentContext(profile, { ...browserOptions, baseURL, viewport });
        await fresh.addCookies(storageState.cookies);
        browserPid = browserWithProfile(profile);
      } else {
        fresh = await browser.newContext({ baseURL, storageState, viewport });
        browserPid = browserStartedHere();
      }
      await fresh.addInitScript(WATCH_WIDGETS);
      const wasmRequests = recordWasmRequests(fresh);
      const page = await fresh.newPage();
      // A network's round trip and download speed (the page's requests; loopback has neither limit): `--latency`
      // ms more per request, `--mbps` megabits a second at most.
      if (Number(values.latency) > 0 || Number(values.mbps) > 0) {
        const network = await fresh.newCDPSession(page);
        await network.send('Network.enable');
        await network.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: Number(values.latency),
          downloadThroughput: Number(values.mbps) > 0 ? (Number(values.mbps) * 1_000_000) / 8 : -1,
          uploadThroughput: -1,
        });
      }
      // A user opens the dashboard in a browser already running: a fresh one's own start is waited for, not measured.
      if (values['disk-profile'] && !values['at-launch']) browserStarts.push(await browserStartDone(browserPid));
      const lastRound = round === repeats - 1;
      let stopProfile = values['cpu-profile'] && lastRound ? await startCpuProfile(page) : undefined;
      const stopColdTrace = values.timeline && lastRound ? await startTimelineTrace(page) : undefined;
      let faultsBefore = faultSnapshot(browserPid);
      await page.goto(url);
      let rendered = await allRendered(page, widgets);
      let touched = faultsBetween(faultsBefore, faultSnapshot(browserPid));
      if (stopColdTrace) printTrace(await stopColdTrace(), 'cold open');
      if (stopProfile) reportCpuProfile(await stopProfile(), path.resolve('dist'), 'cold open');
      const failed = await page.locator('[data-widget-id]:has([role="alert"])').count();
      if (failed) throw new Error(`${failed} widgets show an error instead of their numbers`);
      if (round === 0 && values.screenshot) await page.screenshot({ path: `${values.screenshot}-light.png` });
      let engine = await engineSpan(page, 0);
      cold.push({ renderMs: rendered, engineMs: engine.lastEnd, queries: engine.queries });
      coldSteps.push(await breakdown(page, wasmRequests, touched));
      if (values.waterfall && lastRound) await printWaterfall(page, 'cold');
      keptWaits.push(await answersKept(page, engine.queries, rendered));
      // What the tab holds once the open has settled (its engine started, its answers kept).
      resident.push(tabResidentBytes(browserPid));

      // Warm: the same tab reloaded: the dataset comes back as a 304 and its kept copy, the engine starts again.
      // With --next-day, the dataset has changed since: a new file, new queries, the engine's code from the cache.
      await importDay('next');
      stopProfile = values['cpu-profile'] && lastRound ? await startCpuProfile(page) : undefined;
      const stopTrace = values.timeline && lastRound ? await startTimelineTrace(page) : undefined;
      faultsBefore = faultSnapshot(browserPid);
      await page.reload();
      rendered = nextDay ? await newNumbersDrawn(page, widgets, engine.queries) : await allRendered(page, widgets);
      touched = faultsBetween(faultsBefore, faultSnapshot(browserPid));
      if (stopTrace) printTrace(await stopTrace(), 'warm reload');
      if (stopProfile) reportCpuProfile(await stopProfile(), path.resolve('dist'), 'warm reload');
      engine = await engineSpan(page, 0);
      warm.push({ renderMs: rendered, engineMs: engine.lastEnd, queries: engine.queries });
      warmSteps.push(await breakdown(page, wasmRequests, touched));
      if (values.waterfall && lastRound) await printWaterfall(page, 'warm');
      if (values['second-reload']) {
        // A reopened dashboard's second reload: Chromium keeps compiled code for the scripts run on the first
        // reload (its code cache) and uses it from the next load on, as a returning user's browser does.
        await page.reload();
        rendered = await allRendered(page, widgets);
        engine = await engineSpan(page, 0);
        secondReload.push({ renderMs: rendered, engineMs: engine.lastEnd, queries: engine.queries });
        if (values.waterfall && lastRound) await printWaterfall(page, 'second reload');
      }
      if (values['skip-date-change']) {
        hiddenResident.push(await hiddenTabResident(page, browserPid, widgets));
        await fresh.close();
        continue;
      }

      // The engine's steady state: a reload of kept answers starts DuckDB only once they are drawn (src/app/main.tsx),
      // so the date changes wait until a worker holds the dataset, as it does a few seconds into a user's reading.
      await until(page, { kind: 'entries', name: DATASET_INSERT_MEASURE, count: 1 });
      // A date change: every widget queries again; render-complete against the engine's span for those queries.
      for (const preset of ['Last 28 days', 'Last 14 days']) {
        await page.locator('.or-range-button').click();
        await page.getByRole('menuitem', { name: preset }).click();
        // From the click's arrival in the page: Playwright's checks before it clicks are not the page's time.
        await page.evaluate(watchEvent('click'));
        const profileDateChange = values['cpu-profile'] && lastRound && preset === 'Last 14 days';
        stopProfile = profileDateChange ? await startCpuProfile(page) : undefined;
        await page.getByRole('button', { name: 'Apply' }).click();
        const clicked = await eventTime(page);
        // The widgets switch to loading in the commit that applies the range, before any query can end: once a
        // query of the new range has finished, 'no widget loading' means every widget shows the new range.
        await until(page, { kind: 'entry-since', name: ENGINE_QUERY_MEASURE, since: clicked });
        rendered = await allRendered(page, widgets);
        if (stopProfile) reportCpuProfile(await stopProfile(), path.resolve('dist'), 'date change', 4);
        engine = await engineSpan(page, clicked);
        const ran = (await readWorkerSpans(page, await page.evaluate(() => performance.timeOrigin))).filter(
          (span) => span.name === workerSpans.query && span.start >= clicked,
        );
        dateChange.push({
          workerQueryMs: ran.map((span) => span.end - span.start),
          workerOfQuery: ran.map((span) => span.worker),
          renderMs: rendered - clicked,
          engineMs: engine.spanMs,
          queries: engine.queries,
          queryMs: engine.durations,
          beforeEngineMs: engine.firstStart - clicked,
          afterEngineMs: rendered - engine.lastEnd,
          ...(await page.evaluate(
            ({ insert, since }) => {
              const loads = performance.getEntriesByName(insert).filter((entry) => entry.startTime >= since);
              return { loads: loads.length, loadMs: loads.reduce((sum, entry) => sum + entry.duration, 0) };
            },
            { insert: DATASET_INSERT_MEASURE, since: clicked },
          )),
        });
      }
      if (round === 0 && values.screenshot) {
        await page.evaluate(() => window.localStorage.setItem('darkMode', 'dark'));
        await page.reload();
        await allRendered(page, widgets);
        await page.screenshot({ path: `${values.screenshot}-dark.png` });
      }
      hiddenResident.push(await hiddenTabResident(page, browserPid, widgets));
      await fresh.close();
    }

    const row = (name: string, runs: Run[]) => {
      const render = median(runs.map((run) => run.renderMs));
      const engine = median(runs.map((run) => run.engineMs));
      return `| ${name} | ${ms(render)} | ${ms(engine)} | ${(render / engine).toFixed(2)} | ${median(runs.map((run) => run.queries))} |`;
    };
    console.log(`\n${label} (median of ${repeats}):`);
    console.log('| scenario | render complete | engine | ratio | queries |');
    console.log('|---|---|---|---|---|');
    console.log(row('cold (navigation → rendered; engine: navigation → last query done)', cold));
    console.log(row(`${reloadName} (same)`, warm));
    if (secondReload.length) console.log(row('second reload (same)', secondReload));
    // Each round's figure too: the first cold round after the server's start also waits for the files it builds.
    const rounds = (runs: Run[]) => runs.map((run) => ms(run.renderMs)).join(' / ');
    if (browserStarts.length)
      console.log(
        "The fresh browser's own start, waited for before each cold open (by round): " +
          browserStarts.map(({ waitedMs, cpuMs }) => `${ms(waitedMs)} (${ms(cpuMs)} of CPU)`).join(' / '),
      );
    console.log(`Render complete by round: cold ${rounds(cold)}; ${reloadName} ${rounds(warm)}`);
    const inView = (steps: Breakdown[]) => steps.map((step) => ms(step.inViewWidgets)).join(' / ');
    console.log(
      `Widgets in view, all their numbers by round: cold ${inView(coldSteps)}; ${reloadName} ${inView(warmSteps)}`,
    );
    const keptRounds = keptWaits.map(
      (wait) => `${wait.first.kept} (${ms(wait.first.afterMs)}) → ${wait.kept} (${ms(wait.afterMs)})`,
    );
    console.log(
      `Answers kept before the reload, by round: at the first look → in the end (ms after the numbers): ${keptRounds.join(' / ')}`,
    );
    console.log(
      `The tab's renderer, resident once the cold open's answers are kept, by round: ${resident.map(mib).join(' / ')}`,
    );
    console.log(
      "The same at the round's end → hidden five minutes (engine ended) → back in view (engine started again, two " +
        `date changes), by round: ${hiddenResident.map(({ before, hidden, back }) => [before, hidden, back].map(mib).join(' → ')).join(' / ')}`,
    );
    console.log(
      `The page's array buffers (the datasets' files among them) at the same moments, by round: ` +
        hiddenResident
          .map(({ buffers }) => [buffers.before, buffers.hidden, buffers.back].map(mib).join(' → '))
          .join(' / '),
    );
    const returns = hiddenResident.map(
      ({ firstChangeMs, nextChangeMs }) => `${ms(firstChangeMs)} → ${ms(nextChangeMs)}`,
    );
    console.log(
      `Back in view, a date change at once (engine starting again) → the next (engine ready), Apply → drawn, by round: ${returns.join(' / ')}; ` +
        `ratio of the medians ${(median(hiddenResident.map((run) => run.firstChangeMs)) / median(hiddenResident.map((run) => run.nextChangeMs))).toFixed(2)}`,
    );
    if (dateChange.length) {
      console.log(row('date change (Apply → rendered; engine: first query start → last end)', dateChange));
      const part = (key: 'beforeEngineMs' | 'afterEngineMs' | 'loadMs') =>
        ms(median(dateChange.map((run) => run[key] ?? NaN)));
      console.log(
        `Date change, outside the engine: click → first query ${part('beforeEngineMs')}, last query → every ` +
          `widget drawn ${part('afterEngineMs')}; dataset loads into a worker meanwhile: ` +
          `${dateChange.map((run) => run.loads).join(', ')} (${part('loadMs')})`,
      );
      const spread = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 95))}`;
      const durations = dateChange.flatMap((run) => run.queryMs ?? []);
      console.log(`Date change, per-widget query p50 / p95 (all date changes' queries): ${spread(durations)}`);
      // The statements' own runs: the engine's per-query time, without the page's wait.
      const inWorkers = dateChange.flatMap((run) => run.workerQueryMs ?? []);
      console.log(`Date change, per-widget query p50 / p95 in the workers: ${spread(inWorkers)}`);
      const byWorker = dateChange.map((run) =>
        (run.workerQueryMs ?? []).map((duration, i) => `${ms(duration)} (w${run.workerOfQuery?.[i]})`).join(', '),
      );
      console.log(`Date change, each query in its worker, by change: ${byWorker.join('; ')}`);
      // The first change of a round runs in a worker that has answered nothing since the reload started it.
      const byChange = dateChange.map((run) => spread(run.queryMs ?? []));
      console.log(
        `Date change, per-widget query p50 / p95 by change (each round's first, then its second): ${byChange.join('; ')}`,
      );
    }
    printBreakdown(coldSteps, warmSteps, reloadName);
    console.log(`\nMachine at the end: ${machineState()}`);
  } finally {
    await browser.close();
    for (const profile of profiles) fs.rmSync(profile, { recursive: true, force: true });
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
