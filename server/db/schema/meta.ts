import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Key/value facts about this installation (for example when the demo data was seeded),
 * so a restart can tell a fresh database from one that is already set up.
 */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
