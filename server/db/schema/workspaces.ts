import {
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** Licences group workspaces; an agency licence holds several client workspaces. */
export const licenses = pgTable('licenses', {
  id: serial('id').primaryKey(),
  type: text('type', { enum: ['agency', 'other'] }).notNull(),
  holderName: text('holder_name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const workspaces = pgTable('workspaces', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  status: text('status', { enum: ['new', 'active', 'suspended', 'cancelled'] })
    .notNull()
    .default('new'),
  locale: text('locale', { enum: ['en_US', 'en_GB', 'nl_NL'] })
    .notNull()
    .default('nl_NL'),
  /** Asset id of the current logo. */
  logo: text('logo'),
  licenseId: integer('license_id').references(() => licenses.id),
  activationRequestedAt: timestamp('activation_requested_at', { withTimezone: true }),
  /** Who created it: bounds how many workspaces one account creates a day. */
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const memberships = pgTable(
  'memberships',
  {
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
    /**
     * The name this workspace's admins gave the member. An account may belong to several workspaces, so an admin
     * names the membership, never the account.
     */
    displayName: text('display_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.userId] }),
    index('memberships_user_idx').on(table.userId),
  ],
);

export const workspaceFlags = pgTable(
  'workspace_flags',
  {
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    flag: text('flag').notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.flag] })],
);

/** Uploaded images (logos), re-encoded as PNG; kept in the database so every server process serves them. */
export const workspaceAssets = pgTable('workspace_assets', {
  id: text('id').primaryKey(),
  workspaceId: integer('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const annotations = pgTable(
  'annotations',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    severity: text('severity', { enum: ['note', 'critical'] }).notNull(),
    message: text('message').notNull(),
    dateStart: date('date_start', { mode: 'string' }).notNull(),
    dateEnd: date('date_end', { mode: 'string' }).notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('annotations_workspace_idx').on(table.workspaceId)],
);

/** Weekly summary e-mails a user asked for, per workspace. */
export const reportingSubscriptions = pgTable(
  'reporting_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['weeklySummary'] }).notNull(),
  },
  (table) => [uniqueIndex('reporting_subscriptions_unique_idx').on(table.userId, table.workspaceId, table.type)],
);

/**
 * Pending invitations: the membership is made only when the invitee opens the link (single use, expiring). A person
 * with no account yet is registered and signed in by it; an existing account must be signed in to accept.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The address exactly as the admin typed it (lower-cased): all the workspace learns until it is accepted. */
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'member'] })
      .notNull()
      .default('member'),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('invitations_token_idx').on(table.tokenHash),
    index('invitations_workspace_idx').on(table.workspaceId, table.email),
  ],
);
