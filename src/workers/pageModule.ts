import { type WorkerCompiler, chooseBundle, compileDuckdb, workerCompiler } from './duckdbModule';
import { DUCKDB_MODULE_URLS } from './duckdbUrls';
import { type CompiledDuckdb, type DuckdbBundle } from './protocol';

let compiled: Promise<CompiledDuckdb> | undefined;
/** The compiling worker and the page's side of it, kept for the page's life (see duckdbCompile.worker.ts). */
let compiler: WorkerCompiler | undefined;
/** The build whose module the compiling worker is compiling or has compiled for `compiled`, if it is compiling it. */
let inWorker: { bundle: DuckdbBundle; compiler: WorkerCompiler } | undefined;

/**
 * Starts the compiling worker before the module is asked for (as a report's page starts, src/app/compileAhead.ts),
 * so that it is running when the module is asked for. It asks for nothing itself until then.
 */
export function prepareCompiler(): WorkerCompiler | undefined {
  if (compiler) return compiler;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./duckdbCompile.worker.ts', import.meta.url), { name: 'duckdb-compile' });
  } catch {
    return undefined;
  }
  compiler = workerCompiler(worker, () => {
    worker.terminate();
    compiler = undefined;
  });
  return compiler;
}

/**
 * The page's one compiled DuckDB module, handed to every worker of the pool; compiled again only after a failure.
 * Compiled in the compiling worker, or on the page where that worker cannot start. Free of the engine's client code,
 * so the page's first module can ask for it (src/app/compileAhead.ts).
 */
export function duckdbModule(): Promise<CompiledDuckdb> {
  compiled ??= (async () => {
    const bundle = chooseBundle();
    const inWorkerCompiler = prepareCompiler();
    inWorker = inWorkerCompiler && { bundle, compiler: inWorkerCompiler };
    const compile = inWorkerCompiler ?? ((url) => compileDuckdb(url));
    return { bundle, module: await compile(DUCKDB_MODULE_URLS[bundle]) };
  })();
  compiled.catch(() => {
    compiled = undefined;
    inWorker = undefined;
  });
  return compiled;
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
