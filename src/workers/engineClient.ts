import { releaseProxy, transfer, wrap } from 'comlink';
import { isPublicReportPath } from '../app/enginePaths';
import { watchHiddenTab } from './hiddenTab';
import { whenIdle } from './idle';
import { type KeptResults, browserKeptResults, noteAnswersKept } from './keptResults';
import { duckdbModule, forwardModule, releaseDuckdbModule } from './pageModule';
import { type WorkerHandle, type EnginePool, createPool, poolSize } from './pool';
import { type BrowserWorkerApi, type EngineWorkerApi } from './protocol';
import { ENGINE_START_MEASURE } from './timeline';

/**
 * Starts one DuckDB worker and hands it the page's compiled module (compiled once for every worker; when that
 * fails, the worker compiles its own): from the compiling worker straight, while it is being compiled there, and from
 * the page. `workers` collects the raw workers, so a browser test can kill one mid-query.
 */
export function spawnBrowserWorker(workers: Worker[] = []): WorkerHandle {
  const worker = new Worker(new URL('./duckdb.worker.ts', import.meta.url), { name: 'duckdb' });
  workers.push(worker);
  const api = wrap<BrowserWorkerApi>(worker);
  const module = duckdbModule();
  const forwarded = forwardModule();
  if (forwarded) api.useModuleFrom(transfer(forwarded.port, [forwarded.port]), forwarded.bundle).catch(() => undefined);
  module
    .then(
      (compiled) => compiled,
      () => null,
    )
    .then((compiled) => api.useModule(compiled))
    // The worker was stopped before the module was ready: nobody waits for it.
    .catch(() => undefined);
  const spawnedAt = performance.now();
  // Asking for the version opens DuckDB at once; the span shows the benchmark what a worker's start costs.
  api.version().then(
    () => performance.measure(ENGINE_START_MEASURE, { start: spawnedAt, end: performance.now() }),
    () => undefined,
  );
  return {
    // Every method of the API already returns a promise, so the Comlink remote has the same shape.
    api: api as unknown as EngineWorkerApi,
    terminate: () => {
      api[releaseProxy]();
      worker.terminate();
    },
    onExit: (listener) => worker.addEventListener('error', (event) => listener(event.message || 'worker error')),
  };
}

let pool: EnginePool | undefined;

/** How long after the engine starts the kept answers are pruned. */
const KEPT_PRUNE_DELAY_MS = 30_000;

/**
 * The kept answers, each noted for the page that asked for it (read before the put, which waits for an idle moment
 * the user may spend navigating away): that page's next load may wait to start the engine.
 */
function notingPages(kept: KeptResults): KeptResults {
  return {
    ...kept,
    async put(key, bytes) {
      const page = location.pathname;
      await kept.put(key, bytes);
      noteAnswersKept(localStorage, page);
    },
  };
}

/**
 * The app's one pool of query workers, sized to the machine and started lazily. Answers are kept between visits for
 * signed-in users only: a public report's page keeps neither its datasets nor their answers.
 */
export function getPool(): EnginePool {
  if (pool) return pool;
  const nav = navigator as Navigator & { deviceMemory?: number };
  const store = isPublicReportPath(location.pathname) ? undefined : browserKeptResults();
  const kept = store && notingPages(store);
  // The stale answers of earlier visits, and the oldest beyond the budget, go once the page has opened, not while it
  // opens: pruning reads every kept answer's headers.
  if (kept) setTimeout(() => void kept.prune(), KEPT_PRUNE_DELAY_MS);
  pool = createPool({
    spawn: () => spawnBrowserWorker(),
    size: poolSize(nav.hardwareConcurrency, nav.deviceMemory),
    parallelStarts: warmWorkers(nav.hardwareConcurrency) > 1,
    kept,
  });
  const started = pool;
  watchHiddenTab({
    doc: document,
    shed: () => {
      if (!started.shed()) return false;
      releaseDuckdbModule();
      return true;
    },
    resume: () => void whenIdle(RESUME_IDLE_MS).then(() => started.warm(warmWorkers(nav.hardwareConcurrency))),
  });
  return pool;
}

/** The longest a tab back in view waits for an idle moment before its engine starts again. */
const RESUME_IDLE_MS = 2_000;

/**
 * Workers started with the engine: one, and a second where the machine has cores to spare. A dashboard's first burst
 * splits over two workers, and a second one started only when the burst arrives is ready late; but each start is a
 * second or more of CPU, and on 2 cores two starts at once slowed the first worker's (2.5 → 3.6 s) and the whole
 * cold open at 10^6 rows (5.7 → 7.0 s; bench/README.md). With 4 cores or more (not measured here) both start at once.
 */
function warmWorkers(cores: number | undefined): number {
  return (cores ?? 2) >= 4 ? 2 : 1;
}

/**
 * Starts the engine ahead of any dataset (on the way into the reports area): the .wasm downloads and compiles and
 * the first workers open DuckDB while the report and its datasets are still on the way. With `afterKeptAnswers`
 * (a reload of a page whose answers were kept, src/app/main.tsx), once they are drawn or a query needs it.
 */
export function startEngine(afterKeptAnswers = false): void {
  const count = warmWorkers(navigator.hardwareConcurrency);
  if (afterKeptAnswers) getPool().warmAfterKept(count);
  else getPool().warm(count);
  whenIdle(FORMATS_WAIT_MS)
    .then(warmUpFormats)
    .catch(() => undefined);
}

/** The longest the formatters' warm-up waits for an idle moment. */
const FORMATS_WAIT_MS = 2_000;

/**
 * A page's first number and date formatters cost 10–30 ms (Chromium loads ICU's data for them), the next ones next
 * to nothing, whatever their locale and options: made while the engine starts, so the first widget to show its
 * numbers does not pay for it (bench/README.md).
 */
function warmUpFormats(): void {
  new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(1);
  new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(0);
}

/** A dataset-less view of the pool, for the home page's engine check. */
export function getEngine(): { version(): Promise<string>; query(sql: string): Promise<Uint8Array> } {
  const engine = getPool();
  return { version: () => engine.version(), query: (sql) => engine.query({ sql }) };
}
