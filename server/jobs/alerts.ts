import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AlertEvaluator, lastCompleteDay } from '../services/alerting/evaluate';
import { findRuleById } from '../services/alerting/rules';
import { enabledRules, evaluateRuleDay } from '../services/alerting/schedule';
import { DELIVER_WEBHOOK, attemptWebhook } from '../services/alerting/webhooks';
import type { Executor } from '../services/db';
import { integrationImportHandlers } from './imports';
import { projectionHandlers } from './projections';
import { type Job } from './queue';
import { enqueue } from './queue';
import { scheduleDueWeek, weeklySummaryHandlers } from './weeklySummary';
import { type JobHandler, JobWorker } from './worker';

export const SCHEDULE_DAY = 'alerts.schedule-day';
export const EVALUATE_RULE_DAY = 'alerts.evaluate';
/** How often each process checks whether the day's evaluation is due. */
const SCHEDULER_TICK_MS = 60_000;

const dayPayload = z.object({ day: z.string() });
const ruleDayPayload = z.object({ ruleId: z.string(), day: z.string() });
const deliveryPayload = z.object({ deliveryId: z.number(), body: z.string() });

/** Queues the evaluation of one rule for one day; the key makes it happen once (with alert_evaluations' key). */
export function enqueueRuleDay(db: Executor, ruleId: string, day: string): Promise<boolean> {
  return enqueue(db, { kind: EVALUATE_RULE_DAY, key: `${ruleId}:${day}`, payload: { ruleId, day } });
}

/** The job handlers of alerting: fan a day out into one job per enabled rule, evaluate one rule-day, call a webhook. */
export function alertJobHandlers(app: FastifyInstance, evaluator: AlertEvaluator): Record<string, JobHandler> {
  return {
    [SCHEDULE_DAY]: async (job: Job) => {
      const { day } = dayPayload.parse(job.payload);
      for (const rule of await enabledRules(app)) await enqueueRuleDay(app.db.db, rule.id, day);
    },
    [EVALUATE_RULE_DAY]: async (job: Job) => {
      const { ruleId, day } = ruleDayPayload.parse(job.payload);
      const rule = await findRuleById(app.db.db, ruleId);
      // Removed or switched off since it was queued: nothing to evaluate.
      if (!rule?.enabled) return;
      await evaluateRuleDay(app, evaluator, rule, day);
    },
    // One attempt per claim; a failure throws so the queue retries it after its back-off.
    [DELIVER_WEBHOOK]: async (job: Job) => {
      const { deliveryId, body } = deliveryPayload.parse(job.payload);
      await attemptWebhook(app, deliveryId, body, job.attempts >= job.maxAttempts);
    },
  };
}

/** Queues the last complete day's evaluation once it is due: at ALERTS_EVALUATION_HOUR (UTC) or later. */
export async function scheduleDueDay(app: FastifyInstance, now = new Date()): Promise<void> {
  if (now.getUTCHours() < app.config.ALERTS_EVALUATION_HOUR) return;
  const day = lastCompleteDay(now);
  await enqueue(app.db.db, { kind: SCHEDULE_DAY, key: day, payload: { day } });
}

/** Handlers added to a lane beside the product's own (tests). */
export type LaneHandlers = Partial<Record<'bulk' | 'prompt', Record<string, JobHandler>>>;

/**
 * This process's job workers, one per lane; each runs its lane's jobs one at a time. A provider's import and the
 * rebuild of projected dataset files after it (minutes at 10^7 rows) run in the bulk lane, so they never hold up what
 * is due at a time of day or retried on a schedule: alert evaluations, webhook calls and summary mails.
 */
export function jobLanes(
  app: FastifyInstance,
  evaluator: AlertEvaluator,
  extra: LaneHandlers = {},
): { prompt: JobWorker; bulk: JobWorker } {
  const lane = (handlers: Record<string, JobHandler>) => new JobWorker({ db: app.db.db, log: app.log, handlers });
  return {
    prompt: lane({ ...alertJobHandlers(app, evaluator), ...weeklySummaryHandlers(app, evaluator), ...extra.prompt }),
    bulk: lane({ ...integrationImportHandlers(app), ...projectionHandlers(app), ...extra.bulk }),
  };
}

/**
 * Starts this process's job workers (`jobLanes`) and the daily (alerts) and weekly (summary e-mails) schedulers;
 * every process may run them on the same database. Answers a stop function for the shutdown.
 */
export function startJobs(app: FastifyInstance): () => Promise<void> {
  const evaluator = new AlertEvaluator(app.db.db, app.config.dataDir);
  const { prompt, bulk } = jobLanes(app, evaluator);
  const tick = () =>
    Promise.all([scheduleDueDay(app), scheduleDueWeek(app)])
      .then(() => prompt.poke())
      .catch((error: unknown) => app.log.warn({ err: error }, 'alert scheduling failed'));
  void tick();
  const timer = setInterval(tick, SCHEDULER_TICK_MS);
  prompt.start();
  bulk.start();
  return async () => {
    clearInterval(timer);
    await Promise.all([prompt.stop(), bulk.stop()]);
    await evaluator.close();
  };
}
