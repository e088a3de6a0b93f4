/**
 * Spans the engine leaves in the performance timeline for `npm run bench:dashboard`, which splits a dashboard's
 * open with them: where a worker's start and a dataset's load spend their time. Each thread has its own timeline
 * (and its own clock): the benchmark reads the workers' spans from each worker.
 */

/** Every worker-side span's name starts with this. */
export const WORKER_SPAN_PREFIX = 'openrate:worker:';

/** The worker-side spans: a worker's start (once per worker), then each load of a dataset (detail: its table). */
export const workerSpans = {
  /** The compiling worker's: from a compilation's start (its download is under way) until the module compiled. */
  compile: 'compile',
  /** The compiling worker's: from its creation until its chunk has run and it could take a request. */
  compilerChunk: 'compiler-chunk',
  /** From the worker's creation (its time origin) until its chunk has run. */
  chunk: 'chunk',
  /** Until the page's compiled module arrived. */
  moduleWait: 'module-wait',
  instantiate: 'instantiate',
  /** Inside `instantiate`: WebAssembly.instantiate of the page's compiled module alone (the rest is Emscripten's start). */
  instantiateModule: 'instantiate-module',
  open: 'open',
  settings: 'settings',
  attach: 'attach',
  /** A fresh instance's warm-up while it waits for its first dataset (warmUp.ts); `stopped` when work cut it short. */
  warmUp: 'warm-up',
  /** A mark's span of zero length: when the load's bytes reached the worker. */
  received: 'load-received',
  /** From receiving the bytes until DuckDB was open and the connection free. */
  wait: 'load-wait',
  insert: 'insert',
  count: 'count',
  /** A statement's run in the worker, from its turn until its answer was ready to post. */
  query: 'query',
} as const;

/** Page-side: each worker's start, from its creation until DuckDB answers (engineClient.ts). */
export const ENGINE_START_MEASURE = 'openrate:engine-start';
/** Page-side: a dataset file's download (or kept copy), from asking until its bytes are in memory. */
export const DATASET_FETCH_MEASURE = 'openrate:dataset-fetch';
/** Page-side: reading a kept copy from Cache Storage after the server's 304. */
export const KEPT_READ_MEASURE = 'openrate:dataset-kept-read';
/** Page-side: plotly's warm-up draw (charts/Plot.tsx), with the number of figures drawn. */
export const PLOT_WARM_UP_MEASURE = 'openrate:plot-warm-up';

/** Leaves a span from `start` until now (jsdom has no User Timing: skipped there). */
export function recordSpan(name: string, start: number, detail?: Record<string, unknown>): void {
  if (typeof performance === 'undefined' || typeof performance.measure !== 'function') return;
  performance.measure(name, { start, end: performance.now(), detail });
}

/** Leaves a worker-side span (see `workerSpans`). */
export function recordWorkerSpan(
  name: (typeof workerSpans)[keyof typeof workerSpans],
  start: number,
  detail?: Record<string, unknown>,
): void {
  recordSpan(WORKER_SPAN_PREFIX + name, start, detail);
}

/** Leaves a query's worker-side span; bounded, so a worker answering for days does not grow its timeline. */
export function recordQuerySpan(start: number, count: number): void {
  if (typeof performance === 'undefined' || typeof performance.measure !== 'function') return;
  if (count % 1000 === 0) performance.clearMeasures(WORKER_SPAN_PREFIX + workerSpans.query);
  recordWorkerSpan(workerSpans.query, start);
}

/** Page-side: a request made by a worker that has ended, kept with its spans (keepThreadTimeline). */
export const WORKER_REQUEST_MEASURE = 'openrate:worker-request';

/** A thread's worker-side spans and requests on the wall clock (each thread's own clock starts with the thread). */
export interface ThreadTimeline {
  spans: { name: string; start: number; end: number; detail?: unknown }[];
  requests: { url: string; start: number; end: number; transferSize: number }[];
}

/** This thread's worker-side spans and requests that ended after `since` (its own clock). */
export function threadTimeline(since = 0): ThreadTimeline {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') {
    return { spans: [], requests: [] };
  }
  const onWallClock = (time: number) => performance.timeOrigin + time;
  const spans = (performance.getEntriesByType('measure') as PerformanceMeasure[])
    .filter((entry) => entry.name.startsWith(WORKER_SPAN_PREFIX) && entry.startTime + entry.duration > since)
    .map((entry) => ({
      name: entry.name,
      start: onWallClock(entry.startTime),
      end: onWallClock(entry.startTime + entry.duration),
      detail: entry.detail ?? undefined,
    }));
  const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    .filter((entry) => entry.responseEnd > since)
    .map((entry) => ({
      url: entry.name,
      start: onWallClock(entry.startTime),
      end: onWallClock(entry.responseEnd),
      transferSize: entry.transferSize,
    }));
  return { spans, requests };
}

/**
 * Page-side: a worker's spans and requests (threadTimeline) copied into the page's timeline, on the page's clock, each
 * entry's detail naming the thread. A worker that ends once its work is done (the compiling worker, pageModule.ts)
 * leaves its timeline to the benchmark and the browser tests this way.
 */
export function keepThreadTimeline(timeline: ThreadTimeline, thread: string): void {
  if (typeof performance === 'undefined' || typeof performance.measure !== 'function') return;
  const onPageClock = (time: number) => Math.max(0, time - performance.timeOrigin);
  for (const span of timeline.spans) {
    const detail = { ...(span.detail as Record<string, unknown> | undefined), thread };
    performance.measure(span.name, { start: onPageClock(span.start), end: onPageClock(span.end), detail });
  }
  for (const { url, start, end, transferSize } of timeline.requests) {
    const detail = { thread, url, transferSize };
    performance.measure(WORKER_REQUEST_MEASURE, { start: onPageClock(start), end: onPageClock(end), detail });
  }
}
