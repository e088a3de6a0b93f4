import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { okResponseSchema, workspaceIdParamsSchema } from '../../src/contracts/common';
import {
  assetParamsSchema,
  assetResponseSchema,
  createWorkspaceBodySchema,
  createWorkspaceResponseSchema,
  deleteWorkspaceResponseSchema,
  flagsResponseSchema,
  LOGO_MAX_BYTES,
  LOGO_TOO_BIG,
  LOGO_UNPROCESSABLE,
  workspaceListResponseSchema,
  workspaceResponseSchema,
  workspaceSettingsBodySchema,
} from '../../src/contracts/workspaces';
import { requireAdmin, requireMember, requireUser } from '../auth/access';
import { badRequest, HttpError, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { publicOrigin, sendMail } from '../mail/mailer';
import { getWorkspaceFlags } from '../services/flags';
import { idempotent } from '../services/idempotency';
import { normalizeLogo } from '../services/logo';
import {
  createWorkspace,
  deleteWorkspace,
  findWorkspaceAsset,
  getUserWorkspace,
  isAgencyAdmin,
  listWorkspaceSummaries,
  requestActivation,
  storeLogo,
  updateWorkspaceSettings,
} from '../services/workspaces';

const NOT_APPLICABLE = 'Not applicable for this workspace';

/**
 * Workspaces: create, read, settings and logo, delete, flags, agency listing and the demo activation request.
 * Long because a plugin registers all its routes in one place; each handler stays short and calls services.
 */
export const workspaceRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  app.post(
    '/workspaces',
    { schema: { body: createWorkspaceBodySchema, response: { 201: createWorkspaceResponseSchema } } },
    async (request, reply) => {
      const { userId } = await requireUser(request);
      const { name, license_id: licenseId } = request.body;
      if (licenseId !== undefined && !(await isAgencyAdmin(db, userId, licenseId))) throw notFound();
      return idempotent(db, request, reply, userId, async (tx) => {
        const id = await createWorkspace(tx, userId, name, licenseId ?? null, app.config.LIMIT_WORKSPACES_PER_DAY);
        return { statusCode: 201, body: { id } };
      });
    },
  );

  app.get(
    '/workspaces/:workspaceId',
    { schema: { params: workspaceIdParamsSchema, response: { 200: workspaceResponseSchema } } },
    async (request) => {
      const { userId } = await requireMember(request, request.params.workspaceId);
      const workspace = await getUserWorkspace(db, userId, request.params.workspaceId);
      if (!workspace) throw notFound();
      return workspace;
    },
  );

  app.get(
    '/workspaces/:workspaceId/flags',
    { schema: { params: workspaceIdParamsSchema, response: { 200: flagsResponseSchema } } },
    async (request) => {
      await requireMember(request, request.params.workspaceId);
      return { data: await getWorkspaceFlags(db, request.params.workspaceId) };
    },
  );

  app.put(
    '/workspaces/:workspaceId/settings',
    {
      schema: {
        params: workspaceIdParamsSchema,
        body: workspaceSettingsBodySchema,
        response: { 200: workspaceResponseSchema },
      },
    },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireAdmin(request, workspaceId);
      const { logo } = request.body;
      if (logo && !(await findWorkspaceAsset(db, workspaceId, logo))) throw badRequest(LOGO_UNPROCESSABLE);
      await updateWorkspaceSettings(db, workspaceId, request.body);
      const workspace = await getUserWorkspace(db, userId, workspaceId);
      if (!workspace) throw notFound();
      return workspace;
    },
  );

  app.post(
    '/workspaces/:workspaceId/assets',
    { schema: { params: workspaceIdParamsSchema, response: { 201: assetResponseSchema } } },
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
      const id = await storeLogo(db, workspaceId, png, app.config.LIMIT_UPLOADS_PER_DAY);
      return reply.code(201).send({ asset_id: id });
    },
  );

  // Logos appear on public report pages too; the id is unguessable and the bytes are our own PNG.
  app.get(
    '/assets/workspaces/:workspaceId/:logo',
    { schema: { params: assetParamsSchema } },
    async (request, reply) => {
      const asset = await findWorkspaceAsset(db, request.params.workspaceId, request.params.logo);
      if (!asset) throw notFound();
      return reply
        .type(asset.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .send(asset.data);
    },
  );

  app.delete(
    '/workspaces/:workspaceId',
    { schema: { params: workspaceIdParamsSchema, response: { 200: deleteWorkspaceResponseSchema } } },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireAdmin(request, workspaceId);
      const workspace = await getUserWorkspace(db, userId, workspaceId);
      if (!workspace) throw notFound();
      // Spec 1 §4: only a non-active workspace can be deleted, by one of its admins.
      if (workspace.status === 'active') throw badRequest('An active workspace cannot be deleted.');
      const next = await deleteWorkspace(db, workspace, userId);
      const redirect =
        next === null
          ? '/onboarding'
          : `/workspaces/${next}/settings/${workspace.licenseType === 'agency' ? 'agency' : 'general'}`;
      return { next_workspace_id: next, redirect };
    },
  );

  app.get(
    '/workspaces/:workspaceId/agency/workspaces',
    { schema: { params: workspaceIdParamsSchema, response: { 200: workspaceListResponseSchema } } },
    async (request) => {
      const { userId } = await requireMember(request, request.params.workspaceId);
      const workspace = await getUserWorkspace(db, userId, request.params.workspaceId);
      if (!workspace?.agency || workspace.licenseId === null) throw badRequest(NOT_APPLICABLE);
      return { data: await listWorkspaceSummaries(db, workspace.licenseId) };
    },
  );

  app.post(
    '/workspaces/:workspaceId/activation-request',
    { schema: { params: workspaceIdParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const workspace = await getUserWorkspace(db, userId, workspaceId);
      if (!workspace || workspace.status !== 'new') throw badRequest(NOT_APPLICABLE);
      await requestActivation(db, userId, workspaceId, (tx, user) =>
        sendMail(
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
        ),
      );
      return { ok: true as const };
    },
  );
};
