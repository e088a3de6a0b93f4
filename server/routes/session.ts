import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionResponse } from '../../src/contracts/auth';
import { getSession } from '../auth/access';
import { hintSignedIn } from '../auth/cookies';
import { logout, startSession } from '../services/sessions';
import { recordAudit } from '../services/users';

/**
 * Routes outside /api that browsers reach by plain navigation: the session status the client polls,
 * logout, and the end of an impersonation.
 */
export const sessionRoutes: FastifyPluginAsync = async (app) => {
  const db = app.db.db;

  app.get('/session', async (request, reply): Promise<SessionResponse> => {
    reply.header('Cache-Control', 'no-store');
    const found = await getSession(request);
    const session = found && !found.mfaPending ? found : undefined;
    hintSignedIn(request, reply, session?.expiresAt);
    if (!session) return { status: 'unauthenticated' };
    return {
      user_id: session.userId,
      expires_at: session.expiresAt.toISOString(),
      ...(session.impersonatedBy !== null ? { impersonated_by: session.impersonatedBy } : {}),
    };
  });

  const logoutHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    await logout(db, request, reply);
    return reply.redirect('/login');
  };
  app.get('/logout', logoutHandler);
  app.get('/api/logout', logoutHandler);

  app.get('/impersonate/exit', async (request, reply) => {
    const session = await getSession(request);
    if (!session || session.impersonatedBy === null) return reply.redirect('/');
    const staffId = session.impersonatedBy;
    await db.transaction(async (tx) => {
      await recordAudit(tx, {
        actorUserId: staffId,
        action: 'impersonate_end',
        targetUserId: session.userId,
        ip: request.ip,
      });
      await startSession(tx, request, reply, { userId: staffId, ttlSeconds: app.config.SESSION_TTL });
    });
    request.log.info({ staffId, userId: session.userId }, 'impersonation ended');
    return reply.redirect('/');
  });
};
