/** @jest-environment ./test/nodeEnvironment.js */
import {
  COMPILER_THREAD,
  type CompilationsPort,
  type CompilerPort,
  chooseBundle,
  compileDuckdb,
  serveCompilations,
  workerCompiler,
} from './duckdbModule';
import { WORKER_SPAN_PREFIX, workerSpans } from './timeline';

// The smallest valid WebAssembly module: magic number and version.
const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
const wasmResponse = () => new Response(EMPTY_MODULE, { headers: { 'Content-Type': 'application/wasm' } });
/** A response whose body never ends, as when the browser's cache copy of the module broke mid-way. */
const stalledResponse = () =>
  new Response(new ReadableStream({ start: (controller) => controller.enqueue(EMPTY_MODULE.slice(0, 4)) }), {
    headers: { 'Content-Type': 'application/wasm' },
  });
const noSleep = async () => undefined;
/**
 * Per-attempt limits: long where an attempt must succeed (a loaded machine once took over 1 s to compile these
 * eight bytes), and for the stall short enough to wait out yet long enough for the retry that follows it.
 */
const STALL_TIMEOUT_MS = 2_000;

function scriptedFetch(answers: (() => Promise<Response>)[]) {
  const calls: RequestInit[] = [];
  const fetchFn = ((_url: string, init: RequestInit) => {
    calls.push(init);
    return answers[calls.length - 1]();
  }) as unknown as typeof fetch;
  return { fetchFn, calls };
}

test('the module compiles from the HTTP response, through the HTTP cache, in one request', async () => {
  const { fetchFn, calls } = scriptedFetch([async () => wasmResponse()]);
  const module = await compileDuckdb('/duckdb/duckdb-eh.wasm', fetchFn, 30_000, noSleep);
  expect(module).toBeInstanceOf(WebAssembly.Module);
  expect(calls.map((init) => init.cache)).toEqual(['default']);
});

test('a response that stalls is abandoned after the timeout and fetched again past the HTTP cache', async () => {
  const { fetchFn, calls } = scriptedFetch([async () => stalledResponse(), async () => wasmResponse()]);
  const module = await compileDuckdb('/duckdb/duckdb-eh.wasm', fetchFn, STALL_TIMEOUT_MS, noSleep);
  expect(module).toBeInstanceOf(WebAssembly.Module);
  expect(calls.map((init) => init.cache)).toEqual(['default', 'reload']);
  // The stalled download is stopped, not left running next to the new one.
  expect(calls[0].signal?.aborted).toBe(true);
});

test('after two failed streams the last attempt compiles from bytes read into memory; then it gives up', async () => {
  const broken = async (): Promise<Response> => {
    throw new TypeError('network error');
  };
  const recovered = scriptedFetch([broken, broken, async () => wasmResponse()]);
  // The in-memory attempt does not need the application/wasm type that streaming compilation insists on.
  expect(await compileDuckdb('/m.wasm', recovered.fetchFn, 30_000, noSleep)).toBeInstanceOf(WebAssembly.Module);
  expect(recovered.calls).toHaveLength(3);

  const failing = scriptedFetch([broken, broken, async () => new Response('gone', { status: 503 })]);
  await expect(compileDuckdb('/m.wasm', failing.fetchFn, 30_000, noSleep)).rejects.toThrow(
    'HTTP 503 for the DuckDB module',
  );
});

test('the exception-handling build is chosen where WebAssembly exceptions exist (Node, like Chromium, has them)', () => {
  expect(chooseBundle()).toBe('eh');
});

/** A module that crossed a channel comes from Node's own realm, not the test's: its tag says what it is. */
const compiledModule = (value: unknown) => Object.prototype.toString.call(value) === '[object WebAssembly.Module]';

/**
 * The page's and the compiling worker's ends of one channel, as the page and its worker are; the worker downloads
 * with `fetchFn`.
 */
function compilingChannel(fetchFn: typeof fetch, attemptMs = 30_000) {
  const { port1, port2 } = new MessageChannel();
  serveCompilations(port2 as unknown as CompilationsPort, (url) => compileDuckdb(url, fetchFn, attemptMs, noSleep));
  const page = port1 as unknown as CompilerPort;
  const close = () => {
    port1.close();
    port2.close();
  };
  return { page, close };
}

test('the compiling worker downloads and compiles the module itself, and answers it to the page', async () => {
  const urls: string[] = [];
  const fetchFn = (async (url: string) => (urls.push(url), wasmResponse())) as unknown as typeof fetch;
  const { page, close } = compilingChannel(fetchFn);
  try {
    const compile = workerCompiler(page);
    expect(compiledModule(await compile('/duckdb/duckdb-eh.wasm'))).toBe(true);
    // Two compilations on one worker each get their own answer.
    const both = await Promise.all([compile('/a.wasm'), compile('/b.wasm')]);
    expect(both.map(compiledModule)).toEqual([true, true]);
    expect(urls).toEqual(['/duckdb/duckdb-eh.wasm', '/a.wasm', '/b.wasm']);
  } finally {
    close();
  }
});

test("the compiling worker's spans reach the page's timeline with each module, named by its thread, each once", async () => {
  const fetchFn = (async () => wasmResponse()) as unknown as typeof fetch;
  const { page, close } = compilingChannel(fetchFn);
  const compileSpans = () =>
    (performance.getEntriesByName(`${WORKER_SPAN_PREFIX}${workerSpans.compile}`) as PerformanceMeasure[]).filter(
      (entry) => (entry.detail as { thread?: string } | null)?.thread === COMPILER_THREAD,
    );
  // The test's thread plays both the worker and the page: the earlier tests' compilations are not this worker's.
  performance.clearMeasures();
  try {
    const compile = workerCompiler(page);
    await compile('/duckdb/duckdb-eh.wasm');
    expect(compileSpans()).toHaveLength(1);
    // A second compilation brings its own span only, not the first one's again.
    await compile('/later.wasm');
    expect(compileSpans()).toHaveLength(2);
  } finally {
    close();
  }
});

/** What arrives on the far end of a port the compiling worker is asked to forward to. */
function forwardedTo() {
  const { port1, port2 } = new MessageChannel();
  const received: unknown[] = [];
  const first = new Promise<unknown>((resolve) => {
    port2.onmessage = ({ data }) => {
      received.push(data);
      resolve(data);
    };
  });
  // The far end hears that the compiling worker closed its end (Node's ports say so; a browser's do not need to).
  const closed = new Promise<void>((resolve) => port2.addEventListener('close', () => resolve()));
  const close = () => {
    port1.close();
    port2.close();
  };
  return { port: port1, received, first, closed, close };
}

test('the compiling worker also posts the module straight to a port it is given, while or after compiling', async () => {
  const fetchFn = (async () => wasmResponse()) as unknown as typeof fetch;
  const { page, close } = compilingChannel(fetchFn);
  const during = forwardedTo();
  const after = forwardedTo();
  try {
    const compile = workerCompiler(page);
    const compiling = compile('/duckdb/duckdb-eh.wasm');
    compile.forward('/duckdb/duckdb-eh.wasm', during.port);
    expect(compiledModule(await during.first)).toBe(true);
    expect(compiledModule(await compiling)).toBe(true);
    // A worker started after the compilation gets the kept module.
    compile.forward('/duckdb/duckdb-eh.wasm', after.port);
    expect(compiledModule(await after.first)).toBe(true);
    expect([during.received.length, after.received.length]).toEqual([1, 1]);
  } finally {
    for (const end of [during, after]) end.close();
    close();
  }
});

test('a forward of a module never compiled, or whose compilation failed, sends nothing and is closed: the page answers instead', async () => {
  const { fetchFn } = scriptedFetch([
    ...Array.from({ length: 3 }, () => async () => new Response('gone', { status: 503 })),
    async () => wasmResponse(),
  ]);
  const { page, close } = compilingChannel(fetchFn);
  const never = forwardedTo();
  const failed = forwardedTo();
  try {
    const compile = workerCompiler(page);
    compile.forward('/never.wasm', never.port);
    await expect(compile('/m.wasm')).rejects.toThrow('HTTP 503 for the DuckDB module');
    compile.forward('/m.wasm', failed.port);
    // The worker handles its messages in order: once a later compilation is answered, both forwards were handled.
    expect(compiledModule(await compile('/later.wasm'))).toBe(true);
    // Both channels are closed, so neither end stays open for the worker's life.
    await Promise.all([never.closed, failed.closed]);
    expect([never.received, failed.received]).toEqual([[], []]);
  } finally {
    for (const end of [never, failed]) end.close();
    close();
  }
});

test('bytes that are no module, or no module at all, fail in the worker, and the page hears why', async () => {
  const { fetchFn } = scriptedFetch([
    async () => new Response(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { headers: wasmResponse().headers }),
    async () => new Response(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { headers: wasmResponse().headers }),
    async () => new Response(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { headers: wasmResponse().headers }),
    ...Array.from({ length: 3 }, () => async () => new Response('gone', { status: 503 })),
  ]);
  const { page, close } = compilingChannel(fetchFn);
  try {
    const compile = workerCompiler(page);
    await expect(compile('/m.wasm')).rejects.toThrow(/magic|WebAssembly/i);
    await expect(compile('/m.wasm')).rejects.toThrow('HTTP 503 for the DuckDB module');
  } finally {
    close();
  }
});

test('in the compiling worker, a stalled download is still abandoned and fetched again', async () => {
  const { fetchFn, calls } = scriptedFetch([async () => stalledResponse(), async () => wasmResponse()]);
  const { page, close } = compilingChannel(fetchFn, STALL_TIMEOUT_MS);
  try {
    expect(compiledModule(await workerCompiler(page)('/m.wasm'))).toBe(true);
    expect(calls.map((init) => init.cache)).toEqual(['default', 'reload']);
  } finally {
    close();
  }
});

test('a compiling worker that cannot start fails its compilations and is reported broken', async () => {
  const worker: CompilerPort = { onmessage: null, onerror: null, postMessage: jest.fn() };
  const onBroken = jest.fn();
  const compiling = workerCompiler(worker, onBroken)('/m.wasm');
  expect(worker.postMessage).toHaveBeenCalledWith({ id: 0, url: '/m.wasm' });
  const preventDefault = jest.fn();
  worker.onerror!.call(worker as Worker, { preventDefault } as unknown as ErrorEvent);
  await expect(compiling).rejects.toThrow('The worker compiling DuckDB did not start');
  expect(onBroken).toHaveBeenCalled();
  expect(preventDefault).toHaveBeenCalled();
});
