import { integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces';

/** A connected unit of a provider (account, brand, campaign, view): its id and display name. */
export interface StoredUnit {
  id: string;
  name: string;
  /** A Google Analytics view's account and market. */
  account_name?: string;
  market?: string | null;
}

/**
 * A provider connected to a workspace. `credentials` is the sealed JSON of what the admin typed (API keys, client
 * secrets, tokens; server/services/secrets.ts), never sent back to the browser; it goes with the row.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    credentials: text('credentials'),
    /** The connected units; Active when there is at least one. */
    units: jsonb('units').$type<StoredUnit[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('integrations_workspace_type_idx').on(table.workspaceId, table.type)],
);

/**
 * Credentials the product issues to a workspace so it can push files (a GCS bucket key, an SFTP account):
 * generated once on first request, sealed at rest, shown only to admins.
 */
export const pushAccounts = pgTable(
  'push_accounts',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['gcs', 'sftp'] }).notNull(),
    sealed: text('sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('push_accounts_workspace_kind_idx').on(table.workspaceId, table.kind)],
);
