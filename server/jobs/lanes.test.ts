import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { jobs } from '../db/schema';
import { AlertEvaluator } from '../services/alerting/evaluate';
import { createTestApp, type TestApp } from '../testing/testApp';
import { EVALUATE_RULE_DAY, jobLanes } from './alerts';
import { BUILD_PROJECTIONS } from './projections';
import { enqueue } from './queue';
import type { JobWorker } from './worker';

let t: TestApp;
let evaluator: AlertEvaluator;
let lanes: { prompt: JobWorker; bulk: JobWorker } | undefined;

beforeAll(async () => {
  t = await createTestApp();
  evaluator = new AlertEvaluator(t.db.db, t.config.dataDir);
}, START_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([lanes?.prompt.stop(), lanes?.bulk.stop()]);
  await evaluator?.close();
  await t?.close();
}, START_TIMEOUT_MS);

/** The job's status once `accept` takes it, polled; fails the test after 30 s. */
async function statusOnce(key: string, accept: (status: string) => boolean): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [row] = await t.db.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.key, key));
    if (row && accept(row.status)) return row.status;
    if (Date.now() > deadline) throw new Error(`job ${key}: still ${row?.status ?? 'missing'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a long bulk job (an import, a projection build) does not hold up an alert evaluation', async () => {
  // Keys of their own: a database kept between runs (PostgreSQL) may hold other suites' jobs.
  const run = randomUUID();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const HOLD = `test.hold-${run}`;
  lanes = jobLanes(t.app, evaluator, { bulk: { [HOLD]: () => held } });
  await enqueue(t.db.db, { kind: HOLD, key: `hold:${run}` });
  lanes.prompt.start();
  lanes.bulk.start();
  await statusOnce(`hold:${run}`, (status) => status === 'running');

  // A workspace without projected files builds none; a rule removed since it was queued evaluates to nothing. The
  // build is queued first: were it in the evaluation's lane, it would run before it.
  await enqueue(t.db.db, { kind: BUILD_PROJECTIONS, key: `build:${run}`, payload: { workspaceId: 2_000_000_000 } });
  await enqueue(t.db.db, {
    kind: EVALUATE_RULE_DAY,
    key: `evaluate:${run}`,
    payload: { ruleId: randomUUID(), day: '2026-11-01' },
  });
  lanes.prompt.poke();
  lanes.bulk.poke();

  expect(await statusOnce(`evaluate:${run}`, (status) => status !== 'queued' && status !== 'running')).toBe('done');
  // The build waits in the bulk lane behind the running job.
  expect(await statusOnce(`build:${run}`, () => true)).toBe('queued');
  expect(await statusOnce(`hold:${run}`, () => true)).toBe('running');

  release();
  expect(await statusOnce(`build:${run}`, (status) => status !== 'queued' && status !== 'running')).toBe('done');
  expect(await statusOnce(`hold:${run}`, () => true)).toBe('done');
}, 120_000);
