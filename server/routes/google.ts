import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type LoginOptions } from '../../src/contracts/auth';
import { clearCookie, OIDC_COOKIE, setCookie } from '../auth/cookies';
import { randomToken, safeEqual } from '../auth/crypto';
import { exchangeCode, googleEnabled, provider } from '../auth/oidc';
import type { ZodTypeProvider } from '../http/zod';
import { publicOrigin } from '../mail/mailer';
import { findOrLinkGoogleUser } from '../services/users';
import { completeSignIn } from './login';

const OIDC_TTL_MS = 10 * 60 * 1000;
const CALLBACK_PATH = '/api/login/google/callback';

const callbackQuerySchema = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

/**
 * Google sign-in (OpenID Connect, authorization code flow) when GOOGLE_CLIENT_ID and
 * GOOGLE_CLIENT_SECRET are set. Accounts match by Google subject, else by verified e-mail (which
 * then links the subject); a first sign-in creates the account.
 */
export const googleRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const failed = '/login/error?error=unknown';

  // The welcome page offers 'Continue with Google' only when this server can complete it.
  app.get('/login/options', async (_request, reply): Promise<LoginOptions> => {
    reply.header('Cache-Control', 'no-store');
    return { google: googleEnabled(app) };
  });

  app.get('/login/google', async (request, reply) => {
    if (!googleEnabled(app)) return reply.redirect(failed);
    try {
      const { discovery } = await provider(app);
      const state = randomToken(24);
      const nonce = randomToken(24);
      setCookie(request, reply, OIDC_COOKIE, `${state}.${nonce}`, new Date(Date.now() + OIDC_TTL_MS), CALLBACK_PATH);
      const url = new URL(discovery.authorization_endpoint);
      url.search = new URLSearchParams({
        client_id: app.config.GOOGLE_CLIENT_ID ?? '',
        response_type: 'code',
        scope: 'openid email profile',
        redirect_uri: `${publicOrigin(request)}${CALLBACK_PATH}`,
        state,
        nonce,
      }).toString();
      return reply.redirect(url.toString());
    } catch (error) {
      request.log.error({ err: error }, 'Google sign-in could not start');
      return reply.redirect(failed);
    }
  });

  app.get('/login/google/callback', { schema: { querystring: callbackQuerySchema } }, async (request, reply) => {
    const stored = request.cookies[OIDC_COOKIE] ?? '';
    clearCookie(request, reply, OIDC_COOKIE, CALLBACK_PATH);
    const [state, nonce] = stored.split('.');
    const { code, state: returnedState } = request.query;
    if (!googleEnabled(app) || !state || !nonce || !code || !returnedState || !safeEqual(state, returnedState)) {
      return reply.redirect(failed);
    }
    try {
      const identity = await exchangeCode(app, code, `${publicOrigin(request)}${CALLBACK_PATH}`, nonce);
      const status = await db.transaction(async (tx) => {
        const user = await findOrLinkGoogleUser(tx, identity);
        return completeSignIn(tx, request, reply, user);
      });
      return reply.redirect(status === 'mfa_required' ? '/login/mfa' : '/');
    } catch (error) {
      request.log.warn({ err: error }, 'Google sign-in failed');
      return reply.redirect(failed);
    }
  });
};
