import { z } from 'zod';

/** Largest value of a PostgreSQL integer (serial) column. */
export const MAX_ID = 2_147_483_647;

/**
 * An id in a JSON body: a positive integer that the database's integer columns can hold. A larger number is a
 * 400 like any other bad value, not a database error.
 */
export const idSchema = z.number().int().positive().max(MAX_ID);

/**
 * A positive integer id taken from a path segment. Anything else (':id', 'null', '-1', '', '0', '1.5',
 * 'abc', or a number beyond the integer range) fails with `message`.
 */
export const idFromPath = (message: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, message)
    .transform(Number)
    .refine((value) => value <= MAX_ID, message);

/** True for a real day written as YYYY-MM-DD: '2026-02-30' or '2026-13-01' is not one. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** Path params of every workspace-scoped route (`/workspaces/:workspaceId/...`). */
export const workspaceIdParamsSchema = z.object({ workspaceId: idFromPath('Invalid workspace id') });
export type WorkspaceIdParams = z.infer<typeof workspaceIdParamsSchema>;

/**
 * Header of create and save calls: a key the client makes once per user action and sends again with every retry
 * of it, so the server answers a repeat with the first result instead of making a second object.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Its format: what the client generates, with room for other clients' UUIDs. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * Answers of the bounds on what one account creates (429 for a daily bound, 403 for a total), in the spec's
 * style; the client shows them as they are.
 */
export const WORKSPACES_PER_DAY_REACHED =
  "You have reached today's limit for new workspaces, please try again tomorrow.";
export const REPORTS_PER_WORKSPACE_REACHED =
  'This workspace has reached its limit of reports, please delete reports you no longer need.';
export const UPLOADS_PER_DAY_REACHED =
  "This workspace has reached today's limit for uploads, please try again tomorrow.";
export const LIMIT_MESSAGES: ReadonlySet<string> = new Set([
  WORKSPACES_PER_DAY_REACHED,
  REPORTS_PER_WORKSPACE_REACHED,
  UPLOADS_PER_DAY_REACHED,
]);

/** The body of every error answer. */
export const errorResponseSchema = z.object({ error: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** `{ ok: true }` answers of calls that return nothing else. */
export const okResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

/** E-mail addresses as the product accepts them: trimmed, lower-cased, one address. */
export const emailSchema = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .max(254, 'Please enter a valid email address')
  .pipe(z.email({ error: 'Please enter a valid email address' }));

export const roleSchema = z.enum(['admin', 'member']);
export type Role = z.infer<typeof roleSchema>;

export const workspaceStatusSchema = z.enum(['new', 'active', 'suspended', 'cancelled']);
export type WorkspaceStatus = z.infer<typeof workspaceStatusSchema>;

export const localeSchema = z.enum(['en_US', 'en_GB', 'nl_NL']);
export type Locale = z.infer<typeof localeSchema>;

/**
 * Validation messages in the spec's own words (spec 1 §5, §8). When one of them is the first problem
 * of a request, the server answers it as it is, without naming the part or field, so the client can
 * show it word for word.
 */
export const SPEC_MESSAGES: ReadonlySet<string> = new Set([
  'Please enter a valid email address',
  'Your name should contain at least 1 character',
  "We currently don't support more than 256 characters.",
  "We currently don't support more than 64 characters.",
  'The company name should contain at least 1 character',
  "We currently don't support more than 30 characters.",
  'To proceed, choose at least one automation tool',
  'Name cannot be empty',
  'Please provide a message',
  'Please provide a consumer key',
  'Please provide a consumer secret',
  'Please select a date range',
  'Start date of period must be before the end date',
  'End date cannot be earlier than start date.',
  'invalid_email',
  'invalid_token',
]);
