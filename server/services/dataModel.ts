import { eq } from 'drizzle-orm';
import { catalogue, type CatalogueDataset } from '../../src/contracts/catalogue';
import type { CustomFieldGroup } from '../../src/contracts/dataModel';
import type { Field } from '../../src/contracts/datasets';
import { customFieldToField } from '../../src/engine/dataModel/edit';
import { mergeCustomFields, validateCustomFieldGroups } from '../../src/engine/dataModel/validation';
import { customFields } from '../db/schema';
import type { Executor } from './db';

export async function getCustomFieldGroups(db: Executor, workspaceId: number): Promise<CustomFieldGroup[]> {
  const [row] = await db
    .select({ groups: customFields.groups })
    .from(customFields)
    .where(eq(customFields.workspaceId, workspaceId));
  return row?.groups ?? [];
}

/**
 * Replaces every custom field of the workspace, after checking the whole list with the data-model rules;
 * returns the first rule's message instead of writing anything when some field is invalid.
 */
export async function saveCustomFieldGroups(
  db: Executor,
  workspaceId: number,
  userId: number,
  groups: CustomFieldGroup[],
): Promise<{ error: string } | { groups: CustomFieldGroup[] }> {
  const tables = new Map(catalogue.map((dataset) => [dataset.id, dataset.fields]));
  const error = validateCustomFieldGroups(groups, tables);
  if (error) return { error };
  await db
    .insert(customFields)
    .values({ workspaceId, groups, updatedBy: userId })
    .onConflictDoUpdate({
      target: customFields.workspaceId,
      set: { groups, updatedBy: userId, updatedAt: new Date() },
    });
  return { groups };
}

/** A dataset's fields with the workspace's custom fields merged in at their anchors. */
export function fieldsWithCustomFields(dataset: CatalogueDataset, groups: readonly CustomFieldGroup[]): Field[] {
  const own = groups
    .filter((group) => group.table === dataset.id)
    .map((group) => ({ ...group, fields: group.fields.map(customFieldToField) }));
  return mergeCustomFields(dataset.fields, own).fields;
}
