import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_ALERT_DATASET } from '../../src/contracts/alerting';
import { addDays, startOfWeek } from '../../src/engine/dates';
import { buildQuery } from '../../src/engine/queries';
import { memberships, reportingSubscriptions, users, workspaces } from '../db/schema';
import { sendMail } from '../mail/mailer';
import type { AlertEvaluator } from './alerting/evaluate';

/** The week's key metrics in the summary (spec 1 profile: weekly summary subscriptions). */
export const SUMMARY_METRICS = ['sent', 'open_rate', 'click_rate', 'revenue'] as const;
const LABELS: Record<(typeof SUMMARY_METRICS)[number], string> = {
  sent: 'Sent',
  open_rate: 'Open rate',
  click_rate: 'Click rate',
  revenue: 'Revenue',
};

/** The Monday starting the week of `day`; a summary sent that week covers the seven days before it. */
export const mondayOf = (day: string): string => startOfWeek(day, 1);

/** Subscriptions still wanted when the summary goes: the user subscribed and still a member of the workspace. */
export async function summarySubscribers(app: FastifyInstance) {
  return app.db.db
    .select({ userId: users.id, email: users.email, workspaceId: workspaces.id, workspaceName: workspaces.name })
    .from(reportingSubscriptions)
    .innerJoin(users, eq(users.id, reportingSubscriptions.userId))
    .innerJoin(workspaces, eq(workspaces.id, reportingSubscriptions.workspaceId))
    .innerJoin(
      memberships,
      and(eq(memberships.userId, reportingSubscriptions.userId), eq(memberships.workspaceId, workspaces.id)),
    )
    .where(eq(reportingSubscriptions.type, 'weeklySummary'));
}

const format = (metric: string, value: number | null) => {
  if (value === null) return 'no data';
  return metric.endsWith('_rate') ? `${(value * 100).toFixed(2)}%` : String(Math.round(value * 100) / 100);
};

/**
 * Sends one user the summary of one workspace for the week before `monday`, against the week before that: the
 * engine's funnel query (the same SQL as the dashboards) over the send-date dataset. Nothing is sent when the user
 * unsubscribed or left the workspace since the job was queued.
 */
export async function sendWeeklySummary(
  app: FastifyInstance,
  evaluator: AlertEvaluator,
  target: { userId: number; workspaceId: number; monday: string },
): Promise<boolean> {
  const subscriber = (await summarySubscribers(app)).find(
    (row) => row.userId === target.userId && row.workspaceId === target.workspaceId,
  );
  if (!subscriber) return false;
  const week = { start: addDays(target.monday, -7), end: addDays(target.monday, -1) };
  const previous = { start: addDays(target.monday, -14), end: addDays(target.monday, -8) };
  const rows = await evaluator.runOnDataset(target.workspaceId, DEFAULT_ALERT_DATASET, (schema) =>
    buildQuery(schema, {
      kind: 'funnel',
      dataset: schema.id,
      range: week,
      compare: previous,
      metrics: [...SUMMARY_METRICS],
    }),
  );
  const of = (period: string, metric: string) => {
    const value = rows.find((row) => row.period === period)?.[metric];
    return value === null || value === undefined ? null : Number(value);
  };
  const lines = SUMMARY_METRICS.map(
    (metric) =>
      `${LABELS[metric]}: ${format(metric, of('main', metric))} (week before: ${format(metric, of('compare', metric))})`,
  );
  const link = `${app.config.publicUrl}/workspaces/${target.workspaceId}`;
  await sendMail(app, app.db.db, {
    to: subscriber.email,
    subject: `Your weekly summary for ${subscriber.workspaceName}`,
    text: [`The week of ${week.start} to ${week.end}:`, '', ...lines, '', `Open Openrate: ${link}`].join('\n'),
    link,
  });
  return true;
}
