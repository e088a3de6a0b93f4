import { integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import type { CustomFieldGroup } from '../../../src/contracts/dataModel';
import { workspaces } from './workspaces';

/**
 * The custom fields of a workspace's data model: the whole list of groups in one row, replaced in one
 * statement on save, so readers never see half of a save.
 */
export const customFields = pgTable('custom_fields', {
  workspaceId: integer('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  groups: jsonb('groups').$type<CustomFieldGroup[]>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by'),
});
