import type { FastifyPluginAsync } from 'fastify';
import { annotationBodySchema, annotationParamsSchema } from '../../src/contracts/annotations';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import { requireMember } from '../auth/access';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { createAnnotation, deleteAnnotation, listAnnotations, updateAnnotation } from '../services/annotations';
import { idempotent } from '../services/idempotency';

/** Annotations of a workspace: any member may list, add, change and delete them. */
export const annotationRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.get('/workspaces/:workspaceId/annotations', { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    await requireMember(request, request.params.workspaceId);
    return { data: await listAnnotations(db, request.params.workspaceId) };
  });

  app.post(
    '/workspaces/:workspaceId/annotations',
    { schema: { params: workspaceIdParamsSchema, body: annotationBodySchema } },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      return idempotent(db, request, reply, userId, async (tx) => ({
        statusCode: 201,
        body: { data: await createAnnotation(tx, workspaceId, userId, request.body) },
      }));
    },
  );

  app.put(
    '/workspaces/:workspaceId/annotations/:annotationId',
    { schema: { params: annotationParamsSchema, body: annotationBodySchema } },
    async (request) => {
      const { workspaceId, annotationId } = request.params;
      await requireMember(request, workspaceId);
      const annotation = await updateAnnotation(db, workspaceId, annotationId, request.body);
      if (!annotation) throw notFound();
      return { data: annotation };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/annotations/:annotationId',
    { schema: { params: annotationParamsSchema } },
    async (request) => {
      const { workspaceId, annotationId } = request.params;
      await requireMember(request, workspaceId);
      if (!(await deleteAnnotation(db, workspaceId, annotationId))) throw notFound();
      return { ok: true as const };
    },
  );
};
