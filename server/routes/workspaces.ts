import multipart from '@fastify/multipart';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import {
  assetParamsSchema,
  createWorkspaceBodySchema,
  LOGO_MAX_BYTES,
  LOGO_TOO_BIG,
  LOGO_UNPROCESSABLE,
  workspaceSettingsBodySchema,
} from '../../src/contracts/workspaces';
import { requireAdmin, requireMember, requireUser } from '../auth/access';
import { randomToken } from '../auth/crypto';
import { licenses, memberships, users, workspaceAssets, workspaces } from '../db/schema';
import { badRequest, HttpError, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { publicOrigin, sendMail } from '../mail/mailer';
import { getWorkspaceFlags } from '../services/flags';
import { idempotent } from '../services/idempotency';
import { checkUploadsPerDay, checkWorkspacesPerDay } from '../services/limits';
import { normalizeLogo } from '../services/logo';
import { getUserWorkspace, listWorkspaceSummaries } from '../services/workspaces';

const NOT_APPLICABLE = 'Not applicable for this workspace';

/** Workspaces: create, read, settings and logo, delete, flags, agency listing and the demo activation request. */
export const workspaceRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  app.post('/workspaces', { schema: { body: createWorkspaceBodySchema } }, async (request, reply) => {
    const { userId } = await requireUser(request);
    const { name, license_id: licenseId } = request.body;
    if (licenseId !== undefined) {
      // Only an admin of a workspace on that agency licence may add workspaces to it.
      const [allowed] = await db
        .select({ id: workspaces.id })
        .from(workspaces)
        .innerJoin(licenses, eq(licenses.id, workspaces.licenseId))
        .innerJoin(memberships, eq(memberships.workspaceId, workspaces.id))
        .where(
          and(
            eq(workspaces.licenseId, licenseId),
            eq(licenses.type, 'agency'),
            eq(memberships.userId, userId),
            eq(memberships.role, 'admin'),
          ),
        )
        .limit(1);
      if (!allowed) throw notFound();
    }
    return idempotent(db, request, reply, userId, async (tx) => {
      await checkWorkspacesPerDay(tx, userId, app.config.LIMIT_WORKSPACES_PER_DAY);
      const [created] = await tx
        .insert(workspaces)
        .values({ name, status: 'new', licenseId: licenseId ?? null, createdBy: userId })
        .returning({ id: workspaces.id });
      await tx.insert(memberships).values({ workspaceId: created.id, userId, role: 'admin' });
      return { statusCode: 201, body: { id: created.id } };
    });
  });

  app.get('/workspaces/:workspaceId', { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    const { userId } = await requireMember(request, request.params.workspaceId);
    const workspace = await getUserWorkspace(db, userId, request.params.workspaceId);
    if (!workspace) throw notFound();
    return workspace;
  });

  app.get('/workspaces/:workspaceId/flags', { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    await requireMember(request, request.params.workspaceId);
    return { data: await getWorkspaceFlags(db, request.params.workspaceId) };
  });

  app.put(
    '/workspaces/:workspaceId/settings',
    { schema: { params: workspaceIdParamsSchema, body: workspaceSettingsBodySchema } },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireAdmin(request, workspaceId);
      const { name, locale, logo } = request.body;
      if (logo) {
        const [asset] = await db
          .select({ id: workspaceAssets.id })
          .from(workspaceAssets)
          .where(and(eq(workspaceAssets.id, logo), eq(workspaceAssets.workspaceId, workspaceId)));
        if (!asset) throw badRequest(LOGO_UNPROCESSABLE);
      }
      await db
        .update(workspaces)
        .set({ name, locale, ...(logo !== undefined ? { logo } : {}) })
        .where(eq(workspaces.id, workspaceId));
      return getUserWorkspace(db, userId, workspaceId);
    },
  );

  app.post(
    '/workspaces/:workspaceId/assets',
    { schema: { params: workspaceIdParamsSchema } },
    async (request, reply) => {
      const { workspaceId } = request.params;
      await requireAdmin(request, workspaceId);
      if (!request.isMultipart()) throw badRequest(LOGO_UNPROCESSABLE);
      let bytes: Buffer;
      try {
        const file = await request.file();
        if (!file) throw badRequest(LOGO_UNPROCESSABLE);
        bytes = await file.toBuffer();
      } catch (error) {
        if (error instanceof HttpError) throw error;
        if ((error as { statusCode?: number }).statusCode === 413) throw new HttpError(413, LOGO_TOO_BIG);
        throw badRequest(LOGO_UNPROCESSABLE);
      }
      const png = await normalizeLogo(bytes);
      const id = `${randomToken(18)}.png`;
      await db.transaction(async (tx) => {
        await checkUploadsPerDay(tx, workspaceId, app.config.LIMIT_UPLOADS_PER_DAY);
        await tx.insert(workspaceAssets).values({ id, workspaceId, contentType: 'image/png', data: png });
      });
      return reply.code(201).send({ asset_id: id });
    },
  );

  // Logos appear on public report pages too; the id is unguessable and the bytes are our own PNG.
  app.get(
    '/assets/workspaces/:workspaceId/:logo',
    { schema: { params: assetParamsSchema } },
    async (request, reply) => {
      const [asset] = await db
        .select()
        .from(workspaceAssets)
        .where(
          and(eq(workspaceAssets.id, request.params.logo), eq(workspaceAssets.workspaceId, request.params.workspaceId)),
        );
      if (!asset) throw notFound();
      return reply
        .type(asset.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .send(asset.data);
    },
  );

  app.delete('/workspaces/:workspaceId', { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    const { workspaceId } = request.params;
    const { userId } = await requireAdmin(request, workspaceId);
    const workspace = await getUserWorkspace(db, userId, workspaceId);
    if (!workspace) throw notFound();
    // Spec 1 §4: only a non-active workspace can be deleted, by one of its admins.
    if (workspace.status === 'active') throw badRequest('An active workspace cannot be deleted.');
    const next = await db.transaction(async (tx) => {
      await tx.delete(workspaces).where(eq(workspaces.id, workspaceId));
      if (workspace.licenseId === null) return null;
      const [sibling] = await tx
        .select({ id: workspaces.id })
        .from(workspaces)
        .innerJoin(memberships, eq(memberships.workspaceId, workspaces.id))
        .where(
          and(
            eq(workspaces.licenseId, workspace.licenseId),
            eq(memberships.userId, userId),
            ne(workspaces.id, workspaceId),
          ),
        )
        .orderBy(asc(workspaces.name))
        .limit(1);
      return sibling?.id ?? null;
    });
    const redirect =
      next === null
        ? '/onboarding'
        : `/workspaces/${next}/settings/${workspace.licenseType === 'agency' ? 'agency' : 'general'}`;
    return { next_workspace_id: next, redirect };
  });

  app.get(
    '/workspaces/:workspaceId/agency/workspaces',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      const { userId } = await requireMember(request, request.params.workspaceId);
      const workspace = await getUserWorkspace(db, userId, request.params.workspaceId);
      if (!workspace?.agency || workspace.licenseId === null) throw badRequest(NOT_APPLICABLE);
      return { data: await listWorkspaceSummaries(db, workspace.licenseId) };
    },
  );

  app.post(
    '/workspaces/:workspaceId/activation-request',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const workspace = await getUserWorkspace(db, userId, workspaceId);
      if (!workspace || workspace.status !== 'new') throw badRequest(NOT_APPLICABLE);
      const [user] = await db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
      await db.transaction(async (tx) => {
        await tx.update(workspaces).set({ activationRequestedAt: new Date() }).where(eq(workspaces.id, workspaceId));
        await sendMail(
          app,
          tx,
          {
            to: `support@${app.config.STAFF_EMAIL_DOMAIN}`,
            subject: `Activation requested for ${workspace.name}`,
            text:
              `${user.name} <${user.email}> asks to activate workspace ${workspace.name} (id ${workspaceId}).\n` +
              `${publicOrigin(request)}/workspaces/${workspaceId}\n`,
          },
          request.log,
        );
      });
      return { ok: true as const };
    },
  );
};
