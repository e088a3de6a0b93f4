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
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(__dirname, 'migrations');

export interface DatabaseOptions {
  /** postgres:// URL; without it an embedded PGlite database is used. */
  databaseUrl?: string;
  /** Directory for the PGlite data; 'memory://' keeps it in memory (tests). */
  pgliteDir?: string;
}

/** Opens the database and applies every pending migration before anything else may use it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
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
  const db = drizzlePglite(client, { schema });
  try {
    await migratePglite(db, { migrationsFolder });
  } catch (error) {
    await client.close();
    throw error;
  }
  return { db: db as unknown as Database, kind: 'pglite', location: dir, close: () => client.close() };
}

/** A cheap round trip used by the health route. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
