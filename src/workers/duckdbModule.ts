import { type CompileReply, type CompileRequest, type DuckdbBundle } from './protocol';
import { recordWorkerSpan, workerSpans } from './timeline';

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

/** Compiles a module from a response while its body arrives. */
export type StreamingCompile = (response: Promise<Response>) => Promise<WebAssembly.Module>;

/**
 * Compiles the module while it downloads (`compileStreaming`: on this thread, straight from the HTTP response, or in
 * the compiling worker, see streamingCompiler), and a reload takes the module from the HTTP cache. A broken or stalled
 * response (Chromium once failed to write the module to its disk cache after a reload interrupted the previous
 * copy, and the stream neither ended nor failed) is aborted after a timeout and fetched again past the HTTP
 * cache; the last attempt compiles from bytes read into memory, which needs no streaming at all.
 */
export async function compileDuckdb(
  url: string,
  fetchFn: typeof fetch = fetch,
  attemptMs = MODULE_ATTEMPT_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  compileStreaming: StreamingCompile = (response) => WebAssembly.compileStreaming(response),
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
          ? compileStreaming(fetchFn(url, init))
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

const CONTENT_TYPE = { 'Content-Type': 'application/wasm' };

/**
 * The page's side of a compilation in the compiling worker: the page downloads (its request goes out as early as
 * before, while the worker may still be starting) and posts each piece of the body as it arrives; the worker
 * compiles while they come, so the decoding of 34 MB never holds the page's thread. Pieces posted before the worker
 * runs wait for it, and the download does not: a stream handed over whole would wait for its reader. The worker
 * compiles a response it builds itself, which Chromium's disk cache of compiled WebAssembly cannot serve; traces of
 * a reload compiling straight from the HTTP response on the page showed no hit from that cache either (V8 writes it
 * only once enough of the module is optimised), while the renderer's in-memory copy serves both. `onBroken`
 * hears of a worker that could not start; its compilations fail, and the next attempt is the caller's.
 */
export function streamingCompiler(worker: CompilerPort, onBroken: () => void = () => undefined): StreamingCompile {
  let nextId = 0;
  const pending = new Map<number, { resolve: (module: WebAssembly.Module) => void; reject: (error: Error) => void }>();
  worker.onmessage = ({ data }: MessageEvent<CompileReply>) => {
    const waiting = pending.get(data.id);
    pending.delete(data.id);
    if ('module' in data) waiting?.resolve(data.module);
    else waiting?.reject(new Error(data.error));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    onBroken();
    for (const waiting of pending.values()) waiting.reject(new Error('The worker compiling DuckDB did not start'));
    pending.clear();
  };
  const post = (request: CompileRequest, transfer: Transferable[] = []) => worker.postMessage(request, transfer);
  return async (responsePromise) => {
    const response = await responsePromise;
    if (!response.ok || !response.body) throw moduleHttpError(response.status);
    const id = nextId++;
    const compiled = new Promise<WebAssembly.Module>((resolve, reject) => pending.set(id, { resolve, reject }));
    // A worker that fails to start rejects this while the download still runs: it is answered below, not unhandled.
    compiled.catch(() => undefined);
    post({ id, start: true });
    const reader = response.body.getReader();
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        const piece = read.value;
        const whole = piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength;
        post({ id, piece }, whole ? [piece.buffer] : []);
      }
    } catch (error) {
      post({ id, failed: String(error) });
      pending.delete(id);
      throw error;
    }
    post({ id, end: true });
    return compiled;
  };
}

/** The compiling worker's own end: its global scope, or a port in a test. */
export interface CompilationsPort {
  onmessage: ((event: MessageEvent<CompileRequest>) => void) | null;
  postMessage(message: CompileReply): void;
}

/**
 * The compiling worker's side: each compilation's pieces become the body of a response, compiled while they come;
 * the answer is the module, or the reason it failed.
 */
export function serveCompilations(port: CompilationsPort): void {
  const bodies = new Map<number, ReadableStreamDefaultController<Uint8Array>>();
  const reply = (message: CompileReply) => port.postMessage(message);
  port.onmessage = ({ data }) => {
    const { id } = data;
    if ('start' in data) {
      const started = performance.now();
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void bodies.set(id, controller) });
      WebAssembly.compileStreaming(new Response(body, { headers: CONTENT_TYPE })).then(
        (module) => {
          recordWorkerSpan(workerSpans.compile, started);
          reply({ id, module });
        },
        (error: unknown) => reply({ id, error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    const body = bodies.get(id);
    if ('piece' in data) body?.enqueue(data.piece);
    else {
      bodies.delete(id);
      if ('end' in data) body?.close();
      else body?.error(new Error(data.failed));
    }
  };
}
