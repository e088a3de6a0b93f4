import fs from 'node:fs';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createWorkspace, sessionHeaders, signIn } from '../testing/fixtures';
import { createTestApp, withTestApp } from '../testing/testApp';
import { DATABASE_TIMEOUT_MS, type Database, type DatabaseHandle, isDatabaseUnavailable, poolConfig } from './client';
import * as schema from './schema';

const UNAVAILABLE = { error: 'Service unavailable' };
const someSession = sessionHeaders('a'.repeat(43));

/** The app over a PostgreSQL pool with the production settings, pointed at `url` (no migrations: it never connects). */
async function appOnPool(url: string): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; pool: pg.Pool }> {
  const pool = new pg.Pool(poolConfig(url));
  pool.on('error', () => {});
  const db: DatabaseHandle = {
    db: drizzle(pool, { schema }) as unknown as Database,
    kind: 'postgres',
    location: url,
    close: () => pool.end(),
  };
  // `app.inject` sends `Host: localhost:80`: the address this server is reached on.
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost' },
    { dataDir: '/nonexistent' },
  );
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  return { app, pool };
}

/** A port where nothing listens: connections are refused at once, as when PostgreSQL is stopped. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the database away', () => {
  it(
    'answers 503 Service unavailable at once while PostgreSQL refuses connections',
    async () => {
      const { app, pool } = await appOnPool(`postgres://postgres@127.0.0.1:${await closedPort()}/openrate`);
      try {
        const res = await app.inject({ method: 'GET', url: '/api/workspaces/1/reports', headers: someSession });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual(UNAVAILABLE);
        expect(res.headers['retry-after']).toBe('5');
      } finally {
        await app.close();
        await pool.end();
      }
    },
    START_TIMEOUT_MS,
  );

  it(
    'answers 503 instead of holding the request when the database accepts connections but never answers',
    async () => {
      // A frozen server: the TCP connection opens, the PostgreSQL handshake never comes back.
      const sockets = new Set<net.Socket>();
      const frozen = net.createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => frozen.listen(0, '127.0.0.1', resolve));
      const { port } = frozen.address() as net.AddressInfo;
      const { app, pool } = await appOnPool(`postgres://postgres@127.0.0.1:${port}/openrate`);
      try {
        const res = await app.inject({ method: 'GET', url: '/api/workspaces/1/reports', headers: someSession });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual(UNAVAILABLE);
      } finally {
        await app.close();
        await pool.end();
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => frozen.close(resolve));
      }
    },
    // The connection timeout (5 s) decides; the test's own limit only has to be longer.
    DATABASE_TIMEOUT_MS + START_TIMEOUT_MS,
  );

  describe('on the suite database', () => {
    const t = withTestApp();

    it('keeps serving after PostgreSQL ends every connection of the pool (restart, failover)', async () => {
      if (t.db.kind !== 'postgres') return; // PGlite runs in this process: it has no connections to lose.
      const me = await signIn(t);
      const { id } = await createWorkspace(t, { adminUserId: me.userId });
      // Fill the pool with a few idle connections and note their server processes.
      const pids = await Promise.all(
        Array.from({ length: 4 }, async () => {
          // On PostgreSQL, execute answers node-postgres's result.
          const result = (await t.db.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`)) as pg.QueryResult;
          return Number(result.rows[0].pid);
        }),
      );
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      try {
        await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [[...new Set(pids)]]);
      } finally {
        await admin.end();
      }
      // The idle connections' 'error' events must not end the process; the next request gets a fresh connection.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const res = await t.app.inject({ method: 'GET', url: `/api/workspaces/${id}/reports`, headers: me.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [] });
    });

    it('survives a connection lost in the middle of a transaction', async () => {
      if (t.db.kind !== 'postgres') return;
      const me = await signIn(t);
      const { id } = await createWorkspace(t, { adminUserId: me.userId });
      const error = await t.db.db
        .transaction(async (tx) => {
          const result = (await tx.execute(sql`select pg_backend_pid() as pid`)) as pg.QueryResult;
          const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
          await admin.connect();
          try {
            await admin.query('select pg_terminate_backend($1)', [Number(result.rows[0].pid)]);
          } finally {
            await admin.end();
          }
          // The server's notice arrives while no statement of ours runs.
          await new Promise((resolve) => setTimeout(resolve, 200));
          await tx.execute(sql`select 1`);
        })
        .catch((e: unknown) => e);
      expect(isDatabaseUnavailable(error)).toBe(true);
      const res = await t.app.inject({ method: 'GET', url: `/api/workspaces/${id}/reports`, headers: me.headers });
      expect(res.statusCode).toBe(200);
    });

    it(
      'cancels a statement that runs longer than the statement timeout, as a database unavailable error',
      async () => {
        if (t.db.kind !== 'postgres') return; // PGlite cannot interrupt a statement: it runs on this thread.
        const error = await t.db.db.execute(sql`select pg_sleep(${(DATABASE_TIMEOUT_MS * 3) / 1000})`).catch((e) => e);
        expect(error).toBeInstanceOf(Error);
        expect(isDatabaseUnavailable(error)).toBe(true);
      },
      START_TIMEOUT_MS,
    );

    it(
      'answers 503 once the database is closed (a request still running at shutdown)',
      async () => {
        const other = await createTestApp();
        try {
          const me = await signIn(other);
          await other.db.close();
          const res = await other.app.inject({ method: 'GET', url: '/api/me', headers: me.headers });
          expect(res.statusCode).toBe(503);
          expect(res.json()).toEqual(UNAVAILABLE);
        } finally {
          await other.app.close();
          fs.rmSync(other.config.dataDir, { recursive: true, force: true });
        }
      },
      START_TIMEOUT_MS,
    );
  });
});
