import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
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
  if (config.SEED_DEMO) {
    const seeded = await seedDemo(db.db);
    if (seeded.created) app.log.info({ workspaces: seeded.workspaceIds.length }, 'demo accounts and workspaces seeded');
  }

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
  if (config.SEED_DEMO) {
    app.log.info(`Sign in at ${config.publicUrl}/login with ${DEMO_EMAIL}; the sign-in code is printed here.`);
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
