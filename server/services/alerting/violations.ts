import { and, asc, eq } from 'drizzle-orm';
import {
  ALERT_TOOLTIP_ROWS,
  type AlertDetailRow,
  type AlertRule,
  type AlertViolation,
  WEEKDAYS,
} from '../../../src/contracts/alerting';
import { weekday } from '../../../src/engine/dates';
import { alertViolations } from '../../db/schema';
import type { Mail } from '../../mail/mailer';
import type { Executor, Transaction } from '../db';

export async function listViolations(db: Executor, workspaceId: number): Promise<AlertViolation[]> {
  const rows = await db
    .select()
    .from(alertViolations)
    .where(eq(alertViolations.workspaceId, workspaceId))
    .orderBy(asc(alertViolations.id));
  return rows.map((row) => ({
    id: row.id,
    ruleId: row.ruleId,
    status: row.status,
    openedOn: row.openedOn,
    closedOn: row.closedOn,
    groups: row.groups,
  }));
}

/** True when notifications of `day` are muted by the rule (mutedDays names weekdays, Monday first). */
export function isMuted(rule: Pick<AlertRule, 'mutedDays'>, day: string): boolean {
  return rule.mutedDays.includes(WEEKDAYS[(weekday(day) + 6) % 7]);
}

/** What one day's result did to the rule's violation, and since when the violation it concerns is open. */
export interface ViolationChange {
  change: 'opened' | 'closed' | 'still open';
  openedOn: string;
}

/**
 * Applies one day's result: true opens a violation when none is open (or finds the open one still open), false
 * closes the open one, null (no data) changes nothing. Answers null when there is no violation to speak of. The
 * open violation is locked, and at most one may be open per rule (unique index), so two writers cannot both open one.
 */
export async function applyResult(
  tx: Transaction,
  rule: Pick<AlertRule, 'id' | 'workspaceId'>,
  day: string,
  result: boolean | null,
  groups: AlertDetailRow[],
): Promise<ViolationChange | null> {
  const [open] = await tx
    .select()
    .from(alertViolations)
    .where(and(eq(alertViolations.ruleId, rule.id), eq(alertViolations.status, 'open')))
    .for('update');
  if (result === true && !open) {
    await tx.insert(alertViolations).values({
      ruleId: rule.id,
      workspaceId: rule.workspaceId,
      status: 'open',
      openedOn: day,
      groups,
    });
    return { change: 'opened', openedOn: day };
  }
  // A later day than the opening one (an evaluation of an earlier day, run late, reminds of nothing).
  if (result === true && open && day > open.openedOn) return { change: 'still open', openedOn: open.openedOn };
  if (result === false && open) {
    await tx.update(alertViolations).set({ status: 'closed', closedOn: day }).where(eq(alertViolations.id, open.id));
    return { change: 'closed', openedOn: open.openedOn };
  }
  return null;
}

const formatValue = (value: number | null) => (value === null ? 'no data' : String(Math.round(value * 1000) / 1000));

/**
 * The e-mail of a violation that opened, or, with `openSince`, the daily reminder of one still open: title,
 * message, the day, the groups that fired with their values, a link.
 */
export function violationMail(
  rule: Pick<AlertRule, 'id' | 'title' | 'message' | 'workspaceId'>,
  to: string,
  day: string,
  groups: AlertDetailRow[],
  origin: string,
  openSince?: string,
): Mail {
  const link = `${origin}/workspaces/${rule.workspaceId}/alerting/${rule.id}`;
  const fired = groups.filter((group) => group.result === true);
  const lines = fired.slice(0, ALERT_TOOLTIP_ROWS).map((group) => {
    const values = Object.entries(group.values).map(([member, value]) => `${member} ${formatValue(value)}`);
    return `- ${group.group ?? 'All'}: ${values.join(', ')}`;
  });
  if (fired.length > lines.length) lines.push(`… and ${fired.length - lines.length} more`);
  return {
    to,
    subject: openSince ? `Alert still open: ${rule.title}` : `Alert: ${rule.title}`,
    text: [
      openSince
        ? `Your alert "${rule.title}" is still triggered on ${day} (open since ${openSince}).`
        : `Your alert "${rule.title}" was triggered on ${day}.`,
      ...(rule.message ? ['', rule.message] : []),
      '',
      ...lines,
      '',
      `Open the alert: ${link}`,
    ].join('\n'),
    link,
  };
}
