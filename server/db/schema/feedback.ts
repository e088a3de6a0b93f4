import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { workspaces } from './workspaces';

/**
 * Feedback sent from the sidebar. Name and e-mail are copied as they were when it was sent, so the feedback
 * still says who wrote it after the account changes or is removed.
 */
export const feedback = pgTable('feedback', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  /** The workspace the user was in, when there was one. */
  workspaceId: integer('workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
