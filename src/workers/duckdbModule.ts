import { type DuckdbBundle } from './protocol';

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

/**
 * Compiles the module while it downloads, straight from the HTTP response: Chromium then keeps the compiled code
 * next to the cached file, and a reload skips both the download and the compilation. A broken or stalled
 * response (Chromium once failed to write the module to its disk cache after a reload interrupted the previous
 * copy, and the stream neither ended nor failed) is aborted after a timeout and fetched again past the HTTP
 * cache; the last attempt compiles from bytes read into memory, which needs no streaming at all.
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
              if (!response.ok) throw new Error(`HTTP ${response.status} for the DuckDB module`);
              return WebAssembly.compile(await response.arrayBuffer());
            });
      return await withTimeout(work, attemptMs, () => controller.abort());
    } catch (error) {
      if (attempt >= MODULE_ATTEMPTS) throw error;
      await sleep(500 * attempt);
    }
  }
}
