import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { ensureWorkspaceDatasets } from './datasets/generate';
import { describeDatabaseError, openDatabase } from './db/client';
import { startSimulatorFromEnv } from './integrations/simulator';
import { startJobs } from './jobs/alerts';
import { DEMO_EMAIL, seedDemo } from './seed/demo';

/** Starts the server: configuration, database with migrations, HTTP, and a graceful shutdown on signals. */
async function main(): Promise<void> {
  const simulator = await startSimulatorFromEnv();
  const config = loadConfig();
  // The pool may report a lost connection once the app (and its logger) exists.
  const started: { app?: FastifyInstance } = {};
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.dataDir, 'db'),
    // The server keeps serving (503 while the database is away) and reconnects by itself.
    onPoolError: (error) =>
      started.app?.log.warn({ database: describeDatabaseError(error) }, 'database connection lost'),
  });
  const app = await buildApp({ config, db });
  started.app = app;
  app.log.info({ database: db.kind, location: db.location }, 'database ready');
  if (simulator) app.log.info({ simulator }, 'integrations connect to the local provider simulator');
  const seeded = config.SEED_DEMO ? await seedDemo(db.db) : undefined;
  if (seeded?.created) app.log.info({ workspaces: seeded.workspaceIds.length }, 'demo accounts and workspaces seeded');

  // Queued work (alert evaluations) runs in every server process; claims keep each job to one of them.
  const stopJobs = startJobs(app);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await stopJobs();
      await app.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(`Openrate is serving on ${address}`);
  if (seeded) {
    app.log.info(`Sign in at ${config.publicUrl}/login with ${DEMO_EMAIL}; the sign-in code is printed here.`);
    if (seeded.workspaceIds.length) void prepareDemoDatasets(app, seeded.workspaceIds[0]);
  }
}

/**
 * Generates the datasets of the first demo workspace (Acme Retail, where the demo user lands) now, in the
 * background, rather than on the first dashboard opened: a newcomer's first open after `npm start` waited seconds
 * for them (bench/README.md). The other demo workspaces (4–5 s of CPU each) are left to their first use, so that
 * this start does not compete with the first pages for long. Files already there are left alone; a failure only
 * means that the first request generates them, as before.
 */
async function prepareDemoDatasets(app: FastifyInstance, workspaceId: number): Promise<void> {
  try {
    await ensureWorkspaceDatasets(app.config.dataDir, workspaceId);
  } catch (error) {
    app.log.warn({ err: error, workspaceId }, 'demo datasets could not be prepared');
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Openrate failed to start:', error);
  }
  process.exit(1);
});
