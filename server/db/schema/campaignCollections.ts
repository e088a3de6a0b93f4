import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { CampaignCollection } from '../../../src/contracts/campaignCollections';
import { workspaces } from './workspaces';

/**
 * Campaign collections (baseline templates) of a workspace. The id is the client's, so a PUT creates or
 * replaces one; an id belongs to one workspace only.
 */
export const campaignCollections = pgTable(
  'campaign_collections',
  {
    id: text('id').primaryKey(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    rules: jsonb('rules').$type<CampaignCollection['rules']>().notNull(),
    baselineSet: jsonb('baseline_set').$type<CampaignCollection['baselineSet']>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUpdatedAt: timestamp('last_updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('campaign_collections_workspace_idx').on(table.workspaceId)],
);
