import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { and, eq, inArray, like } from 'drizzle-orm';
import { newAlertRuleId } from '../../src/contracts/alerting';
import { addDays } from '../../src/engine/dates';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { generateWorkspaceDatasets, todayUtc } from '../datasets/generate';
import { alertEvaluations, jobs, outbox } from '../db/schema';
import { createWorkspace, signIn, uniqueEmail } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/testApp';
import { EVALUATE_RULE_DAY, enqueueRuleDay } from './alerts';
import { enqueue } from './queue';

// Two server processes on one PostgreSQL: PGlite is one process's embedded database, so this suite needs
// DATABASE_URL (CI runs the server suites with it).
const describePg = process.env.DATABASE_URL ? describe : describe.skip;
const WAIT_MS = 120_000;

/** Polls `read` until `done` accepts its value (or the test's own timeout ends it): waits for state, not time. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describePg('the job queue across server processes', () => {
  let t: TestApp;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp();
  }, START_TIMEOUT_MS);
  // A test that fails midway must not leave a worker claiming the next test's jobs.
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => stop(child, 'SIGKILL')));
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await t?.close();
  }, START_TIMEOUT_MS);

  /** Starts a worker process and resolves once it polls the queue. */
  function startWorker(label: string, env: Record<string, string> = {}): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      // tsx as a loader, not its CLI: the CLI runs the script in a grandchild that a kill would not reach.
      ['--import', 'tsx', path.join('server', 'jobs', 'testing', 'workerProcess.ts')],
      {
        env: { ...process.env, DATA_DIR: t.config.dataDir, WORKER_LABEL: label, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve(child);
      });
      child.once('exit', (code) => reject(new Error(`worker ${label} exited with ${code}`)));
    });
  }
  const stop = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });

  it(
    'evaluates each rule-day exactly once with two processes claiming side by side',
    async () => {
      const user = await signIn(t);
      const workspaceId = (await createWorkspace(t, { adminUserId: user.userId })).id;
      await generateWorkspaceDatasets(t.config.dataDir, workspaceId, { rows: 3000, seed: 5, endDate: todayUtc() });
      const recipient = uniqueEmail('alerts');
      const ruleIds = Array.from({ length: 12 }, () => newAlertRuleId());
      for (const [index, id] of ruleIds.entries()) {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/workspaces/${workspaceId}/alerting/rules/${id}`,
          headers: user.headers,
          // A 30-day window always has sends: true every day, so each rule opens one violation, mailed once.
          payload: {
            title: `Rule ${index}`,
            duration: 30,
            conditions: [{ member: 'sent', operator: 'gte', values: ['0'] }],
            recipients: [recipient],
          },
        });
        expect(res.statusCode).toBe(201);
      }
      const days = [-5, -4, -3, -2].map((offset) => addDays(todayUtc(), offset));
      for (const id of ruleIds) for (const day of days) await enqueueRuleDay(t.db.db, id, day);
      // Asking again (another process's scheduler, another save) queues nothing new.
      expect(await enqueueRuleDay(t.db.db, ruleIds[0], days[0])).toBe(false);

      const workers = await Promise.all([startWorker('A'), startWorker('B')]);
      const ruleJobs = () =>
        t.db.db
          .select()
          .from(jobs)
          .where(
            and(
              eq(jobs.kind, EVALUATE_RULE_DAY),
              inArray(
                jobs.key,
                ruleIds.flatMap((id) => [...days, addDays(todayUtc(), -1)].map((day) => `${id}:${day}`)),
              ),
            ),
          );
      await until(ruleJobs, (rows) => rows.every((job) => job.status === 'done'));
      await Promise.all(workers.map((worker) => stop(worker)));

      const done = await ruleJobs();
      // Four queued days plus the day each save queued.
      expect(done).toHaveLength(ruleIds.length * 5);
      expect(done.every((job) => job.attempts === 1)).toBe(true);
      const evaluations = await t.db.db
        .select()
        .from(alertEvaluations)
        .where(inArray(alertEvaluations.ruleId, ruleIds));
      expect(evaluations).toHaveLength(ruleIds.length * 5);
      const mails = await t.db.db.select().from(outbox).where(eq(outbox.to, recipient));
      // One opening mail per rule; reminders (for days evaluated after the opening one) at most once per rule-day.
      expect(mails.filter((mail) => mail.subject.startsWith('Alert: '))).toHaveLength(ruleIds.length);
      const ruleDays = mails.map(
        (mail) =>
          `${mail.subject.replace(/^Alert( still open)?: /, '')} ${/on (\d{4}-\d{2}-\d{2})/.exec(mail.text)?.[1]}`,
      );
      expect(new Set(ruleDays).size).toBe(mails.length);
      const split = new Map<string, number>();
      for (const job of done) split.set(job.lockedBy!, (split.get(job.lockedBy!) ?? 0) + 1);
      process.stdout.write(`rule-day jobs per process: ${[...split.values()].join(' and ')}\n`);
    },
    WAIT_MS + 60_000,
  );

  it(
    'hands the job of a process killed mid-job to another once its lease expires',
    async () => {
      const key = newAlertRuleId();
      await enqueue(t.db.db, { kind: 'test.probe', key });
      const probeMails = () =>
        t.db.db
          .select({ subject: outbox.subject })
          .from(outbox)
          .where(like(outbox.subject, `% ${key} by %`));
      const a = await startWorker('A', { HANG: '1', LEASE_MS: '1500' });
      const subjects = async () => (await probeMails()).map((mail) => mail.subject).sort();
      expect(await until(subjects, (list) => list.length > 0)).toEqual([`started ${key} by A`]);
      a.kill('SIGKILL');
      const b = await startWorker('B', { LEASE_MS: '1500' });
      expect(await until(subjects, (list) => list.some((subject) => subject.startsWith('done')))).toEqual([
        `done ${key} by B`,
        `started ${key} by A`,
        `started ${key} by B`,
      ]);
      await stop(b);
      const [job] = await t.db.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'test.probe'), eq(jobs.key, key)));
      expect(job).toMatchObject({ status: 'done', attempts: 2 });
    },
    WAIT_MS + 60_000,
  );
});
