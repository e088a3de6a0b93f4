import { type CompilationsPort, serveCompilations } from './duckdbModule';
import { recordWorkerSpan, workerSpans } from './timeline';

/**
 * The page's compiler of DuckDB's module, on a thread of its own, which also downloads it. Compiling while the bytes
 * arrive runs the decoder on the thread that compiles: on the page, a reload whose 34 MB came from the HTTP cache at
 * once held the page's thread for 0.7 s in one task. And read on the page, the bytes came only as fast as the page's
 * thread, busy with its scripts and drawing, took each piece (bench/README.md).
 */
// A dedicated worker's global scope, which the DOM library types as a window.
serveCompilations(self as unknown as CompilationsPort);
// From the worker's creation (its clock's origin) until its chunk has run: the page's busy start delays its creation.
recordWorkerSpan(workerSpans.compilerChunk, 0);
