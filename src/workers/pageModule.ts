import { type WorkerCompiler, chooseBundle, compileDuckdb, workerCompiler } from './duckdbModule';
import { DUCKDB_MODULE_URLS } from './duckdbUrls';
import { whenIdle } from './idle';
import { type CompiledDuckdb, type DuckdbBundle } from './protocol';

let compiled: Promise<CompiledDuckdb> | undefined;
/** `compiled` has its module (a failed one is forgotten at once). */
let compiledReady = false;
/** The compiling worker and the page's side of it (see duckdbCompile.worker.ts), until it is broken or retired. */
let compiler: { compile: WorkerCompiler; stop(): void } | undefined;
/** The build whose module the compiling worker is compiling or has compiled for `compiled`, if it is compiling it. */
let inWorker: { bundle: DuckdbBundle; compiler: WorkerCompiler } | undefined;

/** The longest the compiling worker outlives the module's arrival while the page stays busy. */
const RETIRE_WITHIN_MS = 10_000;

/**
 * Starts the compiling worker before the module is asked for (as a report's page starts, src/app/compileAhead.ts),
 * so that it is running when the module is asked for. It asks for nothing itself until then.
 */
export function prepareCompiler(): WorkerCompiler | undefined {
  if (compiler) return compiler.compile;
  let worker: Worker;
  try {
    // Its name is its chunk's (webpack reads it here) and the thread its spans name (COMPILER_THREAD).
    worker = new Worker(new URL('./duckdbCompile.worker.ts', import.meta.url), { name: 'duckdb-compile' });
  } catch {
    return undefined;
  }
  const stop = () => {
    worker.terminate();
    if (compiler?.stop !== stop) return;
    compiler = undefined;
    inWorker = undefined;
  };
  compiler = { compile: workerCompiler(worker, stop), stop };
  return compiler.compile;
}

/**
 * Ends the compiling worker once the page holds its module and has an idle moment. A DuckDB worker started from then
 * on gets the module from the page at once, and the compiling worker held about 45 MiB of a settled tab's memory
 * (bench/README.md). Its spans and requests are in the page's timeline (keepThreadTimeline).
 */
function retireCompiler(): void {
  const retiring = compiler;
  void whenIdle(RETIRE_WITHIN_MS).then(() => {
    if (compiler === retiring) retiring?.stop();
  });
}

/**
 * The page's one compiled DuckDB module, handed to every worker of the pool; compiled again only after a failure.
 * Compiled in the compiling worker, or on the page where that worker cannot start. Free of the engine's client code,
 * so the page's first module can ask for it (src/app/compileAhead.ts).
 */
export function duckdbModule(): Promise<CompiledDuckdb> {
  compiled ??= startCompiling();
  return compiled;
}

/** Compiles the module once; marks it ready, or forgets it on a failure, as long as it is still the page's. */
function startCompiling(): Promise<CompiledDuckdb> {
  const current = (async () => {
    const bundle = chooseBundle();
    const inWorkerCompiler = prepareCompiler();
    inWorker = inWorkerCompiler && { bundle, compiler: inWorkerCompiler };
    const compile = inWorkerCompiler ?? ((url) => compileDuckdb(url));
    const module = await compile(DUCKDB_MODULE_URLS[bundle]);
    if (inWorkerCompiler) retireCompiler();
    return { bundle, module };
  })();
  current.then(
    () => {
      if (compiled === current) compiledReady = true;
    },
    () => {
      if (compiled !== current) return;
      compiled = undefined;
      inWorker = undefined;
    },
  );
  return current;
}

/**
 * Lets go of the page's module once the pool has ended its workers (a hidden tab, hiddenTab.ts), so that its
 * compiled code can be freed with them; the next worker's start downloads (from the HTTP cache) and compiles it
 * again. A compilation still under way is kept.
 */
export function releaseDuckdbModule(): void {
  if (!compiledReady) return;
  compiled = undefined;
  compiledReady = false;
  compiler?.stop();
}

/**
 * A channel on which the compiling worker posts the page's module, as well as to the page, for a new DuckDB worker
 * (engineClient.ts): the page's thread, busy evaluating its scripts and drawing as a report opens, passed the module
 * on 60–450 ms after it was compiled (bench/README.md). Its end for that worker and the module's build, or undefined
 * where the module is not compiled in that worker (the worker then hears of it from the page only).
 */
export function forwardModule(): { port: MessagePort; bundle: DuckdbBundle } | undefined {
  if (!inWorker) return undefined;
  const { port1, port2 } = new MessageChannel();
  inWorker.compiler.forward(DUCKDB_MODULE_URLS[inWorker.bundle], port1);
  return { port: port2, bundle: inWorker.bundle };
}
