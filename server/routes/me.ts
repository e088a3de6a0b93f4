import type { FastifyPluginAsync } from 'fastify';
import QRCode from 'qrcode';
import { okResponseSchema } from '../../src/contracts/common';
import {
  IMPERSONATION_READ_ONLY,
  meResponseSchema,
  mfaDisableBodySchema,
  mfaEnableBodySchema,
  mfaSetupResponseSchema,
  mfaStatusResponseSchema,
  patchMeBodySchema,
  signupBodySchema,
  subscriptionBodySchema,
  subscriptionListResponseSchema,
  subscriptionParamsSchema,
  subscriptionResponseSchema,
  userFlagsResponseSchema,
} from '../../src/contracts/me';
import { requireUser } from '../auth/access';
import { totpFor } from '../auth/totp';
import { forbidden } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { getUserFlags } from '../services/flags';
import {
  completeSignup,
  disableMfa,
  enableMfa,
  listSubscriptions,
  loadMe,
  markSeen,
  moveSubscription,
  startMfaSetup,
  subscribe,
  unsubscribe,
  updateProfile,
} from '../services/me';
import { consumeRateLimits } from '../services/rateLimit';

export { isStaffEmail } from '../services/me';

/**
 * The signed-in user: initial data, profile, flags, two-factor settings, signup and weekly summaries.
 * Long because a plugin registers all its routes in one place; each handler stays short and calls services.
 */
export const meRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const config = app.config;

  app.get('/me', { schema: { response: { 200: meResponseSchema } } }, async (request) => {
    const { userId, impersonatedBy } = await requireUser(request);
    // Staff looking through a user's eyes does not count as the user being seen.
    if (impersonatedBy === null) await markSeen(db, userId);
    return loadMe(db, userId, impersonatedBy, config.STAFF_EMAIL_DOMAIN);
  });

  /** What belongs to the account holder alone (profile, two-factor, subscriptions): never an impersonated session. */
  const requireOwnSession = async (request: Parameters<typeof requireUser>[0]) => {
    const user = await requireUser(request);
    if (user.impersonatedBy !== null) throw forbidden(IMPERSONATION_READ_ONLY);
    return user;
  };
  /** Two-factor attempts are bounded per user like sign-in attempts. */
  const limitMfaAttempts = (userId: number) =>
    consumeRateLimits(db, [{ key: `mfa:user:${userId}`, max: config.RATE_LIMIT_PER_EMAIL }], config.RATE_LIMIT_WINDOW);

  app.patch('/me', { schema: { body: patchMeBodySchema, response: { 200: meResponseSchema } } }, async (request) => {
    const { userId, impersonatedBy } = await requireUser(request);
    const { name, firstDayOfWeek } = request.body;
    // Staff may dismiss the getting-started drawer while looking around, but not edit the holder's profile.
    if (impersonatedBy !== null && (name !== undefined || firstDayOfWeek !== undefined)) {
      throw forbidden(IMPERSONATION_READ_ONLY);
    }
    await updateProfile(db, userId, request.body);
    return loadMe(db, userId, impersonatedBy, config.STAFF_EMAIL_DOMAIN);
  });

  app.get('/me/flags', { schema: { response: { 200: userFlagsResponseSchema } } }, async (request) => {
    const { userId } = await requireUser(request);
    return { data: await getUserFlags(db, userId) };
  });

  app.post('/me/mfa/setup', { schema: { response: { 200: mfaSetupResponseSchema } } }, async (request) => {
    const { userId } = await requireOwnSession(request);
    const { email, secret } = await startMfaSetup(db, userId);
    const uri = totpFor(secret, email).toString();
    return { secret, uri, qr: await QRCode.toDataURL(uri) };
  });

  app.post(
    '/me/mfa',
    { schema: { body: mfaEnableBodySchema, response: { 200: mfaStatusResponseSchema } } },
    async (request) => {
      const { userId } = await requireOwnSession(request);
      await limitMfaAttempts(userId);
      await enableMfa(db, userId, request.body.secret, request.body.token.trim());
      return { mfaEnabled: true };
    },
  );

  app.delete(
    '/me/mfa',
    { schema: { body: mfaDisableBodySchema, response: { 200: mfaStatusResponseSchema } } },
    async (request) => {
      const { userId } = await requireOwnSession(request);
      await limitMfaAttempts(userId);
      await disableMfa(db, userId, request.body.token.trim());
      return { mfaEnabled: false };
    },
  );

  app.post('/signup', { schema: { body: signupBodySchema, response: { 200: okResponseSchema } } }, async (request) => {
    const { userId } = await requireOwnSession(request);
    await completeSignup(db, userId, request.body);
    return { ok: true as const };
  });

  app.get(
    '/reporting-subscriptions',
    { schema: { response: { 200: subscriptionListResponseSchema } } },
    async (request) => {
      const { userId } = await requireUser(request);
      return { data: await listSubscriptions(db, userId) };
    },
  );

  app.post(
    '/reporting-subscriptions',
    { schema: { body: subscriptionBodySchema, response: { 201: subscriptionResponseSchema } } },
    async (request, reply) => {
      const { userId } = await requireOwnSession(request);
      const subscription = await subscribe(db, userId, request.body.payload.workspaceId);
      return reply.code(201).send({ data: subscription });
    },
  );

  app.put(
    '/reporting-subscriptions/:id',
    {
      schema: {
        params: subscriptionParamsSchema,
        body: subscriptionBodySchema,
        response: { 200: subscriptionResponseSchema },
      },
    },
    async (request) => {
      const { userId } = await requireOwnSession(request);
      const { workspaceId } = request.body.payload;
      return { data: await moveSubscription(db, userId, request.params.id, workspaceId) };
    },
  );

  app.delete(
    '/reporting-subscriptions/:id',
    { schema: { params: subscriptionParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      const { userId } = await requireOwnSession(request);
      await unsubscribe(db, userId, request.params.id);
      return { ok: true as const };
    },
  );
};
