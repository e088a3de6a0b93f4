/**
 * Time a Jest hook may take to start (or stop) a database, a server, a DuckDB engine or a worker.
 * Generous on purpose: CI machines are shared, and a PGlite start on a busy 2-core machine has taken
 * longer than Jest's default 5 s, and a start plus a dataset generation once took over 60 s with the machine
 * at load 23. Waiting costs nothing when the start is quick.
 */
export const START_TIMEOUT_MS = 180_000;
