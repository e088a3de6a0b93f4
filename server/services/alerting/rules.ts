import { and, asc, count, eq } from 'drizzle-orm';
import {
  type AlertRule,
  type AlertRuleValues,
  EVENT_DATE_DATASET,
  conditionNeedsMetricMessage,
  unknownFieldMessage,
} from '../../../src/contracts/alerting';
import { toDatasetSchema } from '../../../src/contracts/catalogue';
import type { DatasetSchema } from '../../../src/contracts/datasets';
import { alertEvaluationSql } from '../../../src/engine/alerts';
import { QueryBuildError } from '../../../src/engine/sql';
import { alertRules, users, workspaces } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { getCustomFieldGroups, fieldsWithCustomFields } from '../dataModel';
import { findAvailableDataset } from '../datasets';
import type { Executor, Transaction } from '../db';

/** Rules one workspace may keep: each is evaluated every day, so the bound keeps the daily run finite. */
export const MAX_ALERT_RULES_PER_WORKSPACE = 500;
export const ALERT_RULES_PER_WORKSPACE_REACHED =
  'This workspace has reached its limit of alert rules, please remove rules you no longer need.';

type RuleRow = typeof alertRules.$inferSelect;

export function toAlertRule(row: RuleRow): AlertRule {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    title: row.title,
    dataset: row.dataset,
    dateField: row.dateField,
    filters: row.filters,
    conditions: row.conditions,
    dimension: row.dimension,
    mutedDays: row.mutedDays,
    duration: row.duration,
    recipients: row.recipients,
    webhookUrl: row.webhookUrl,
    message: row.message,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
  };
}

export async function listAlertRules(db: Executor, workspaceId: number): Promise<AlertRule[]> {
  const rows = await db
    .select()
    .from(alertRules)
    .where(eq(alertRules.workspaceId, workspaceId))
    .orderBy(asc(alertRules.createdAt), asc(alertRules.id));
  return rows.map(toAlertRule);
}

/** The rule if it belongs to the workspace; a rule of another workspace is as unknown as a missing one. */
export async function findAlertRule(db: Executor, workspaceId: number, id: string): Promise<AlertRule | undefined> {
  const [row] = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.id, id), eq(alertRules.workspaceId, workspaceId)));
  return row && toAlertRule(row);
}

/** The dataset's schema with the workspace's custom fields, when the workspace may use that dataset. */
export async function workspaceDatasetSchema(
  db: Executor,
  workspaceId: number,
  datasetId: string,
): Promise<DatasetSchema | undefined> {
  const dataset = await findAvailableDataset(db, workspaceId, datasetId);
  if (!dataset) return undefined;
  const groups = await getCustomFieldGroups(db, workspaceId);
  return { ...toDatasetSchema(dataset), fields: fieldsWithCustomFields(dataset, groups) };
}

/**
 * Checks a rule against the workspace's schema (spec 3 §5): the dataset is available, the date field is one of its
 * date fields (the event-date dataset keeps its own), the dimension is a dimension, filter members exist and
 * condition members are metrics. Then the engine builds the rule's SQL once, so a value it cannot read (a
 * non-number for gt, an inRange without a maximum) is a 400 now rather than a failed evaluation later.
 */
export async function checkAgainstSchema(db: Executor, workspaceId: number, rule: AlertRuleValues): Promise<void> {
  const schema = await workspaceDatasetSchema(db, workspaceId, rule.dataset);
  if (!schema) throw badRequest('This dataset is not available in this workspace');
  const byId = new Map(schema.fields.map((field) => [field.id, field]));
  const dateField = byId.get(rule.dateField);
  if (!dateField || dateField.format !== 'date') throw badRequest(unknownFieldMessage(rule.dateField));
  if (rule.dataset === EVENT_DATE_DATASET && rule.dateField !== schema.dateField) {
    throw badRequest(unknownFieldMessage(rule.dateField));
  }
  if (rule.dimension && byId.get(rule.dimension)?.type !== 'dimension') {
    throw badRequest(unknownFieldMessage(rule.dimension));
  }
  const missing = rule.filters.find((filter) => !byId.has(filter.member));
  if (missing) throw badRequest(unknownFieldMessage(missing.member));
  for (const condition of rule.conditions) {
    const field = byId.get(condition.member);
    if (!field) throw badRequest(unknownFieldMessage(condition.member));
    if (field.type !== 'metric') throw badRequest(conditionNeedsMetricMessage(condition.member));
  }
  try {
    alertEvaluationSql(schema, rule, ['2000-01-01']);
  } catch (error) {
    if (error instanceof QueryBuildError) throw badRequest(error.message);
    throw error;
  }
}

/** The caller's e-mail: the recipients of a rule saved without any (spec 3 §3 defaults). */
export async function userEmail(db: Executor, userId: number): Promise<string> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user.email;
}

/**
 * Creates the rule `id` or replaces it (spec 3 §7: one PUT for both). An id taken by another workspace's rule is
 * a 404, like any rule the caller cannot see. Creating counts against the workspace's bound, under the
 * workspace row's lock so that concurrent creates are counted one after the other.
 */
export async function saveAlertRule(
  tx: Transaction,
  workspaceId: number,
  id: string,
  userId: number,
  rule: AlertRuleValues & { recipients: string[] },
): Promise<{ rule: AlertRule; created: boolean }> {
  await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
  const [existing] = await tx.select().from(alertRules).where(eq(alertRules.id, id)).for('update');
  if (existing && existing.workspaceId !== workspaceId) throw notFound();
  const values = { ...rule, workspaceId };
  if (existing) {
    const [row] = await tx
      .update(alertRules)
      .set({ ...values, modifiedAt: new Date() })
      .where(eq(alertRules.id, id))
      .returning();
    return { rule: toAlertRule(row), created: false };
  }
  const [{ n }] = await tx.select({ n: count() }).from(alertRules).where(eq(alertRules.workspaceId, workspaceId));
  if (Number(n) >= MAX_ALERT_RULES_PER_WORKSPACE) throw forbidden(ALERT_RULES_PER_WORKSPACE_REACHED);
  const [row] = await tx
    .insert(alertRules)
    .values({ ...values, id, createdBy: userId })
    .returning();
  return { rule: toAlertRule(row), created: true };
}

/** Removes a rule with its evaluations and violations; false when the workspace has no such rule. */
export async function deleteAlertRule(db: Executor, workspaceId: number, id: string): Promise<boolean> {
  const removed = await db
    .delete(alertRules)
    .where(and(eq(alertRules.id, id), eq(alertRules.workspaceId, workspaceId)))
    .returning({ id: alertRules.id });
  return removed.length > 0;
}

/** A rule by id alone, for the job that evaluates it (the job was queued for that rule's workspace). */
export async function findRuleById(db: Executor, id: string): Promise<AlertRule | undefined> {
  const [row] = await db.select().from(alertRules).where(eq(alertRules.id, id));
  return row && toAlertRule(row);
}
