// First: no schema may be made before zod is told not to use eval (see noEval.ts).
import '../app/noEval';
// Aliased in webpack.config.ts and tsconfig.json: the package does not export its browser blocking build.
import * as duckdb from '@duckdb/duckdb-wasm/browser-blocking';
import { expose, transfer } from 'comlink';
import { chooseBundle, moduleHttpError } from './duckdbModule';
import { DUCKDB_MODULE_URLS } from './duckdbUrls';
import { createEngineCore, openedDuckdb } from './engineCore';
import { type BrowserWorkerApi, type CompiledDuckdb } from './protocol';
import { recordWorkerSpan, workerSpans } from './timeline';

const MODULE_FETCH_ATTEMPTS = 3;

/**
 * The fallback when the page could not compile the module: its bytes as an in-memory URL for DuckDB's own loader.
 * That loader compiles straight from the HTTP response and, when the stream breaks, neither answers nor fails;
 * read here, a broken download is an error we can retry.
 */
async function moduleUrl(url: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw moduleHttpError(response.status);
      return URL.createObjectURL(new Blob([await response.arrayBuffer()], { type: 'application/wasm' }));
    } catch (error) {
      if (attempt >= MODULE_FETCH_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** DuckDB's bindings choose the eh build when both are given and the browser can run it: give only the one we want. */
const bundlesFor = (bundle: 'eh' | 'mvp', url: string): duckdb.DuckDBBundles =>
  bundle === 'eh'
    ? { mvp: { mainModule: url, mainWorker: '' }, eh: { mainModule: url, mainWorker: '' } }
    : { mvp: { mainModule: url, mainWorker: '' } };

type InstantiateWasm = (
  imports: WebAssembly.Imports,
  success: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
) => unknown;

/**
 * Instantiates the page's compiled module: DuckDB's bindings hand Emscripten their own `instantiateWasm` (which
 * fetches and compiles), so the instance's method is replaced. It must also publish the runtime as the original
 * does: the module's imports reach the file system through it.
 */
async function instantiateCompiled(db: duckdb.DuckDBBindings, compiled: CompiledDuckdb): Promise<void> {
  let failed: (error: unknown) => void = () => undefined;
  const failure = new Promise<never>((_resolve, reject) => (failed = reject));
  const bindings = db as unknown as { instantiateWasm: InstantiateWasm };
  bindings.instantiateWasm = (imports, success) => {
    (globalThis as unknown as { DUCKDB_RUNTIME: unknown }).DUCKDB_RUNTIME = duckdb.BROWSER_RUNTIME;
    // Emscripten has no way to hear of a failure here: the race below turns it into an error.
    const started = performance.now();
    WebAssembly.instantiate(compiled.module, imports).then((instance) => {
      recordWorkerSpan(workerSpans.instantiateModule, started);
      success(instance, compiled.module);
    }, failed);
    return {};
  };
  await Promise.race([db.instantiate(() => undefined), failure]);
}

let provide: (compiled: CompiledDuckdb | null) => void = () => undefined;
const provided = new Promise<CompiledDuckdb | null>((resolve) => (provide = resolve));

/** One synchronous DuckDB-WASM instance per worker: queries run on this thread, one at a time. */
async function open() {
  let started = performance.now();
  const compiled = await provided;
  recordWorkerSpan(workerSpans.moduleWait, started);
  started = performance.now();
  let db: duckdb.DuckDBBindings;
  if (compiled) {
    db = await duckdb.createDuckDB(
      bundlesFor(compiled.bundle, DUCKDB_MODULE_URLS[compiled.bundle]),
      new duckdb.VoidLogger(),
      duckdb.BROWSER_RUNTIME,
    );
    await instantiateCompiled(db, compiled);
  } else {
    const bundle = chooseBundle();
    const url = await moduleUrl(DUCKDB_MODULE_URLS[bundle]);
    db = await duckdb.createDuckDB(bundlesFor(bundle, url), new duckdb.VoidLogger(), duckdb.BROWSER_RUNTIME);
    try {
      await db.instantiate(() => undefined);
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  recordWorkerSpan(workerSpans.instantiate, started);
  started = performance.now();
  db.open({});
  const conn = db.connect();
  recordWorkerSpan(workerSpans.open, started);
  started = performance.now();
  // Never reach for the internet: datasets arrive as Arrow IPC or DuckDB files, never as URLs.
  conn.query('SET autoinstall_known_extensions=false');
  conn.query('SET autoload_known_extensions=false');
  recordWorkerSpan(workerSpans.settings, started);
  return openedDuckdb(db, conn);
}

const api: BrowserWorkerApi = {
  ...createEngineCore(open, (bytes) => transfer(bytes, [bytes.buffer])),
  // The page sends its compiled module right after creating the worker; DuckDB opens once it is here.
  useModule: async (compiled) => provide(compiled),
  useModuleFrom: async (port, bundle) => {
    port.onmessage = ({ data }: MessageEvent<WebAssembly.Module>) => {
      provide({ bundle, module: data });
      port.close();
    };
  },
};
expose(api);
// From the worker's creation (its clock's origin) until its chunk has run.
recordWorkerSpan(workerSpans.chunk, 0);
