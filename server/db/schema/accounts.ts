import {
  boolean,
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

/** People who can sign in. E-mail addresses are stored lower-cased. */
export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  /** Google's `sub` claim once the account has signed in with Google. */
  googleSubject: text('google_subject').unique(),
  /** Base32 TOTP secret once two-factor authentication is on. */
  mfaSecret: text('mfa_secret'),
  /** Secret offered by the last setup call, until a valid code confirms it. */
  mfaPendingSecret: text('mfa_pending_secret'),
  /** The last accepted TOTP time step: a code is accepted once. */
  mfaLastStep: integer('mfa_last_step'),
  firstDayOfWeek: integer('first_day_of_week').notNull().default(1),
  showGettingStarted: boolean('show_getting_started').notNull().default(true),
  company: text('company'),
  esp: jsonb('esp').$type<string[]>(),
  newsletterOptIn: boolean('newsletter_opt_in'),
  signedUpAt: timestamp('signed_up_at', { withTimezone: true }),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Server-side sessions; `idHash` is the SHA-256 of the cookie value, never the value itself. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Signed in by e-mail or Google but the TOTP step is still due: reaches only the MFA check. */
    mfaPending: boolean('mfa_pending').notNull().default(false),
    /** The staff user acting as `userId`. */
    impersonatedBy: integer('impersonated_by').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/** E-mail sign-in requests: a link token and a manual code, bound to the browser that asked. */
export const loginTokens = pgTable(
  'login_tokens',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    deviceHash: text('device_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when used, or when a newer request from the same browser supersedes it. */
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('login_tokens_token_idx').on(table.tokenHash),
    index('login_tokens_email_idx').on(table.email),
    index('login_tokens_device_idx').on(table.deviceHash),
  ],
);

/** Proof-of-work solutions already accepted: each is accepted once. */
export const powSolutions = pgTable('pow_solutions', {
  signature: text('signature').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** One row per attempt on a rate-limited action, shared by every server process. */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('rate_limit_hits_key_idx').on(table.key, table.createdAt),
    index('rate_limit_hits_created_at_idx').on(table.createdAt),
  ],
);

/** Mail kept locally when no SMTP server is configured. */
export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  link: text('link'),
  code: text('code'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Security-relevant actions of staff (impersonation start and end). */
export const auditLog = pgTable('audit_log', {
  id: serial('id').primaryKey(),
  actorUserId: integer('actor_user_id').notNull(),
  action: text('action').notNull(),
  targetUserId: integer('target_user_id'),
  details: jsonb('details').$type<Record<string, unknown>>(),
  ip: text('ip'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const userFlags = pgTable(
  'user_flags',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    flag: text('flag').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.flag] })],
);
