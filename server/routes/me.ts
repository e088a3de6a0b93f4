import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import QRCode from 'qrcode';
import {
  IMPERSONATION_READ_ONLY,
  mfaDisableBodySchema,
  mfaEnableBodySchema,
  patchMeBodySchema,
  signupBodySchema,
  subscriptionBodySchema,
  subscriptionParamsSchema,
  type Me,
  type ReportingSubscription,
} from '../../src/contracts/me';
import { requireUser } from '../auth/access';
import { safeEqual } from '../auth/crypto';
import { acceptTotp, matchingStep, newTotpSecret, totpFor } from '../auth/totp';
import { memberships, reportingSubscriptions, users } from '../db/schema';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import type { Executor } from '../services/db';
import { getUserFlags } from '../services/flags';
import { consumeRateLimits } from '../services/rateLimit';
import { listUserWorkspaces } from '../services/workspaces';

/** How often signing in marks a user as seen: often enough for the members page, rarely enough to cost nothing. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export const isStaffEmail = (email: string, domain: string) => email.endsWith(`@${domain.toLowerCase()}`);

async function loadMe(db: Executor, userId: number, impersonatedBy: number | null, staffDomain: string): Promise<Me> {
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

function toSubscription(row: { id: number; userId: number; workspaceId: number }): ReportingSubscription {
  return { id: row.id, memberId: row.userId, payload: { type: 'weeklySummary', workspaceId: row.workspaceId } };
}

/** The signed-in user: initial data, profile, flags, two-factor settings, signup and weekly summaries. */
export const meRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const config = app.config;

  app.get('/me', async (request) => {
    const { userId, impersonatedBy } = await requireUser(request);
    // Staff looking through a user's eyes does not count as the user being seen.
    if (impersonatedBy === null) {
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
    return loadMe(db, userId, impersonatedBy, config.STAFF_EMAIL_DOMAIN);
  });

  /** What belongs to the account holder alone (profile, two-factor, subscriptions): never an impersonated session. */
  const requireOwnSession = async (request: Parameters<typeof requireUser>[0]) => {
    const user = await requireUser(request);
    if (user.impersonatedBy !== null) throw forbidden(IMPERSONATION_READ_ONLY);
    return user;
  };

  app.patch('/me', { schema: { body: patchMeBodySchema } }, async (request) => {
    const { userId, impersonatedBy } = await requireUser(request);
    const { name, firstDayOfWeek, showGettingStarted } = request.body;
    // Staff may dismiss the getting-started drawer while looking around, but not edit the holder's profile.
    if (impersonatedBy !== null && (name !== undefined || firstDayOfWeek !== undefined)) {
      throw forbidden(IMPERSONATION_READ_ONLY);
    }
    if (name !== undefined || firstDayOfWeek !== undefined || showGettingStarted !== undefined) {
      await db.update(users).set({ name, firstDayOfWeek, showGettingStarted }).where(eq(users.id, userId));
    }
    return loadMe(db, userId, impersonatedBy, config.STAFF_EMAIL_DOMAIN);
  });

  app.get('/me/flags', async (request) => {
    const { userId } = await requireUser(request);
    return { data: await getUserFlags(db, userId) };
  });

  app.post('/me/mfa/setup', async (request) => {
    const { userId } = await requireOwnSession(request);
    const [user] = await db
      .select({ email: users.email, mfaSecret: users.mfaSecret })
      .from(users)
      .where(eq(users.id, userId));
    if (user.mfaSecret) throw badRequest('Two-factor authentication is already enabled');
    const secret = newTotpSecret();
    await db.update(users).set({ mfaPendingSecret: secret }).where(eq(users.id, userId));
    const uri = totpFor(secret, user.email).toString();
    return { secret, uri, qr: await QRCode.toDataURL(uri) };
  });

  app.post('/me/mfa', { schema: { body: mfaEnableBodySchema } }, async (request) => {
    const { userId } = await requireOwnSession(request);
    await consumeRateLimits(
      db,
      [{ key: `mfa:user:${userId}`, max: config.RATE_LIMIT_PER_EMAIL }],
      config.RATE_LIMIT_WINDOW,
    );
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (user.mfaSecret) throw badRequest('Two-factor authentication is already enabled');
    const { secret, token } = request.body;
    if (!user.mfaPendingSecret || !safeEqual(user.mfaPendingSecret, secret)) throw badRequest('invalid_token');
    const step = matchingStep(secret, token.trim());
    if (step === null) throw badRequest('invalid_token');
    const updated = await db
      .update(users)
      .set({ mfaSecret: secret, mfaPendingSecret: null, mfaLastStep: step })
      .where(and(eq(users.id, userId), isNull(users.mfaSecret), eq(users.mfaPendingSecret, secret)))
      .returning({ id: users.id });
    if (updated.length === 0) throw badRequest('invalid_token');
    return { mfaEnabled: true };
  });

  app.delete('/me/mfa', { schema: { body: mfaDisableBodySchema } }, async (request) => {
    const { userId } = await requireOwnSession(request);
    await consumeRateLimits(
      db,
      [{ key: `mfa:user:${userId}`, max: config.RATE_LIMIT_PER_EMAIL }],
      config.RATE_LIMIT_WINDOW,
    );
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user.mfaSecret || !(await acceptTotp(db, userId, user.mfaSecret, request.body.token.trim()))) {
      throw badRequest('invalid_token');
    }
    await db.update(users).set({ mfaSecret: null, mfaPendingSecret: null }).where(eq(users.id, userId));
    return { mfaEnabled: false };
  });

  app.post('/signup', { schema: { body: signupBodySchema } }, async (request) => {
    const { userId } = await requireOwnSession(request);
    const { name, company, esp, newsletter_opt_in: newsletterOptIn } = request.body;
    const updated = await db
      .update(users)
      .set({ name, company, esp, newsletterOptIn, signedUpAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.signedUpAt)))
      .returning({ id: users.id });
    if (updated.length === 0) throw badRequest('account_already_exists');
    return { ok: true as const };
  });

  app.get('/reporting-subscriptions', async (request) => {
    const { userId } = await requireUser(request);
    const rows = await db
      .select()
      .from(reportingSubscriptions)
      .where(eq(reportingSubscriptions.userId, userId))
      .orderBy(asc(reportingSubscriptions.id));
    return { data: rows.map(toSubscription) };
  });

  /** The workspace of a subscription must be one of the user's; otherwise it does not exist for them. */
  const requireMembership = async (userId: number, workspaceId: number) => {
    const [membership] = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, workspaceId)));
    if (!membership) throw notFound();
  };

  app.post('/reporting-subscriptions', { schema: { body: subscriptionBodySchema } }, async (request, reply) => {
    const { userId } = await requireOwnSession(request);
    const { workspaceId } = request.body.payload;
    await requireMembership(userId, workspaceId);
    await db
      .insert(reportingSubscriptions)
      .values({ userId, workspaceId, type: 'weeklySummary' })
      .onConflictDoNothing();
    const [row] = await db
      .select()
      .from(reportingSubscriptions)
      .where(and(eq(reportingSubscriptions.userId, userId), eq(reportingSubscriptions.workspaceId, workspaceId)));
    return reply.code(201).send({ data: toSubscription(row) });
  });

  app.put(
    '/reporting-subscriptions/:id',
    { schema: { params: subscriptionParamsSchema, body: subscriptionBodySchema } },
    async (request) => {
      const { userId } = await requireOwnSession(request);
      const { workspaceId } = request.body.payload;
      await requireMembership(userId, workspaceId);
      const [existing] = await db
        .select()
        .from(reportingSubscriptions)
        .where(and(eq(reportingSubscriptions.id, request.params.id), eq(reportingSubscriptions.userId, userId)));
      if (!existing) throw notFound();
      const [clash] = await db
        .select({ id: reportingSubscriptions.id })
        .from(reportingSubscriptions)
        .where(and(eq(reportingSubscriptions.userId, userId), eq(reportingSubscriptions.workspaceId, workspaceId)));
      if (clash && clash.id !== existing.id) throw badRequest('Failed to update alert');
      const [row] = await db
        .update(reportingSubscriptions)
        .set({ workspaceId })
        .where(eq(reportingSubscriptions.id, existing.id))
        .returning();
      return { data: toSubscription(row) };
    },
  );

  app.delete('/reporting-subscriptions/:id', { schema: { params: subscriptionParamsSchema } }, async (request) => {
    const { userId } = await requireOwnSession(request);
    const deleted = await db
      .delete(reportingSubscriptions)
      .where(and(eq(reportingSubscriptions.id, request.params.id), eq(reportingSubscriptions.userId, userId)))
      .returning({ id: reportingSubscriptions.id });
    if (deleted.length === 0) throw notFound();
    return { ok: true as const };
  });
};
