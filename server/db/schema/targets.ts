import { date, doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { ReportFilter } from '../../../src/contracts/reports';
import { users } from './accounts';
import { workspaces } from './workspaces';

/**
 * Targets of a workspace (spec 2 §3 Target). The id is the client's: a PUT creates or updates, so a retried
 * create never makes a second target. Ids are unique across workspaces, so one workspace cannot write over
 * another's target by naming its id.
 */
export const targets = pgTable(
  'targets',
  {
    id: text('id').primaryKey(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    dataset: text('dataset').notNull(),
    metric: text('metric').notNull(),
    target: doublePrecision('target').notNull().default(0),
    dateStart: date('date_start', { mode: 'string' }).notNull(),
    dateEnd: date('date_end', { mode: 'string' }).notNull(),
    visualization: text('visualization', { enum: ['line', 'bar'] })
      .notNull()
      .default('line'),
    filters: jsonb('filters').$type<ReportFilter[]>().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedBy: integer('modified_by').references(() => users.id, { onDelete: 'set null' }),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('targets_workspace_idx').on(table.workspaceId)],
);
