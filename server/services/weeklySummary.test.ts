import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { and, eq, inArray } from 'drizzle-orm';
import { addDays } from '../../src/engine/dates';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { generateWorkspaceDatasets, todayUtc, workspaceDatasetDir } from '../datasets/generate';
import { jobs, outbox, reportingSubscriptions } from '../db/schema';
import {
  enqueueWeek,
  SCHEDULE_WEEK,
  scheduleDueWeek,
  SEND_SUMMARY,
  weeklySummaryHandlers,
} from '../jobs/weeklySummary';
import { JobWorker } from '../jobs/worker';
import { createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/testApp';
import { AlertEvaluator } from './alerting/evaluate';
import { mondayOf } from './weeklySummary';

let t: TestApp;
let user: SignedIn;
let workspaceId: number;
let evaluator: AlertEvaluator;
let worker: JobWorker;

beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
  workspaceId = (await createWorkspace(t, { adminUserId: user.userId, name: 'Summary shop' })).id;
  await generateWorkspaceDatasets(t.config.dataDir, workspaceId, { rows: 3000, seed: 11, endDate: todayUtc() });
  await t.db.db.insert(reportingSubscriptions).values({ userId: user.userId, workspaceId, type: 'weeklySummary' });
  // Weeks are keys of the queue: a database kept between runs (PostgreSQL) starts from none of them.
  await t.db.db.delete(jobs).where(inArray(jobs.kind, [SCHEDULE_WEEK, SEND_SUMMARY]));
  evaluator = new AlertEvaluator(t.db.db, t.config.dataDir);
  worker = new JobWorker({ db: t.db.db, log: t.app.log, handlers: weeklySummaryHandlers(t.app, evaluator) });
}, START_TIMEOUT_MS);

afterAll(async () => {
  await evaluator?.close();
  await t?.close();
}, START_TIMEOUT_MS);

const mails = () => t.db.db.select().from(outbox).where(eq(outbox.to, user.email));

/** The week's sends by hand-written SQL over the same file. */
async function sentBetween(start: string, end: string): Promise<number> {
  const file = path.join(workspaceDatasetDir(t.config.dataDir, workspaceId), 'campaign_metrics_by_send_date.parquet');
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT sum(sent)::DOUBLE AS s FROM read_parquet('${file}') WHERE CAST(send_date AS DATE) BETWEEN DATE '${start}' AND DATE '${end}'`,
    );
    return Number(reader.getRowObjectsJS()[0].s ?? 0);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

it('sends each subscriber one summary a week with the week against the one before, until they unsubscribe', async () => {
  const monday = mondayOf(todayUtc());
  expect(await enqueueWeek(t.db.db, monday)).toBe(true);
  await worker.drain();
  const [mail, ...others] = await mails();
  expect(others).toEqual([]);
  expect(mail.subject).toBe('Your weekly summary for Summary shop');
  const week = await sentBetween(addDays(monday, -7), addDays(monday, -1));
  const before = await sentBetween(addDays(monday, -14), addDays(monday, -8));
  expect(mail.text).toContain(`The week of ${addDays(monday, -7)} to ${addDays(monday, -1)}:`);
  expect(mail.text).toContain(`Sent: ${week} (week before: ${before})`);
  expect(mail.text).toMatch(/Open rate: (\d+\.\d\d%|no data) \(week before: (\d+\.\d\d%|no data)\)/);

  // Another process (or tick) asking for the same week sends nothing more.
  expect(await enqueueWeek(t.db.db, monday)).toBe(false);
  await worker.drain();
  expect(await mails()).toHaveLength(1);

  // Unsubscribed: next week's run sends nothing.
  await t.db.db
    .delete(reportingSubscriptions)
    .where(and(eq(reportingSubscriptions.userId, user.userId), eq(reportingSubscriptions.workspaceId, workspaceId)));
  expect(await enqueueWeek(t.db.db, addDays(monday, 7))).toBe(true);
  await worker.drain();
  expect(await mails()).toHaveLength(1);
});

it('queues the week on Mondays from the set hour only', async () => {
  const weekJobs = () => t.db.db.select({ key: jobs.key }).from(jobs).where(eq(jobs.kind, SCHEDULE_WEEK));
  const monday = '2026-06-01';
  await scheduleDueWeek(t.app, new Date(Date.UTC(2026, 5, 1, t.config.ALERTS_EVALUATION_HOUR - 1, 59)));
  await scheduleDueWeek(t.app, new Date('2026-06-02T12:00:00Z'));
  expect((await weekJobs()).map((job) => job.key)).not.toContain(monday);
  await scheduleDueWeek(t.app, new Date(Date.UTC(2026, 5, 1, t.config.ALERTS_EVALUATION_HOUR)));
  expect((await weekJobs()).map((job) => job.key)).toContain(monday);
});
