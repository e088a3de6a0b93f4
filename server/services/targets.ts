import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Field } from '../../src/contracts/datasets';
import type { ReportFilter } from '../../src/contracts/reports';
import type { Target, TargetDataset } from '../../src/contracts/targets';
import { validateFilters } from '../../src/features/widget-config/filterRules';
import { targets } from '../db/schema';
import { fieldsWithCustomFields, getCustomFieldGroups } from './dataModel';
import { findAvailableDataset } from './datasets';
import type { Executor, Transaction } from './db';

/** The stored fields a target answers with, in the contract's shape. */
const columns = {
  id: targets.id,
  workspaceId: targets.workspaceId,
  title: targets.title,
  dataset: targets.dataset,
  metric: targets.metric,
  target: targets.target,
  dateStart: targets.dateStart,
  dateEnd: targets.dateEnd,
  visualization: targets.visualization,
  filters: targets.filters,
};

type Row = Omit<Target, 'dataset'> & { dataset: string };
const asTarget = (row: Row): Target => ({ ...row, dataset: row.dataset as TargetDataset });

/** Every target of a workspace, ordered as the spec lists them (dateEnd descending, then title). */
export async function listTargets(db: Executor, workspaceId: number): Promise<Target[]> {
  const rows = await db
    .select(columns)
    .from(targets)
    .where(eq(targets.workspaceId, workspaceId))
    .orderBy(desc(targets.dateEnd), asc(targets.title), asc(targets.id));
  return rows.map(asTarget);
}

/** The targets of a workspace among `ids`, in the order of `ids` (a widget's own order). */
export async function targetsByIds(db: Executor, workspaceId: number, ids: readonly string[]): Promise<Target[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(columns)
    .from(targets)
    .where(and(eq(targets.workspaceId, workspaceId), inArray(targets.id, [...ids])));
  const byId = new Map(rows.map((row) => [row.id, asTarget(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Which workspace holds a target id, locking its row until the transaction ends; null when it is new. */
export async function targetOwner(tx: Transaction, id: string): Promise<number | null> {
  const [row] = await tx
    .select({ workspaceId: targets.workspaceId })
    .from(targets)
    .where(eq(targets.id, id))
    .for('update');
  return row?.workspaceId ?? null;
}

export type TargetValues = Omit<Target, 'workspaceId'>;

/** Writes a target of the workspace: a new row, or the fields of its existing one. */
export async function writeTarget(
  tx: Transaction,
  workspaceId: number,
  values: TargetValues,
  userId: number,
  exists: boolean,
): Promise<Target> {
  const { id, ...fields } = values;
  if (exists) {
    await tx
      .update(targets)
      .set({ ...fields, modifiedBy: userId, modifiedAt: new Date() })
      .where(and(eq(targets.id, id), eq(targets.workspaceId, workspaceId)));
  } else {
    await tx.insert(targets).values({ id, workspaceId, ...fields, createdBy: userId, modifiedBy: userId });
  }
  const [row] = await tx.select(columns).from(targets).where(eq(targets.id, id));
  return asTarget(row);
}

/** Deletes a target of the workspace; false when the workspace has no target with that id. */
export async function deleteTarget(db: Executor, workspaceId: number, id: string): Promise<boolean> {
  const deleted = await db
    .delete(targets)
    .where(and(eq(targets.id, id), eq(targets.workspaceId, workspaceId)))
    .returning({ id: targets.id });
  return deleted.length > 0;
}

/** The first problem of a filter list against the dataset's fields, nested groups included; null when valid. */
function filterProblem(fields: Field[], filters: readonly ReportFilter[]): string | null {
  const schema = { id: '', tableId: '', dateField: '', fields };
  const issues = validateFilters(schema, filters);
  for (const [index, filter] of filters.entries()) {
    const issue = issues[index];
    const message = issue.member ?? issue.operator ?? issue.values;
    if (message) return `Invalid filter ${filter.member ? `"${filter.member}"` : index + 1}: ${message}`;
    const nested = filter.and ?? filter.or;
    const inner = nested ? filterProblem(fields, nested) : null;
    if (inner) return inner;
  }
  return null;
}

/**
 * Checks a target against what its workspace holds: the dataset must be available to the workspace, the metric
 * one of its metrics and every filter member one of its fields, the workspace's custom fields included.
 * Returns the message of the first problem, or null.
 */
export async function targetProblem(
  db: Executor,
  workspaceId: number,
  values: Pick<Target, 'dataset' | 'metric' | 'filters'>,
): Promise<string | null> {
  const dataset = await findAvailableDataset(db, workspaceId, values.dataset);
  if (!dataset) return `Dataset "${values.dataset}" is not available in this workspace`;
  const fields = fieldsWithCustomFields(dataset, await getCustomFieldGroups(db, workspaceId));
  const metric = fields.find((field) => field.id === values.metric);
  if (metric?.type !== 'metric') return `Unknown metric "${values.metric}"`;
  return filterProblem(fields, values.filters);
}
