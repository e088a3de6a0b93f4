import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { type Annotation, annotationBodySchema, annotationParamsSchema } from '../../src/contracts/annotations';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import { requireMember } from '../auth/access';
import { annotations, users } from '../db/schema';
import { notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { eqWhenGiven, type Executor } from '../services/db';
import { idempotent } from '../services/idempotency';

async function listAnnotations(db: Executor, workspaceId: number, annotationId?: number): Promise<Annotation[]> {
  const rows = await db
    .select({
      id: annotations.id,
      workspaceId: annotations.workspaceId,
      severity: annotations.severity,
      message: annotations.message,
      dateStart: annotations.dateStart,
      dateEnd: annotations.dateEnd,
      createdAt: annotations.createdAt,
      modifiedAt: annotations.modifiedAt,
      createdById: annotations.createdById,
      createdByName: users.name,
      createdByEmail: users.email,
    })
    .from(annotations)
    .leftJoin(users, eq(users.id, annotations.createdById))
    .where(and(eq(annotations.workspaceId, workspaceId), eqWhenGiven(annotations.id, annotationId)))
    .orderBy(asc(annotations.dateStart), asc(annotations.id));
  return rows.map((row) => ({
    id: row.id,
    workspace_id: row.workspaceId,
    severity: row.severity,
    message: row.message,
    date_start: row.dateStart,
    date_end: row.dateEnd,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt.toISOString(),
    created_by_id: row.createdById,
    created_by_name: row.createdByName,
    created_by_email: row.createdByEmail,
  }));
}

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
      const { severity, message, date_start: dateStart, date_end: dateEnd } = request.body;
      return idempotent(db, request, reply, userId, async (tx) => {
        const [created] = await tx
          .insert(annotations)
          .values({ workspaceId, severity, message, dateStart, dateEnd, createdById: userId })
          .returning({ id: annotations.id });
        const [annotation] = await listAnnotations(tx, workspaceId, created.id);
        return { statusCode: 201, body: { data: annotation } };
      });
    },
  );

  app.put(
    '/workspaces/:workspaceId/annotations/:annotationId',
    { schema: { params: annotationParamsSchema, body: annotationBodySchema } },
    async (request) => {
      const { workspaceId, annotationId } = request.params;
      await requireMember(request, workspaceId);
      // The path decides which annotation changes; ids in the body are ignored, never written.
      const { severity, message, date_start: dateStart, date_end: dateEnd } = request.body;
      const updated = await db
        .update(annotations)
        .set({ severity, message, dateStart, dateEnd, modifiedAt: sql`now()` })
        .where(and(eq(annotations.id, annotationId), eq(annotations.workspaceId, workspaceId)))
        .returning({ id: annotations.id });
      if (updated.length === 0) throw notFound();
      const [annotation] = await listAnnotations(db, workspaceId, annotationId);
      return { data: annotation };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/annotations/:annotationId',
    { schema: { params: annotationParamsSchema } },
    async (request) => {
      const { workspaceId, annotationId } = request.params;
      await requireMember(request, workspaceId);
      const deleted = await db
        .delete(annotations)
        .where(and(eq(annotations.id, annotationId), eq(annotations.workspaceId, workspaceId)))
        .returning({ id: annotations.id });
      if (deleted.length === 0) throw notFound();
      return { ok: true as const };
    },
  );
};
