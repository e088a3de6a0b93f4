import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  EMAIL_CODE_MIN_LENGTH,
  emailCheckParamsSchema,
  emailCheckQuerySchema,
  emailStartBodySchema,
  emailStartResponseSchema,
  loginStepResponseSchema,
  powChallengeSchema,
  type LoginErrorCode,
  loginEmailSchema,
  mfaVerifyBodySchema,
} from '../../src/contracts/auth';
import { errorResponseSchema } from '../../src/contracts/common';
import { getSession } from '../auth/access';
import { clearCookie, LOGIN_COOKIE, setCookie } from '../auth/cookies';
import { randomToken, safeEqual, sha256 } from '../auth/crypto';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../auth/csrf';
import { createChallenge, verifySolution } from '../auth/pow';
import { acceptTotp } from '../auth/totp';
import type { Config } from '../config';
import { badRequest, HttpError, unauthorized } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { publicOrigin, sendMail } from '../mail/mailer';
import type { Executor } from '../services/db';
import {
  consumeLoginToken,
  findLoginToken,
  findMfaUser,
  issuedFor,
  LINK_TTL_MS,
  storeLoginToken,
} from '../services/loginTokens';
import { type Backoff, consumeRateLimits, type Limit, TooManyAttempts } from '../services/rateLimit';
import { startSession } from '../services/sessions';

/** No 0/O or 1/I/L: the code is typed by hand. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function newCode(): string {
  let code = '';
  for (let i = 0; i < EMAIL_CODE_MIN_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Codes are compared without case, spaces or dashes. */
const normalizeCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Our own pages call with the API header and want JSON; a link followed from an e-mail wants a page. */
const wantsJson = (request: FastifyRequest) => request.headers[CSRF_HEADER] === CSRF_HEADER_VALUE;

/** A JSON body may not name a field twice: which copy wins would be a guess. */
function hasRepeatedKey(raw: string, key: string): boolean {
  return (raw.match(new RegExp(`(?<!\\\\)"${key}"\\s*:`, 'g')) ?? []).length > 1;
}

/**
 * The limits of one sign-in step on an account (an e-mail address, or a user for the second factor) from
 * one browser: a few attempts per browser, then 429; and a far higher cap on the account as a whole that
 * only slows every browser down, so strangers' attempts never stop the owner in their own browser.
 */
function accountLimits(
  config: Config,
  step: 'start' | 'code' | 'mfa',
  account: string,
  ...browsers: [string, ...string[]]
): { limits: Limit[]; backoff: Backoff } {
  const [bindingKey, ...others] = browsers.map((browser) => `${step}:browser:${account}:${browser}`);
  return {
    limits: [bindingKey, ...others].map((key) => ({ key, max: config.RATE_LIMIT_PER_EMAIL })),
    backoff: {
      key: `${step}:account:${account}`,
      cap: config.RATE_LIMIT_GLOBAL_PER_EMAIL,
      bindingKey,
      maxSeconds: config.RATE_LIMIT_MAX_BACKOFF,
    },
  };
}

/** Signs a verified user in: a pending-MFA session when two-factor is on, else a full one. */
export async function completeSignIn(
  db: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: number; mfaSecret: string | null },
): Promise<'signed_in' | 'mfa_required'> {
  const mfaPending = user.mfaSecret !== null;
  await startSession(db, request, reply, {
    userId: user.id,
    mfaPending,
    ttlSeconds: request.server.config.SESSION_TTL,
  });
  return mfaPending ? 'mfa_required' : 'signed_in';
}

/**
 * E-mail sign-in with a proof-of-work bot check, and the two-factor step.
 * Long because a plugin registers all its routes in one place; each handler stays short and calls services.
 */
export const loginRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const config = app.config;
  const windowSeconds = config.RATE_LIMIT_WINDOW;

  /** Counts one attempt; a refused one answers 429 and says in Retry-After when to come back. */
  const limit = async (reply: FastifyReply, limits: Limit[], backoff?: Backoff) => {
    try {
      await consumeRateLimits(db, limits, windowSeconds, backoff);
    } catch (error) {
      if (error instanceof TooManyAttempts) reply.header('Retry-After', String(error.retryAfterSeconds));
      throw error;
    }
  };

  // Keep the raw body of this plugin's JSON calls to spot a repeated field.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    try {
      const text = body as string;
      if (hasRepeatedKey(text, 'email') || hasRepeatedKey(text, 'token')) {
        done(badRequest(hasRepeatedKey(text, 'email') ? 'invalid_email' : 'invalid_token'), undefined);
        return;
      }
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('Invalid JSON'), undefined);
    }
  });

  app.get('/login/challenge', { schema: { response: { 200: powChallengeSchema } } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return createChallenge(app);
  });

  app.post(
    '/login/email/start',
    { schema: { body: emailStartBodySchema, response: { 200: emailStartResponseSchema } } },
    async (request, reply) => {
      await limit(reply, [{ key: `start:ip:${request.ip}`, max: config.RATE_LIMIT_PER_IP }]);
      const email = loginEmailSchema.safeParse(request.body.email);
      if (!email.success) throw badRequest('invalid_email');
      if (!(await verifySolution(app, request.body.token))) throw badRequest('invalid_token');
      const earlier = request.cookies[LOGIN_COOKIE];
      const earlierHash = earlier ? sha256(earlier) : null;
      // A browser keeps its binding across requests for the address, so its limit follows it; a browser
      // we do not know yet is counted by its client address.
      const known = earlierHash && (await issuedFor(db, email.data, earlierHash)) ? earlier : null;
      const device = known ?? randomToken(32);
      const { limits, backoff } = known
        ? accountLimits(config, 'start', email.data, `device:${earlierHash}`)
        : // A new browser's first request also counts toward the binding it is about to receive.
          accountLimits(config, 'start', email.data, `ip:${request.ip}`, `device:${sha256(device)}`);
      await limit(reply, limits, backoff);

      const token = randomToken(24);
      const code = newCode();
      const expiresAt = new Date(Date.now() + LINK_TTL_MS);
      const link = `${publicOrigin(request)}/login/email/${token}?code=${code}`;
      const stored = {
        email: email.data,
        tokenHash: sha256(token),
        codeHash: sha256(code),
        deviceHash: sha256(device),
      };
      await storeLoginToken(db, { ...stored, expiresAt }, earlierHash, (tx) =>
        sendMail(
          app,
          tx,
          {
            to: email.data,
            subject: 'Your Openrate sign-in link',
            text:
              `Sign in to Openrate with this link: ${link}\n\n` +
              `Or type this code on the sign-in page: ${code}\n\n` +
              'The link and code work once, for 15 minutes, in the browser where you asked for them.\n' +
              'If you did not ask to sign in, ignore this message.\n',
            link,
            code,
          },
          request.log,
        ),
      );
      setCookie(request, reply, LOGIN_COOKIE, device, expiresAt);
      return { token };
    },
  );

  app.get(
    '/login/email/:token/check',
    {
      schema: {
        params: emailCheckParamsSchema,
        querystring: emailCheckQuerySchema,
        response: { 200: loginStepResponseSchema, 400: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const fail = (error: LoginErrorCode) => {
        if (wantsJson(request)) return reply.code(400).send({ error });
        const target =
          error === 'invalid_code'
            ? `/login/email/${encodeURIComponent(request.params.token)}?error=invalid_code`
            : `/login/error?error=${error}`;
        return reply.redirect(target);
      };
      try {
        await limit(reply, [{ key: `code:ip:${request.ip}`, max: config.RATE_LIMIT_PER_IP }]);
        const login = await findLoginToken(db, sha256(request.params.token));
        if (!login || login.consumedAt || login.expiresAt.getTime() < Date.now()) return fail('invalid_link');
        const device = request.cookies[LOGIN_COOKIE];
        if (!device || !safeEqual(sha256(device), login.deviceHash)) return fail('invalid_device');
        // The browser is the one the link is bound to: strangers' guesses use up their own links only.
        const { limits, backoff } = accountLimits(config, 'code', login.email, login.deviceHash);
        await limit(reply, limits, backoff);
        const code = normalizeCode(request.query.code ?? '');
        if (code.length < EMAIL_CODE_MIN_LENGTH || !safeEqual(sha256(code), login.codeHash))
          return fail('invalid_code');

        const status = await consumeLoginToken(db, login, (tx, user) => completeSignIn(tx, request, reply, user));
        if (status === null) return fail('invalid_link');
        clearCookie(request, reply, LOGIN_COOKIE);
        if (wantsJson(request)) return { status };
        return reply.redirect(status === 'mfa_required' ? '/login/mfa' : '/');
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 429 && !wantsJson(request)) {
          return reply.redirect('/login/error?error=unknown');
        }
        throw error;
      }
    },
  );

  app.post(
    '/login/mfa/verify',
    { schema: { body: mfaVerifyBodySchema, response: { 200: loginStepResponseSchema } } },
    async (request, reply) => {
      const session = await getSession(request);
      if (!session?.mfaPending) throw unauthorized();
      // The browser is the pending session: only someone past the e-mail step has one to spend.
      const { limits, backoff } = accountLimits(config, 'mfa', String(session.userId), session.idHash);
      await limit(reply, [{ key: `mfa:ip:${request.ip}`, max: config.RATE_LIMIT_PER_IP }, ...limits], backoff);
      const user = await findMfaUser(db, session.userId);
      if (!user?.mfaSecret || !(await acceptTotp(db, user.id, user.mfaSecret, request.body.token.trim()))) {
        throw badRequest('invalid_token');
      }
      // A new session id once the second factor is in: the pending one is deleted.
      await db.transaction((tx) =>
        startSession(tx, request, reply, { userId: user.id, ttlSeconds: request.server.config.SESSION_TTL }),
      );
      return { status: 'signed_in' as const };
    },
  );
};
