import { type CompileReply, type CompileRequest, type DuckdbBundle } from './protocol';
import { keepThreadTimeline, recordWorkerSpan, threadTimeline, workerSpans } from './timeline';

/** The compiling worker's name, as its spans copied into the page's timeline name their thread. */
export const COMPILER_THREAD = 'duckdb-compile';

/** A module with one `try` over an exception tag: valid only where WebAssembly exceptions are (DuckDB's probe). */
const EXCEPTIONS_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11,
]);

/**
 * The exception-handling build where the browser supports it: measured (bench/README.md, `npm run
 * bench:dashboard`) smaller and faster to compile than the mvp build; mvp remains for browsers without.
 */
export function chooseBundle(): DuckdbBundle {
  return WebAssembly.validate(EXCEPTIONS_PROBE) ? 'eh' : 'mvp';
}

/** One attempt may not take longer than this: a stalled response must end in a retry, never in a wait. */
export const MODULE_ATTEMPT_MS = 60_000;
const MODULE_ATTEMPTS = 3;

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`The DuckDB module did not arrive within ${ms / 1000} s`));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The error of a response that brought no module: the same words wherever the module is fetched. */
export const moduleHttpError = (status: number) => new Error(`HTTP ${status} for the DuckDB module`);

/**
 * Compiles the module while it downloads (`compileStreaming`, straight from the HTTP response: in the compiling
 * worker, see workerCompiler, or on the page where that worker cannot start), and a reload takes the module from the
 * HTTP cache. A broken or stalled response (Chromium once failed to write the module to its disk cache after a reload
 * interrupted the previous copy, and the stream neither ended nor failed) is aborted after a timeout and fetched again
 * past the HTTP cache; the last attempt compiles from bytes read into memory, which needs no streaming at all.
 */
export async function compileDuckdb(
  url: string,
  fetchFn: typeof fetch = fetch,
  attemptMs = MODULE_ATTEMPT_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<WebAssembly.Module> {
  for (let attempt = 1; ; attempt++) {
    const controller = new AbortController();
    const init: RequestInit = {
      credentials: 'same-origin',
      signal: controller.signal,
      cache: attempt === 1 ? 'default' : 'reload',
    };
    try {
      const work =
        attempt < MODULE_ATTEMPTS
          ? WebAssembly.compileStreaming(fetchFn(url, init))
          : fetchFn(url, init).then(async (response) => {
              if (!response.ok) throw moduleHttpError(response.status);
              return WebAssembly.compile(await response.arrayBuffer());
            });
      return await withTimeout(work, attemptMs, () => controller.abort());
    } catch (error) {
      if (attempt >= MODULE_ATTEMPTS) throw error;
      await sleep(500 * attempt);
    }
  }
}

/** The compiling worker (duckdbCompile.worker.ts), or any port to it, as far as the page uses it. */
export type CompilerPort = Pick<Worker, 'postMessage' | 'onmessage' | 'onerror'>;

/** Compiles the module at a URL: in the compiling worker, or on the page. */
export type CompileModule = (url: string) => Promise<WebAssembly.Module>;

/** A compilation in the compiling worker, whose module that worker can also post straight to a DuckDB worker. */
export type WorkerCompiler = CompileModule & {
  /** The module compiled (or compiling) from `url` goes to `port` too, once it is ready; nothing goes on a failure. */
  forward(url: string, port: MessagePort): void;
};

/**
 * The page's side of a compilation in the compiling worker, which downloads and compiles the module itself
 * (compileDuckdb, with its retries), so that neither the download nor the decoding of 34 MB waits for the page's
 * thread: a page busy evaluating its scripts and drawing took 2.3 s to read the module's bytes on a cold open of the
 * demo (bench/README.md). `onBroken` hears of a worker that could not start; its compilations fail, and the next
 * attempt is the caller's.
 */
export function workerCompiler(worker: CompilerPort, onBroken: () => void = () => undefined): WorkerCompiler {
  let nextId = 0;
  const pending = new Map<number, { resolve: (module: WebAssembly.Module) => void; reject: (error: Error) => void }>();
  worker.onmessage = ({ data }: MessageEvent<CompileReply>) => {
    const waiting = pending.get(data.id);
    pending.delete(data.id);
    if ('module' in data) {
      // The worker ends once the page holds the module (pageModule.ts): its spans live on in the page's timeline.
      keepThreadTimeline(data.timeline, COMPILER_THREAD);
      waiting?.resolve(data.module);
    } else waiting?.reject(new Error(data.error));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    onBroken();
    for (const waiting of pending.values()) waiting.reject(new Error('The worker compiling DuckDB did not start'));
    pending.clear();
  };
  const compile: CompileModule = (url) => {
    const id = nextId++;
    const compiled = new Promise<WebAssembly.Module>((resolve, reject) => pending.set(id, { resolve, reject }));
    worker.postMessage({ id, url } satisfies CompileRequest);
    return compiled;
  };
  const forward = (url: string, port: MessagePort) =>
    worker.postMessage({ url, forwardTo: port } satisfies CompileRequest, [port]);
  return Object.assign(compile, { forward });
}

/** The compiling worker's own end: its global scope, or a port in a test. */
export interface CompilationsPort {
  onmessage: ((event: MessageEvent<CompileRequest>) => void) | null;
  postMessage(message: CompileReply): void;
}

/**
 * The compiling worker's side: each request's module downloaded and compiled here; the answer is it, or why not. The
 * latest compilation of each URL is kept for the forwards that ask for it (ModuleForward): a forward before any
 * compilation of its URL, or after a failed one, sends nothing (it closes the channel), and the page's own answer
 * reaches that worker instead.
 */
export function serveCompilations(port: CompilationsPort, compile: CompileModule = (url) => compileDuckdb(url)): void {
  const latest = new Map<string, Promise<WebAssembly.Module>>();
  // Each answer carries the spans and requests that ended since the last one.
  let reportedUntil = 0;
  port.onmessage = ({ data }) => {
    if ('forwardTo' in data) {
      // With nothing to send, the channel is closed, so that neither end stays open for the worker's life.
      const nothing = () => data.forwardTo.close();
      const compiling = latest.get(data.url);
      if (compiling) compiling.then((module) => data.forwardTo.postMessage(module), nothing);
      else nothing();
      return;
    }
    const { id, url } = data;
    const started = performance.now();
    const compiling = compile(url);
    latest.set(url, compiling);
    compiling.then(
      (module) => {
        recordWorkerSpan(workerSpans.compile, started);
        const timeline = threadTimeline(reportedUntil);
        reportedUntil = performance.now();
        port.postMessage({ id, module, timeline });
      },
      (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
    );
  };
}
