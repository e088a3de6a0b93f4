import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import { impersonateBodySchema } from '../../src/contracts/me';
import { requireUser } from '../auth/access';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { listMembers } from '../services/members';
import { startSession } from '../services/sessions';
import { findUserContact, recordAudit } from '../services/users';
import { listWorkspaceSummaries } from '../services/workspaces';
import { isStaffEmail } from './me';

/** Impersonated sessions last at most this long. */
const IMPERSONATION_TTL_SECONDS = 60 * 60;

/** Product-staff admins: a signed-in user (not acting as someone else) with an e-mail on the staff domain. */
async function requireStaff(request: FastifyRequest): Promise<{ userId: number }> {
  const { userId, impersonatedBy } = await requireUser(request);
  if (impersonatedBy !== null) throw forbidden();
  const user = await findUserContact(request.server.db.db, userId);
  if (!user || !isStaffEmail(user.email, request.server.config.STAFF_EMAIL_DOMAIN)) throw forbidden();
  return { userId };
}

export const adminRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.get('/admin/workspaces', async (request) => {
    await requireStaff(request);
    return { data: await listWorkspaceSummaries(db) };
  });

  /** Members of any workspace, so staff can pick whom to impersonate. */
  app.get(
    '/admin/workspaces/:workspaceId/members',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      await requireStaff(request);
      return { data: await listMembers(db, request.params.workspaceId) };
    },
  );

  app.post('/admin/impersonate', { schema: { body: impersonateBodySchema } }, async (request, reply) => {
    const { userId: staffId } = await requireStaff(request);
    const targetId = request.body.userId;
    const target = await findUserContact(db, targetId);
    if (!target) throw notFound();
    if (isStaffEmail(target.email, app.config.STAFF_EMAIL_DOMAIN)) {
      throw badRequest('Product-staff accounts cannot be impersonated.');
    }
    const { expiresAt } = await db.transaction(async (tx) => {
      await recordAudit(tx, {
        actorUserId: staffId,
        action: 'impersonate_start',
        targetUserId: targetId,
        ip: request.ip,
        details: { email: target.email },
      });
      return startSession(tx, request, reply, {
        userId: targetId,
        impersonatedBy: staffId,
        ttlSeconds: Math.min(IMPERSONATION_TTL_SECONDS, app.config.SESSION_TTL),
      });
    });
    request.log.info({ staffId, userId: targetId }, 'impersonation started');
    return { user_id: targetId, expires_at: expiresAt.toISOString(), impersonated_by: staffId };
  });
};
