import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AlertDetailRow, Weekday } from '../../../src/contracts/alerting';
import { users } from './accounts';
import { workspaces } from './workspaces';

interface MemberTest {
  member: string;
  operator: string;
  values: string[];
}

/** Alert rules (spec 3 §3). The id is the client's UUID, so a save is the same call for create and update. */
export const alertRules = pgTable(
  'alert_rules',
  {
    id: text('id').primaryKey(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    dataset: text('dataset').notNull(),
    dateField: text('date_field').notNull(),
    filters: jsonb('filters').$type<MemberTest[]>().notNull(),
    conditions: jsonb('conditions').$type<MemberTest[]>().notNull(),
    dimension: text('dimension'),
    mutedDays: jsonb('muted_days').$type<Weekday[]>().notNull(),
    duration: integer('duration').notNull(),
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    webhookUrl: text('webhook_url'),
    message: text('message').notNull(),
    enabled: boolean('enabled').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('alert_rules_workspace_idx').on(table.workspaceId)],
);

/**
 * The scheduled evaluation of one rule for one day: written once, in the transaction that opens or closes its
 * violation, so a rule-day is evaluated (and notified) exactly once whichever process ran it.
 */
export const alertEvaluations = pgTable(
  'alert_evaluations',
  {
    ruleId: text('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    result: boolean('result'),
    groups: jsonb('groups').$type<AlertDetailRow[]>().notNull(),
    evaluatedAt: timestamp('evaluated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.ruleId, table.day] })],
);

/** Violations: open from the day a rule's result turns true until the day it turns false. */
export const alertViolations = pgTable(
  'alert_violations',
  {
    id: serial('id').primaryKey(),
    ruleId: text('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    status: text('status').$type<'open' | 'closed'>().notNull(),
    openedOn: date('opened_on', { mode: 'string' }).notNull(),
    closedOn: date('closed_on', { mode: 'string' }),
    groups: jsonb('groups').$type<AlertDetailRow[]>().notNull(),
  },
  (table) => [
    index('alert_violations_workspace_idx').on(table.workspaceId),
    // At most one open violation per rule.
    uniqueIndex('alert_violations_one_open')
      .on(table.ruleId)
      .where(sql`${table.status} = 'open'`),
  ],
);
