/** @jest-environment node */
import { chooseBundle, compileDuckdb } from './duckdbModule';

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
