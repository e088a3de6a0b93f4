// A server process that only runs the job worker, for the multi-process queue test (server/jobs/queue.pg.test.ts).
// WORKER_LABEL names it in the probe mails; HANG=1 makes it hang inside a probe job, as a process that dies
// mid-job would leave it.
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { sendMail } from '../../mail/mailer';
import { AlertEvaluator } from '../../services/alerting/evaluate';
import { alertJobHandlers } from '../alerts';
import type { Job } from '../queue';
import { JobWorker } from '../worker';

const PROBE = 'test.probe';
const PROBE_RECIPIENT = 'probe@example.com';

async function main() {
  const label = process.env.WORKER_LABEL ?? String(process.pid);
  const config = loadConfig(
    { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost', ALLOWED_HOSTS: '' },
    { dataDir: process.env.DATA_DIR },
  );
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: 'memory://', onPoolError: () => {} });
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  const evaluator = new AlertEvaluator(db.db, config.dataDir);
  const probe = async (job: Job) => {
    await sendMail(app, db.db, { to: PROBE_RECIPIENT, subject: `started ${job.key} by ${label}`, text: '' });
    if (process.env.HANG === '1') await new Promise(() => {});
    await sendMail(app, db.db, { to: PROBE_RECIPIENT, subject: `done ${job.key} by ${label}`, text: '' });
  };
  const worker = new JobWorker({
    db: db.db,
    log: app.log,
    handlers: { ...alertJobHandlers(app, evaluator), [PROBE]: probe },
    leaseMs: Number(process.env.LEASE_MS ?? 60_000),
    idleMs: 100,
  });
  worker.start();
  process.stdout.write('ready\n');
  process.once('SIGTERM', () => {
    void worker
      .stop()
      .then(() => evaluator.close())
      .then(() => app.close())
      .then(() => db.close())
      .finally(() => process.exit(0));
  });
}

void main();
