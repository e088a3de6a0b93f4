import type { FastifyPluginAsync } from 'fastify';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import {
  publicTargetsParamsSchema,
  targetBodySchema,
  targetIdsOfConfig,
  targetParamsSchema,
} from '../../src/contracts/targets';
import { requireMember } from '../auth/access';
import { badRequest, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { idempotent } from '../services/idempotency';
import { checkTargetsPerWorkspace } from '../services/limits';
import { findPublicReport } from '../services/reports';
import { deleteTarget, listTargets, targetOwner, targetProblem, targetsByIds, writeTarget } from '../services/targets';

/** Targets of a workspace (spec 2 §7), and the read-only targets of a publicly shared dashboard. */
export const targetRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.get('/workspaces/:workspaceId/targets', { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    const { workspaceId } = request.params;
    await requireMember(request, workspaceId);
    return { data: await listTargets(db, workspaceId) };
  });

  // Creates or updates: the id is the client's, so a retried create finds its own target and updates it.
  app.put(
    '/workspaces/:workspaceId/targets/:targetId',
    { schema: { params: targetParamsSchema, body: targetBodySchema } },
    async (request, reply) => {
      const { workspaceId, targetId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const problem = await targetProblem(db, workspaceId, request.body);
      if (problem) throw badRequest(problem);
      return idempotent(db, request, reply, userId, async (tx) => {
        const owner = await targetOwner(tx, targetId);
        // Another workspace's target is not found, the same answer as a workspace the user does not belong to.
        if (owner !== null && owner !== workspaceId) throw notFound();
        if (owner === null) await checkTargetsPerWorkspace(tx, workspaceId, app.config.LIMIT_TARGETS_PER_WORKSPACE);
        const data = await writeTarget(tx, workspaceId, { id: targetId, ...request.body }, userId, owner !== null);
        return { statusCode: owner === null ? 201 : 200, body: { data } };
      });
    },
  );

  app.delete(
    '/workspaces/:workspaceId/targets/:targetId',
    { schema: { params: targetParamsSchema } },
    async (request) => {
      const { workspaceId, targetId } = request.params;
      await requireMember(request, workspaceId);
      if (!(await deleteTarget(db, workspaceId, targetId))) throw notFound();
      return { ok: true as const };
    },
  );

  // A public dashboard shows only the targets its target widgets name; every failure is the same not-found.
  app.get('/reports/:reportId/targets', { schema: { params: publicTargetsParamsSchema } }, async (request) => {
    const report = await findPublicReport(db, request.params.reportId);
    if (!report || report.type !== 'dashboard') throw notFound();
    return { data: await targetsByIds(db, report.workspaceId, targetIdsOfConfig(report.config)) };
  });
};
