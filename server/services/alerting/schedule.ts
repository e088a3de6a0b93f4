import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AlertRule } from '../../../src/contracts/alerting';
import { ALERT_HISTORY_DAYS } from '../../../src/contracts/alerting';
import { daysEnding, needsHistory } from '../../../src/engine/alerts';
import { alertEvaluations, alertRules } from '../../db/schema';
import { sendMail } from '../../mail/mailer';
import { eqWhenGiven } from '../db';
import type { AlertEvaluator } from './evaluate';
import { toAlertRule } from './rules';
import { applyResult, isMuted, violationMail } from './violations';
import { queueWebhook, webhookBody } from './webhooks';

export type RuleDayOutcome = 'opened' | 'closed' | 'still open' | 'unchanged' | 'already evaluated' | 'rule removed';

/**
 * Evaluates one rule for one day, once: the evaluation row (primary key rule and day) is written in the same
 * transaction as the violation change, the notification mails (the outbox, or SMTP) and the webhook's queued
 * delivery, so a second run of the same rule-day, on this process or another, finds it and changes nothing.
 * Notifications go when a violation opens (mail and webhook), and as a daily reminder by mail on each later day it
 * is still true; never when the day falls on one of the rule's muted weekdays.
 */
export async function evaluateRuleDay(
  app: FastifyInstance,
  evaluator: AlertEvaluator,
  rule: AlertRule,
  day: string,
): Promise<RuleDayOutcome> {
  const query = { ...rule, dataset: rule.dataset };
  const days = needsHistory(query) ? daysEnding(day, ALERT_HISTORY_DAYS) : [day];
  const results = await evaluator.evaluate(rule.workspaceId, query, days);
  const { result, details } = results[results.length - 1];
  return app.db.db.transaction(async (tx) => {
    // The rule may have been removed while the engine evaluated it. Its row, held until the end, says so, and a
    // removal waits until this evaluation is written.
    const [held] = await tx
      .select({ id: alertRules.id })
      .from(alertRules)
      .where(eq(alertRules.id, rule.id))
      .for('share');
    if (!held) return 'rule removed';
    const written = await tx
      .insert(alertEvaluations)
      .values({ ruleId: rule.id, day, result, groups: details.results })
      .onConflictDoNothing()
      .returning({ day: alertEvaluations.day });
    if (written.length === 0) return 'already evaluated';
    const violation = await applyResult(tx, rule, day, result, details.results);
    const notify = violation && violation.change !== 'closed' && !isMuted(rule, day);
    if (notify) {
      // A reminder names the day the violation opened; webhooks hear of the opening only.
      const openSince = violation.change === 'still open' ? violation.openedOn : undefined;
      for (const to of rule.recipients) {
        await sendMail(app, tx, violationMail(rule, to, day, details.results, app.config.publicUrl, openSince));
      }
      if (violation.change === 'opened') {
        await queueWebhook(tx, rule, day, webhookBody(rule, day, details.results, app.config.publicUrl));
      }
    }
    return violation?.change ?? 'unchanged';
  });
}

/** The enabled rules of one workspace, or of every workspace. */
export async function enabledRules(app: FastifyInstance, workspaceId?: number): Promise<AlertRule[]> {
  const rows = await app.db.db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.enabled, true), eqWhenGiven(alertRules.workspaceId, workspaceId)));
  return rows.map(toAlertRule);
}

/** Evaluates a workspace's enabled rules for one day now (the development trigger), counting the changes. */
export async function evaluateWorkspaceDay(
  app: FastifyInstance,
  evaluator: AlertEvaluator,
  workspaceId: number,
  day: string,
): Promise<{ evaluated: number; opened: number; closed: number }> {
  const counts = { evaluated: 0, opened: 0, closed: 0 };
  for (const rule of await enabledRules(app, workspaceId)) {
    const outcome = await evaluateRuleDay(app, evaluator, rule, day);
    if (outcome === 'already evaluated' || outcome === 'rule removed') continue;
    counts.evaluated += 1;
    if (outcome === 'opened') counts.opened += 1;
    if (outcome === 'closed') counts.closed += 1;
  }
  return counts;
}
