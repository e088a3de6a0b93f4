import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type PowChallenge, powSolutionSchema } from '../../src/contracts/auth';
import { appMeta, powSolutions } from '../db/schema';
import { safeEqual } from './crypto';

const CHALLENGE_TTL_SECONDS = 10 * 60;
const SECRET_KEY = 'pow_secret';

const secrets = new WeakMap<FastifyInstance, Promise<string>>();

/** POW_SECRET, or one generated on first use and kept in the database so every process agrees. */
function powSecret(app: FastifyInstance): Promise<string> {
  let secret = secrets.get(app);
  if (!secret) {
    secret = (async () => {
      if (app.config.POW_SECRET) return app.config.POW_SECRET;
      const db = app.db.db;
      await db
        .insert(appMeta)
        .values({ key: SECRET_KEY, value: randomBytes(32).toString('hex') })
        .onConflictDoNothing();
      const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, SECRET_KEY));
      return row.value;
    })();
    secret.catch(() => secrets.delete(app));
    secrets.set(app, secret);
  }
  return secret;
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const hmacHex = (secret: string, value: string) => createHmac('sha256', secret).update(value).digest('hex');

export async function createChallenge(app: FastifyInstance): Promise<PowChallenge> {
  const maxnumber = app.config.POW_MAX_NUMBER;
  const expires = Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS;
  const salt = `${randomBytes(12).toString('hex')}?expires=${expires}`;
  const challenge = sha256Hex(`${salt}${randomInt(0, maxnumber + 1)}`);
  return { algorithm: 'SHA-256', challenge, salt, signature: hmacHex(await powSecret(app), challenge), maxnumber };
}

/**
 * Checks a solution token: our signature, not expired, the number really solves the challenge, and
 * never seen before (each solution is recorded once; a replay fails).
 */
export async function verifySolution(app: FastifyInstance, token: string): Promise<boolean> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return false;
  }
  const parsed = powSolutionSchema.safeParse(decoded);
  if (!parsed.success) return false;
  const { challenge, number, salt, signature } = parsed.data;
  const expires = Number(/[?&]expires=(\d+)$/.exec(salt)?.[1]);
  if (!Number.isFinite(expires) || expires * 1000 < Date.now()) return false;
  if (!safeEqual(hmacHex(await powSecret(app), challenge), signature)) return false;
  if (sha256Hex(`${salt}${number}`) !== challenge) return false;
  const db = app.db.db;
  await db.delete(powSolutions).where(lt(powSolutions.expiresAt, new Date()));
  const stored = await db
    .insert(powSolutions)
    .values({ signature, expiresAt: new Date(expires * 1000) })
    .onConflictDoNothing()
    .returning({ signature: powSolutions.signature });
  return stored.length === 1;
}
