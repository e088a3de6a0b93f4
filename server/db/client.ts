import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type the services see, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Where the data lives: a directory for PGlite, the host/database for PostgreSQL (no password). */
  location: string;
  /**
   * PGlite only: a number that changes whenever anything may have been written (any statement that is not a plain
   * SELECT, any transaction). The embedded database lives in this process alone, so a read tagged with the
   * generation it started in is still exact while the generation stays the same (see ReadCache). Undefined on
   * PostgreSQL, where other processes write too.
   */
  generation?: () => number;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(__dirname, 'migrations');

export interface DatabaseOptions {
  /** postgres:// URL; without it an embedded PGlite database is used. */
  databaseUrl?: string;
  /** Directory for the PGlite data; 'memory://' keeps it in memory (tests). */
  pgliteDir?: string;
  /** Logs pool errors (a database restarting, stopping or failing over); console by default. */
  onPoolError?: (error: Error) => void;
}

/**
 * How long a request may wait for a PostgreSQL connection, and a statement may run, before the request is answered
 * 503: a frozen or unreachable database must not hold requests (and their sockets) forever.
 */
export const DATABASE_TIMEOUT_MS = 5_000;

/** The pool's settings: bounded waits everywhere, and TCP keep-alive so a vanished server is noticed. */
export function poolConfig(databaseUrl: string): pg.PoolConfig {
  return {
    connectionString: databaseUrl,
    max: 10,
    connectionTimeoutMillis: DATABASE_TIMEOUT_MS,
    // The server cancels a slow statement itself (57014); the client-side limit, a little later, covers a server
    // that no longer answers at all.
    statement_timeout: DATABASE_TIMEOUT_MS,
    query_timeout: DATABASE_TIMEOUT_MS + 1_000,
    // A transaction left open by a vanished client must not keep its locks.
    idle_in_transaction_session_timeout: 4 * DATABASE_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/** Opens the database and applies every pending migration before anything else may use it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool(poolConfig(options.databaseUrl));
    // An idle connection that the server closes (restart, shutdown, failover) emits 'error' on the pool; unhandled,
    // it would end the process. The pool drops that connection and opens a new one when the server is back.
    pool.on('error', (error) => (options.onPoolError ?? logPoolError)(error));
    // A connection lent out (a transaction between two statements) has no pool listener: its 'error' would be
    // unhandled too. The transaction's next statement fails with it, and the pool drops the connection on release.
    pool.on('connect', (client) => client.on('error', (error) => (options.onPoolError ?? logPoolError)(error)));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    try {
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
    } catch (error) {
      await pool.end();
      throw error;
    }
    const url = new URL(options.databaseUrl);
    return { db, kind: 'postgres', location: `${url.host}${url.pathname}`, close: () => pool.end() };
  }
  const dir = options.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const generation = countWrites(client);
  const db = drizzlePglite(client, { schema });
  try {
    await migratePglite(db, { migrationsFolder });
  } catch (error) {
    await client.close();
    throw error;
  }
  return { db: db as unknown as Database, kind: 'pglite', location: dir, generation, close: () => client.close() };
}

const PLAIN_SELECT = /^\s*select\b/i;

/**
 * Counts possible writes through a PGlite client: the counter moves when a statement that is not a plain SELECT or a
 * transaction starts and again when it ends, so a read that overlapped a write never matches the counter afterwards.
 * Drizzle sends every statement through `query` (plain calls) or `transaction`; `exec` serves migrations.
 */
function countWrites(client: PGlite): () => number {
  let generation = 0;
  const around = async <T>(run: () => Promise<T>): Promise<T> => {
    generation++;
    try {
      return await run();
    } finally {
      generation++;
    }
  };
  const { query, exec, transaction } = client;
  client.query = ((text: string, ...rest: unknown[]) =>
    PLAIN_SELECT.test(text)
      ? query.call(client, text, ...(rest as []))
      : around(() => query.call(client, text, ...(rest as [])))) as typeof client.query;
  client.exec = ((...args: Parameters<typeof exec>) => around(() => exec.apply(client, args))) as typeof client.exec;
  client.transaction = ((...args: Parameters<typeof transaction>) =>
    around(() => transaction.apply(client, args))) as typeof client.transaction;
  return () => generation;
}

function logPoolError(error: Error): void {
  console.warn(`database connection lost: ${describeDatabaseError(error)}`);
}

/**
 * Errors that mean the database is away (unreachable, restarting, shutting down, too slow) rather than that the
 * request was wrong: answered 503 and retried by the client. SQLSTATE classes 08 (connection exception) and 57
 * (operator intervention: admin shutdown, crash, starting up, statement timeout), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1-4]|57014|53300)$/;
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  // The database handle closed under a request still running at shutdown.
  'PGlite is closed',
  'Cannot use a pool after calling end on the pool',
];

/** The error itself or what it wraps (Drizzle wraps driver errors in `cause`; Node wraps dual-stack ones). */
function* errorChain(error: unknown, depth = 0): Generator<{ code?: unknown; message?: unknown }> {
  if (!error || typeof error !== 'object' || depth > 5) return;
  yield error as { code?: unknown; message?: unknown };
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  yield* errorChain(cause, depth + 1);
  if (Array.isArray(errors)) for (const inner of errors) yield* errorChain(inner, depth + 1);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const { code, message } of errorChain(error)) {
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((known) => message.includes(known))) return true;
  }
  return false;
}

/** The innermost code and message, for logs: never the query or its parameters (they may hold secrets). */
export function describeDatabaseError(error: unknown): string {
  let last: { code?: unknown; message?: unknown } | undefined;
  for (const link of errorChain(error)) last = link;
  const code = typeof last?.code === 'string' ? `${last.code} ` : '';
  const message = typeof last?.message === 'string' ? last.message.split('\n')[0] : String(error);
  return `${code}${message}`;
}

/** A cheap round trip used by the health route. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
