/** What crosses between the pool and its workers: plain, structured-cloneable values only. */
import { type DatasetFormat } from '../contracts/dataModel';
import { type ThreadTimeline } from './timeline';

/** An error as a plain object, so it crosses worker and Redux boundaries intact. */
export interface EngineError {
  name: string;
  message: string;
}

/** The messages of spec 3 §8 for the engine's own failures. */
export const engineMessages = {
  notInitialized: 'DuckDB is not initialized',
  waitingForDataset: 'query executing while still waiting for dataset',
  emptyBody: 'Body for dataset is empty',
  superseded: 'Query superseded',
  cancelled: 'Query cancelled',
  crashed: 'The query engine stopped while running this query',
} as const;

/**
 * The name of the error of a query asked for an earlier visit's dataset version (`keptVersion`) that found no kept
 * answer: its caller waits for the dataset's load and asks again (src/store/engineApi.ts). Never shown.
 */
export const NOT_KEPT_ERROR = 'NotKeptError';

/**
 * The name of the error of a dataset version whose bytes a hidden tab let go of and can no longer read: a newer file
 * has replaced it, in the browser's copy or on the server. Its caller loads the dataset again and asks again over the
 * version the server sends (src/store/engineAnswers.ts).
 */
export const DATASET_CHANGED_ERROR = 'DatasetChangedError';

export function engineError(message: string, name = 'EngineError'): EngineError {
  return { name, message };
}

/** Any thrown value as a plain {name, message}. */
export function toEngineError(error: unknown): EngineError {
  if (error && typeof error === 'object' && 'message' in error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return { name: typeof name === 'string' && name ? name : 'Error', message: String(message) };
  }
  return { name: 'Error', message: String(error) };
}

export interface WorkerStats {
  /** Tables loaded, with their dataset version and row count. */
  tables: { table: string; version: string; rows: number }[];
  /** Bytes of the WebAssembly heap (the worker's DuckDB memory, grown but never shrunk). */
  wasmHeapBytes: number;
  /** DuckDB's own accounting of memory in use. */
  duckdbMemoryBytes: number;
  queries: number;
}

/** The Comlink API of one DuckDB worker. */
export interface EngineWorkerApi {
  version(): Promise<string>;
  /**
   * Loads (or replaces) a table from Arrow IPC stream bytes, or attaches a DuckDB database file as it (`duckdb`);
   * answers its rows and the heap it now takes.
   */
  load(
    table: string,
    version: string,
    bytes: Uint8Array,
    format?: DatasetFormat,
  ): Promise<{ rows: number; wasmHeapBytes: number }>;
  /**
   * Runs SQL; the result comes back as Arrow IPC stream bytes, transferred rather than copied. A query given
   * an id can be cancelled by it; it then rejects with {name: 'AbortError'}.
   */
  query(sql: string, queryId?: string): Promise<Uint8Array>;
  /** Stops the query with this id, running or waiting; false when it is unknown or already settled. */
  cancel(queryId: string): Promise<boolean>;
  stats(): Promise<WorkerStats>;
  /**
   * A worker whose DuckDB has opened with nothing to do compiles the code a dataset's load and the widgets' queries
   * will reach (warmUp.ts); the first load or query stops it. Asked by the pool, which knows that nothing is coming.
   */
  warmUp(): Promise<void>;
}

/** DuckDB-WASM's builds: with WebAssembly exception handling, or without (mvp). */
export type DuckdbBundle = 'eh' | 'mvp';

/** The page's compiled DuckDB module: posted to each worker, which then instantiates it without compiling. */
export interface CompiledDuckdb {
  bundle: DuckdbBundle;
  module: WebAssembly.Module;
}

/**
 * What the page posts the compiling worker (`duckdbCompile.worker.ts`) for one compilation: the module's URL, which
 * the worker downloads itself; and what the worker answers.
 */
export type CompileRequest = { id: number; url: string } | ModuleForward;
/**
 * Asks the compiling worker to post the module it compiles from `url` (a `WebAssembly.Module`) to `port` as well: a
 * DuckDB worker's end, so that the module reaches it without waiting for the page's thread (engineClient.ts).
 */
export type ModuleForward = { url: string; forwardTo: MessagePort };
/** The worker's answer; with the module, its spans and requests since its last answer (timeline.ts). */
export type CompileReply = { id: number } & (
  { module: WebAssembly.Module; timeline: ThreadTimeline } | { error: string }
);

/** The browser worker's API: the engine's, plus the compiled module (null: compile it yourself). */
export interface BrowserWorkerApi extends EngineWorkerApi {
  useModule(compiled: CompiledDuckdb | null): Promise<void>;
  /** The compiling worker posts the module of this build to `port` (ModuleForward); the first of the two to come wins. */
  useModuleFrom(port: MessagePort, bundle: DuckdbBundle): Promise<void>;
}

/**
 * A dataset's file as the pool is given it: its bytes, or a way to read them when a worker first needs them (a copy
 * kept from an earlier visit, which a reload answered from kept answers may never need).
 */
export type DatasetBytes = Uint8Array | (() => Promise<Uint8Array>);
