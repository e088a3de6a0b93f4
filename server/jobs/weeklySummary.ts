import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AlertEvaluator } from '../services/alerting/evaluate';
import type { Executor } from '../services/db';
import { mondayOf, sendWeeklySummary, summarySubscribers } from '../services/weeklySummary';
import { type Job, enqueue } from './queue';
import type { JobHandler } from './worker';

export const SCHEDULE_WEEK = 'summary.schedule-week';
export const SEND_SUMMARY = 'summary.send';

const weekPayload = z.object({ monday: z.string() });
const sendPayload = z.object({ userId: z.number().int(), workspaceId: z.number().int(), monday: z.string() });

/** Queues the week's summaries once: the key (the Monday) is unique, whichever process asks first. */
export function enqueueWeek(db: Executor, monday: string): Promise<boolean> {
  return enqueue(db, { kind: SCHEDULE_WEEK, key: monday, payload: { monday } });
}

/**
 * Fans a week out into one job per subscribed user and workspace, keyed by user, workspace and Monday so each
 * gets one e-mail per week; the send job checks the subscription again, so unsubscribing stops the next one.
 */
export function weeklySummaryHandlers(app: FastifyInstance, evaluator: AlertEvaluator): Record<string, JobHandler> {
  return {
    [SCHEDULE_WEEK]: async (job: Job) => {
      const { monday } = weekPayload.parse(job.payload);
      for (const row of await summarySubscribers(app)) {
        const payload = { userId: row.userId, workspaceId: row.workspaceId, monday };
        await enqueue(app.db.db, { kind: SEND_SUMMARY, key: `${row.userId}:${row.workspaceId}:${monday}`, payload });
      }
    },
    [SEND_SUMMARY]: async (job: Job) => {
      await sendWeeklySummary(app, evaluator, sendPayload.parse(job.payload));
    },
  };
}

/** On Mondays from the set hour (ALERTS_EVALUATION_HOUR, UTC, when last week's data is complete). */
export async function scheduleDueWeek(app: FastifyInstance, now = new Date()): Promise<void> {
  const today = now.toISOString().slice(0, 10);
  if (now.getUTCDay() !== 1 || now.getUTCHours() < app.config.ALERTS_EVALUATION_HOUR) return;
  await enqueueWeek(app.db.db, mondayOf(today));
}
