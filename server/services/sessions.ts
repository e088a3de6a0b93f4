import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNED_IN_HINT_COOKIE } from '../../src/contracts/cookies';
import { clearCookie, hintSignedIn, SESSION_COOKIE, setCookie } from '../auth/cookies';
import { randomToken, sha256 } from '../auth/crypto';
import { sessions } from '../db/schema';
import type { Executor } from './db';

export interface SessionRow {
  idHash: string;
  userId: number;
  mfaPending: boolean;
  impersonatedBy: number | null;
  expiresAt: Date;
}

/** Looks up the session a cookie value names; expired or unknown sessions are null. */
export async function findSession(db: Executor, cookieValue: string | undefined): Promise<SessionRow | null> {
  if (!cookieValue || cookieValue.length > 200) return null;
  const [row] = await db
    .select({
      idHash: sessions.idHash,
      userId: sessions.userId,
      mfaPending: sessions.mfaPending,
      impersonatedBy: sessions.impersonatedBy,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(and(eq(sessions.idHash, sha256(cookieValue)), gt(sessions.expiresAt, new Date())));
  return row ?? null;
}

export interface NewSession {
  userId: number;
  mfaPending?: boolean;
  impersonatedBy?: number | null;
  ttlSeconds: number;
}

/** Stores a new session and returns the cookie value (only its hash is kept). */
export async function createSession(db: Executor, session: NewSession): Promise<{ cookie: string; expiresAt: Date }> {
  const cookie = randomToken(32);
  // A pending-MFA session only has to live long enough to type a code.
  const ttl = session.mfaPending ? Math.min(session.ttlSeconds, 15 * 60) : session.ttlSeconds;
  const expiresAt = new Date(Date.now() + ttl * 1000);
  await db.insert(sessions).values({
    idHash: sha256(cookie),
    userId: session.userId,
    mfaPending: session.mfaPending ?? false,
    impersonatedBy: session.impersonatedBy ?? null,
    expiresAt,
  });
  return { cookie, expiresAt };
}

/**
 * Starts a fresh session for the browser: whatever session cookie it sent before is deleted, so an
 * id planted before sign-in (fixation) or a pending-MFA id never becomes a signed-in session.
 */
export async function startSession(
  db: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  session: NewSession,
): Promise<{ expiresAt: Date }> {
  await endSession(db, request.cookies[SESSION_COOKIE]);
  // Expired sessions of the user are of no use to anyone: tidy them while we are here.
  await db.delete(sessions).where(and(eq(sessions.userId, session.userId), lt(sessions.expiresAt, new Date())));
  const { cookie, expiresAt } = await createSession(db, session);
  setCookie(request, reply, SESSION_COOKIE, cookie, expiresAt);
  hintSignedIn(request, reply, session.mfaPending ? undefined : expiresAt);
  return { expiresAt };
}

export async function endSession(db: Executor, cookieValue: string | undefined): Promise<void> {
  if (!cookieValue || cookieValue.length > 200) return;
  await db.delete(sessions).where(eq(sessions.idHash, sha256(cookieValue)));
}

export async function logout(db: Executor, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await endSession(db, request.cookies[SESSION_COOKIE]);
  clearCookie(request, reply, SESSION_COOKIE);
  clearCookie(request, reply, SIGNED_IN_HINT_COOKIE);
}
