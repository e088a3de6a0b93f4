import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/client';

export interface TestApp {
  app: FastifyInstance;
  db: DatabaseHandle;
  config: Config;
  /** Listens on a free loopback port for tests that need a real socket; answers its http:// address. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real server for a test: in-memory PGlite by default, or the PostgreSQL named by DATABASE_URL
 * (CI runs the server suites on both), with a throwaway DATA_DIR.
 */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-test-'));
  // `app.inject` sends `Host: localhost:80`, so that is the address the test server is reached on.
  const config = loadConfig(
    {
      // A key of its own, so a test app in production mode on PostgreSQL starts as an operator's would.
      SECRETS_KEY: randomBytes(32).toString('hex'),
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost',
      ALLOWED_HOSTS: '',
    },
    { dataDir, ...overrides },
  );
  // Silent like the test logger: the suites end connections on purpose.
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: 'memory://', onPoolError: () => {} });
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  return {
    app,
    db,
    config,
    async listen() {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      // The port is known only now; requests naming it are ours (the Host check refuses the rest).
      config.allowedHosts.push(new URL(address).host);
      return address;
    },
    async close() {
      await app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test app of the surrounding describe block (or file): started before its tests and closed after them, also
 * when the start failed. What it answers reads the app started for the block, so suites write `const t = ...` once
 * instead of the same beforeAll/afterAll pair in every file.
 */
export function withTestApp(overrides: Partial<Config> = {}): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(overrides);
  }, START_TIMEOUT_MS);
  afterAll(() => current?.close(), START_TIMEOUT_MS);
  return startedTestApp(() => current);
}

/** A TestApp that reads the one `current` answers when used, for suites whose app starts in a beforeAll. */
export function startedTestApp(current: () => TestApp | undefined): TestApp {
  const started = (): TestApp => {
    const app = current();
    if (!app) throw new Error('the test app did not start');
    return app;
  };
  return {
    get app() {
      return started().app;
    },
    get db() {
      return started().db;
    },
    get config() {
      return started().config;
    },
    listen: () => started().listen(),
    close: () => started().close(),
  };
}
