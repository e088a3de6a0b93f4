import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Me, PatchMeBody, ReportingSubscription, SignupBody } from '../../src/contracts/me';
import { safeEqual } from '../auth/crypto';
import { acceptTotp, matchingStep, newTotpSecret } from '../auth/totp';
import { memberships, reportingSubscriptions, users } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import type { Executor } from './db';
import { listUserWorkspaces } from './workspaces';

/** How often signing in marks a user as seen: often enough for the members page, rarely enough to cost nothing. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export const isStaffEmail = (email: string, domain: string) => email.endsWith(`@${domain.toLowerCase()}`);

/** The signed-in user as GET /me answers: account, workspaces, onboarding state and who impersonates them. */
export async function loadMe(
  db: Executor,
  userId: number,
  impersonatedBy: number | null,
  staffDomain: string,
): Promise<Me> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound();
  const workspaces = await listUserWorkspaces(db, userId);
  let impersonator: Me['impersonatedBy'] = null;
  if (impersonatedBy !== null) {
    const [staff] = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.id, impersonatedBy));
    impersonator = staff ?? null;
  }
  const needsName = user.name === user.email;
  const needsWorkspace = workspaces.length === 0;
  return {
    memberId: user.id,
    email: user.email,
    name: user.name,
    workspaces,
    onboardingRequired: needsName || needsWorkspace,
    mfaEnabled: user.mfaSecret !== null,
    isStaff: impersonatedBy === null && isStaffEmail(user.email, staffDomain),
    needsName,
    needsWorkspace,
    needsOnboarding: needsName || needsWorkspace,
    firstDayOfWeek: user.firstDayOfWeek,
    showGettingStarted: user.showGettingStarted,
    impersonatedBy: impersonator,
  };
}

/** Records that the user was seen, at most once a minute. */
export async function markSeen(db: Executor, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ lastSeenAt: new Date() })
    .where(
      and(
        eq(users.id, userId),
        or(isNull(users.lastSeenAt), lt(users.lastSeenAt, new Date(Date.now() - LAST_SEEN_RESOLUTION_MS))),
      ),
    );
}

export async function updateProfile(db: Executor, userId: number, changes: PatchMeBody): Promise<void> {
  const { name, firstDayOfWeek, showGettingStarted } = changes;
  if (name === undefined && firstDayOfWeek === undefined && showGettingStarted === undefined) return;
  await db.update(users).set({ name, firstDayOfWeek, showGettingStarted }).where(eq(users.id, userId));
}

/** Starts two-factor setup: a pending secret, kept until the user proves they hold it. */
export async function startMfaSetup(db: Executor, userId: number): Promise<{ email: string; secret: string }> {
  const [user] = await db
    .select({ email: users.email, mfaSecret: users.mfaSecret })
    .from(users)
    .where(eq(users.id, userId));
  if (user.mfaSecret) throw badRequest('Two-factor authentication is already enabled');
  const secret = newTotpSecret();
  await db.update(users).set({ mfaPendingSecret: secret }).where(eq(users.id, userId));
  return { email: user.email, secret };
}

/** Turns two-factor on with the pending secret and a code from it; the step is kept so the code is not reused. */
export async function enableMfa(db: Executor, userId: number, secret: string, token: string): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (user.mfaSecret) throw badRequest('Two-factor authentication is already enabled');
  if (!user.mfaPendingSecret || !safeEqual(user.mfaPendingSecret, secret)) throw badRequest('invalid_token');
  const step = matchingStep(secret, token);
  if (step === null) throw badRequest('invalid_token');
  const updated = await db
    .update(users)
    .set({ mfaSecret: secret, mfaPendingSecret: null, mfaLastStep: step })
    .where(and(eq(users.id, userId), isNull(users.mfaSecret), eq(users.mfaPendingSecret, secret)))
    .returning({ id: users.id });
  if (updated.length === 0) throw badRequest('invalid_token');
}

export async function disableMfa(db: Executor, userId: number, token: string): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user.mfaSecret || !(await acceptTotp(db, userId, user.mfaSecret, token))) throw badRequest('invalid_token');
  await db.update(users).set({ mfaSecret: null, mfaPendingSecret: null }).where(eq(users.id, userId));
}

/** Completes the signup form once; a second time is refused. */
export async function completeSignup(db: Executor, userId: number, body: SignupBody): Promise<void> {
  const { name, company, esp, newsletter_opt_in: newsletterOptIn } = body;
  const updated = await db
    .update(users)
    .set({ name, company, esp, newsletterOptIn, signedUpAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.signedUpAt)))
    .returning({ id: users.id });
  if (updated.length === 0) throw badRequest('account_already_exists');
}

function toSubscription(row: { id: number; userId: number; workspaceId: number }): ReportingSubscription {
  return { id: row.id, memberId: row.userId, payload: { type: 'weeklySummary', workspaceId: row.workspaceId } };
}

export async function listSubscriptions(db: Executor, userId: number): Promise<ReportingSubscription[]> {
  const rows = await db
    .select()
    .from(reportingSubscriptions)
    .where(eq(reportingSubscriptions.userId, userId))
    .orderBy(asc(reportingSubscriptions.id));
  return rows.map(toSubscription);
}

/** The workspace of a subscription must be one of the user's; otherwise it does not exist for them. */
async function requireMembership(db: Executor, userId: number, workspaceId: number): Promise<void> {
  const [membership] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, workspaceId)));
  if (!membership) throw notFound();
}

const subscriptionOf = (userId: number, workspaceId: number) =>
  and(eq(reportingSubscriptions.userId, userId), eq(reportingSubscriptions.workspaceId, workspaceId));

/** Subscribes the user to a workspace's weekly summary; subscribing twice keeps the one subscription. */
export async function subscribe(db: Executor, userId: number, workspaceId: number): Promise<ReportingSubscription> {
  await requireMembership(db, userId, workspaceId);
  await db.insert(reportingSubscriptions).values({ userId, workspaceId, type: 'weeklySummary' }).onConflictDoNothing();
  const [row] = await db.select().from(reportingSubscriptions).where(subscriptionOf(userId, workspaceId));
  return toSubscription(row);
}

/** Moves one of the user's subscriptions to another of their workspaces, unless one exists there already. */
export async function moveSubscription(
  db: Executor,
  userId: number,
  id: number,
  workspaceId: number,
): Promise<ReportingSubscription> {
  await requireMembership(db, userId, workspaceId);
  const [existing] = await db
    .select()
    .from(reportingSubscriptions)
    .where(and(eq(reportingSubscriptions.id, id), eq(reportingSubscriptions.userId, userId)));
  if (!existing) throw notFound();
  const [clash] = await db
    .select({ id: reportingSubscriptions.id })
    .from(reportingSubscriptions)
    .where(subscriptionOf(userId, workspaceId));
  if (clash && clash.id !== existing.id) throw badRequest('Failed to update alert');
  const [row] = await db
    .update(reportingSubscriptions)
    .set({ workspaceId })
    .where(eq(reportingSubscriptions.id, existing.id))
    .returning();
  return toSubscription(row);
}

export async function unsubscribe(db: Executor, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(reportingSubscriptions)
    .where(and(eq(reportingSubscriptions.id, id), eq(reportingSubscriptions.userId, userId)))
    .returning({ id: reportingSubscriptions.id });
  if (deleted.length === 0) throw notFound();
}
