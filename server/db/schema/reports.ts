import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import type { ReportConfig } from '../../../src/contracts/reports';
import { users } from './accounts';
import { workspaces } from './workspaces';

/**
 * Reports (dashboards and explorer views) of a workspace. `version` grows by one per save; a save names the
 * version it was based on and only succeeds while that is still the current one.
 */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['dashboard', 'explorer_view'] }).notNull(),
    title: text('title').notNull(),
    config: jsonb('config').$type<ReportConfig>().notNull(),
    version: integer('version').notNull().default(1),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedBy: integer('modified_by').references(() => users.id, { onDelete: 'set null' }),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('reports_workspace_idx').on(table.workspaceId)],
);

/**
 * Access entries of a report: one per member (`user`), one for everyone in the workspace (`workspace`, no
 * user) and one for the public link (`public`, no user). A missing entry means access level none.
 */
export const reportPermissions = pgTable(
  'report_permissions',
  {
    id: serial('id').primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    subjectType: text('subject_type', { enum: ['user', 'workspace', 'public'] }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    accessLevel: text('access_level', { enum: ['none', 'read', 'read_write', 'full_access'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('report_permissions_subject_uq').on(table.reportId, table.subjectType, table.userId).nullsNotDistinct(),
  ],
);

/** When each user last opened a report (the home list's default order). */
export const reportOpens = pgTable(
  'report_opens',
  {
    reportId: integer('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.reportId, table.userId] })],
);
