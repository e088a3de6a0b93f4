import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { freePort } from '../scripts/freePort';
import { buildApp, defaultLogger } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { reports, users } from '../server/db/schema';
import { DEMO_EMAIL, seedDemo } from '../server/seed/demo';
import { createSession } from '../server/services/sessions';

/**
 * The server side of `npm run bench:api`, in its own process so that the load generator never shares its event loop:
 * the production app (buildApp, NODE_ENV=production) on a throwaway data directory (PGlite on disk, or the
 * PostgreSQL of DATABASE_URL), the demo seed, a signed-in session of the demo user, and next to it a bare Fastify
 * route with the same logger. Tells the parent where to send requests over the IPC channel.
 */
export interface ApiBenchTarget {
  database: 'pglite' | 'postgres';
  appUrl: string;
  bareUrl: string;
  cookie: string;
  workspaceId: number;
}

/** A database of its own on the server DATABASE_URL names, so the demo seed never lands in a shared one. */
async function throwawayDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `openrate_bench_api_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-bench-api-'));
  const postgres = process.env.DATABASE_URL ? await throwawayDatabase(process.env.DATABASE_URL) : undefined;
  // Production needs PUBLIC_URL, and its host is the only one the server answers: the port is chosen first.
  const port = await freePort();
  const config = loadConfig(
    {
      ...process.env,
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      DATABASE_URL: postgres?.url ?? '',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Production on PostgreSQL requires a key; a throwaway server gets a throwaway one.
      SECRETS_KEY: process.env.SECRETS_KEY ?? randomBytes(32).toString('hex'),
    },
    { dataDir, PORT: port },
  );
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: path.join(dataDir, 'db') });
  await seedDemo(db.db);
  const [demo] = await db.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_EMAIL));
  // The demo user's workspace with the most reports: the list the benchmark asks for.
  const [own] = await db.db
    .select({ workspaceId: reports.workspaceId })
    .from(reports)
    .where(eq(reports.ownerId, demo.id));
  const { cookie } = await createSession(db.db, { userId: demo.id, ttlSeconds: 3600 });

  const app = await buildApp({ config, db });
  const appUrl = await app.listen({ host: '127.0.0.1', port });
  const bare = Fastify({ logger: defaultLogger(config) });
  bare.get('/bare', async () => ({ data: [] }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const target: ApiBenchTarget = {
    database: db.kind,
    appUrl,
    bareUrl: `${bareUrl}/bare`,
    cookie: `openrate_session=${cookie}`,
    workspaceId: own.workspaceId,
  };
  process.send?.(target);
  process.once('disconnect', () => {
    void (async () => {
      await bare.close();
      await app.close();
      await db.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

main().catch((error: unknown) => {
  console.error('bench server failed to start:', error);
  process.exit(1);
});
