import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Role } from '../../src/contracts/common';
import { readCache } from '../db/readCache';
import { memberships, workspaces } from '../db/schema';
import { forbidden, notFound, unauthorized } from '../http/errors';
import { findSession, type SessionRow } from '../services/sessions';
import { SESSION_COOKIE } from './cookies';

const sessionCache = new WeakMap<FastifyRequest, Promise<SessionRow | null>>();

/**
 * The session a cookie names. On the embedded database the row is remembered until the next write (sign-in, logout,
 * any change: see ReadCache), which spares the one database connection a lookup per request; its expiry is checked
 * on every use.
 */
async function lookUpSession(request: FastifyRequest): Promise<SessionRow | null> {
  const cookie = request.cookies[SESSION_COOKIE];
  const handle = request.server.db;
  if (!cookie || cookie.length > 200) return null;
  // Keyed by the cookie itself: hashing it on every request cost more than the lookup it replaces.
  const session = await readCache<SessionRow | null>(handle, 'sessions').get(
    cookie,
    () => findSession(handle.db, cookie),
    (found) => found !== null,
  );
  return session && session.expiresAt > new Date() ? session : null;
}

/** The request's session, looked up once per request; null when signed out or expired. */
export function getSession(request: FastifyRequest): Promise<SessionRow | null> {
  let session = sessionCache.get(request);
  if (!session) {
    session = lookUpSession(request);
    sessionCache.set(request, session);
  }
  return session;
}

export interface SignedInUser {
  userId: number;
  impersonatedBy: number | null;
  /** The session's key in the database (a hash of the cookie). */
  sessionId: string;
}

/** 401 unless the request carries a live session that has passed every sign-in step (MFA included). */
export async function requireUser(request: FastifyRequest): Promise<SignedInUser> {
  const session = await getSession(request);
  if (!session || session.mfaPending) throw unauthorized();
  return { userId: session.userId, impersonatedBy: session.impersonatedBy, sessionId: session.idHash };
}

/** 401 when signed out; 404 for a workspace that does not exist or that the user is not a member of. */
export async function requireMember(
  request: FastifyRequest,
  workspaceId: number,
): Promise<{ userId: number; role: Role; impersonatedBy: number | null }> {
  const user = await requireUser(request);
  const handle = request.server.db;
  // Remembered like the session on the embedded database, until the next write.
  const role = await readCache<Role | null>(handle, 'memberships').get(
    `${workspaceId}:${user.userId}`,
    async () => {
      const [membership] = await handle.db
        .select({ role: memberships.role })
        .from(memberships)
        .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, user.userId)));
      return membership?.role ?? null;
    },
    (found) => found !== null,
  );
  if (!role) throw notFound();
  return { userId: user.userId, role, impersonatedBy: user.impersonatedBy };
}

/** As requireMember, then 403 for a member who is not an admin of the workspace. */
export async function requireAdmin(
  request: FastifyRequest,
  workspaceId: number,
): Promise<{ userId: number; role: 'admin'; impersonatedBy: number | null }> {
  const member = await requireMember(request, workspaceId);
  if (member.role !== 'admin') throw forbidden();
  return { ...member, role: 'admin' };
}
