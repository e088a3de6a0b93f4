import { type CompileModule, chooseBundle, compileDuckdb, workerCompiler } from './duckdbModule';
import { DUCKDB_MODULE_URLS } from './duckdbUrls';
import { type CompiledDuckdb } from './protocol';

let compiled: Promise<CompiledDuckdb> | undefined;
/** The compiling worker and the page's side of it, kept for the page's life (see duckdbCompile.worker.ts). */
let compiler: CompileModule | undefined;

/**
 * Starts the compiling worker before the module is asked for (as a report's page starts, src/app/compileAhead.ts),
 * so that it is running when the module is asked for. It asks for nothing itself until then.
 */
export function prepareCompiler(): CompileModule | undefined {
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
    const compile = prepareCompiler() ?? ((url) => compileDuckdb(url));
    return { bundle, module: await compile(DUCKDB_MODULE_URLS[bundle]) };
  })();
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}
