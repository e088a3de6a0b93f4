import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import {
  type AccessLevel,
  COPY_SUFFIX,
  createReportBodySchema,
  DUPLICATE_INVALID_TYPE,
  duplicateReportParamsSchema,
  grants,
  impossibleDateIn,
  MAX_TITLE_LENGTH,
  permissionBodySchema,
  permissionParamsSchema,
  permissionsQuerySchema,
  PUBLIC_LINK_WIDENED,
  renameReportBodySchema,
  type Report,
  type ReportConfig,
  type ReportSummary,
  reportConfigSchema,
  reportParamsSchema,
  type ReportType,
  reportTypeParamsSchema,
  saveReportBodySchema,
  OWN_VERSION_CONFLICT,
  VERSION_CONFLICT,
  WRONG_TYPE_MESSAGES,
  type PermissionBody,
} from '../../src/contracts/reports';
import { requireMember } from '../auth/access';
import { readCache } from '../db/readCache';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { DOCUMENT_BODY_LIMIT } from '../http/inputGuard';
import type { ZodTypeProvider } from '../http/zod';
import type { Executor, Transaction } from '../services/db';
import { getWorkspaceFlags } from '../services/flags';
import { idempotent } from '../services/idempotency';
import { checkReportsPerWorkspace } from '../services/limits';
import { invalidatePublicDatasets, widensPublicLink } from '../services/publicDatasets';
import {
  createReport,
  currentVersion,
  deleteReport,
  findPermission,
  findPublicReport,
  isMember,
  listPermissions,
  listReports,
  loadReports,
  markOpened,
  renameReport,
  saveReport,
  setPermission,
} from '../services/reports';
import { findPublicWorkspace } from '../services/workspaces';

/** Validates a config against its type's schema; unknown keys are dropped, a wrong shape is a 400. */
function parseConfig(type: ReportType, config: unknown, title: string): ReportConfig {
  const parsed = reportConfigSchema(type).safeParse(config ?? { title });
  if (!parsed.success) throw badRequest('Invalid report config');
  const impossible = impossibleDateIn(parsed.data);
  if (impossible) throw badRequest(`Invalid report config: ${impossible} is not a date`);
  return parsed.data;
}

/**
 * The report if the member may do `needed` with it. A report they cannot see at all is not found (the same
 * answer as one in another workspace); one they can see but not change is forbidden; one they can see but asked
 * for by another type is a bad request in the spec's words (`wrongType`, by default the operation's type's).
 */
async function reportWithAccess(
  db: Executor,
  params: { workspaceId: number; type: ReportType; id: number },
  userId: number,
  needed: AccessLevel,
  wrongType = WRONG_TYPE_MESSAGES[params.type],
): Promise<Report> {
  const [report] = await loadReports(db, params.workspaceId, userId, params.id);
  if (!report) throw notFound();
  if (report.type !== params.type) throw badRequest(wrongType);
  if (!grants(report.access_level, needed)) throw forbidden();
  return report;
}

async function reloadReport(db: Executor, workspaceId: number, reportId: number, userId: number): Promise<Report> {
  const [report] = await loadReports(db, workspaceId, userId, reportId);
  if (!report) throw notFound();
  return report;
}

/**
 * Reports of a workspace, their access entries, and the public variants of a publicly shared report.
 * Long because a plugin registers all its routes in one place; each handler stays short.
 */
export const reportRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  /** Every way of making a report (new, duplicate, save as new view) counts against the workspace's bound. */
  async function createWithinLimit(tx: Transaction, values: Parameters<typeof createReport>[1]): Promise<number> {
    await checkReportsPerWorkspace(tx, values.workspaceId, app.config.LIMIT_REPORTS_PER_WORKSPACE);
    return createReport(tx, values);
  }

  app.get('/workspaces/:workspaceId/reports', { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    const { workspaceId } = request.params;
    const { userId } = await requireMember(request, workspaceId);
    // The list every open page asks for: on the embedded database, answered from memory until the next write.
    const data = await readCache<ReportSummary[]>(app.db, 'reportLists').get(`${workspaceId}:${userId}`, () =>
      listReports(db, workspaceId, userId),
    );
    return { data };
  });

  app.post(
    '/workspaces/:workspaceId/reports/:type',
    { schema: { params: reportTypeParamsSchema, body: createReportBodySchema }, bodyLimit: DOCUMENT_BODY_LIMIT },
    async (request, reply) => {
      const { workspaceId, type } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const { title } = request.body;
      const config = parseConfig(type, request.body.config, title);
      return idempotent(db, request, reply, userId, async (tx) => {
        const id = await createWithinLimit(tx, { workspaceId, type, title, config, userId });
        return { statusCode: 201, body: { data: await reloadReport(tx, workspaceId, id, userId) } };
      });
    },
  );

  app.get('/workspaces/:workspaceId/reports/:type/:id', { schema: { params: reportParamsSchema } }, async (request) => {
    const { userId } = await requireMember(request, request.params.workspaceId);
    return { data: await reportWithAccess(db, request.params, userId, 'read') };
  });

  app.put(
    '/workspaces/:workspaceId/reports/:type/:id',
    { schema: { params: reportParamsSchema, body: saveReportBodySchema }, bodyLimit: DOCUMENT_BODY_LIMIT },
    async (request, reply) => {
      const { workspaceId, type } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const body = request.body;
      if (body.saveAsNewView) {
        // Anyone who can see a report may keep their edit of it as a view of their own.
        const source = await reportWithAccess(db, request.params, userId, 'read');
        const title = body.title ?? source.title;
        const config = parseConfig(type, body.config, title);
        return idempotent(db, request, reply, userId, async (tx) => {
          const id = await createWithinLimit(tx, { workspaceId, type, title, config, userId });
          return { statusCode: 201, body: { data: await reloadReport(tx, workspaceId, id, userId) } };
        });
      }
      const report = await reportWithAccess(db, request.params, userId, 'read_write');
      const config = parseConfig(type, body.config, body.title ?? report.title);
      // Sharing is full access's right: an editor may change a public report, but not make its link show more.
      if (
        report.share_level === 'public' &&
        !grants(report.access_level, 'full_access') &&
        (await widensPublicLink(db, workspaceId, type, report.config, config))
      ) {
        throw forbidden(PUBLIC_LINK_WIDENED);
      }
      // A retry of a save that went through gets its answer again, not a conflict with itself.
      return idempotent(db, request, reply, userId, async (tx) => {
        const saved = await saveReport(tx, {
          workspaceId,
          reportId: report.id,
          baseVersion: body.version,
          title: body.title,
          config,
          userId,
        });
        if (saved === null) {
          const current = await currentVersion(tx, report.id);
          // The newer version may be the user's own (another tab, an earlier click): never call them another user.
          throw conflict(current.modifiedBy?.id === userId ? OWN_VERSION_CONFLICT : VERSION_CONFLICT, current);
        }
        invalidatePublicDatasets(app.config.dataDir, report.id);
        return { statusCode: 200, body: { data: await reloadReport(tx, workspaceId, report.id, userId) } };
      });
    },
  );

  app.put(
    '/workspaces/:workspaceId/reports/:type/:id/title',
    { schema: { params: reportParamsSchema, body: renameReportBodySchema } },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const report = await reportWithAccess(db, request.params, userId, 'read_write');
      await renameReport(db, report.id, request.body.title, userId);
      invalidatePublicDatasets(app.config.dataDir, report.id);
      return { data: await reloadReport(db, workspaceId, report.id, userId) };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/reports/:type/:id',
    { schema: { params: reportParamsSchema } },
    async (request) => {
      const { userId } = await requireMember(request, request.params.workspaceId);
      const report = await reportWithAccess(db, request.params, userId, 'full_access');
      await deleteReport(db, report.id);
      invalidatePublicDatasets(app.config.dataDir, report.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/workspaces/:workspaceId/reports/:type/:id/duplicate',
    { schema: { params: duplicateReportParamsSchema } },
    async (request, reply) => {
      const { workspaceId, type } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const source = await reportWithAccess(db, request.params, userId, 'read', DUPLICATE_INVALID_TYPE);
      const title = `${source.title.slice(0, MAX_TITLE_LENGTH - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
      const config = { ...source.config, title };
      return idempotent(db, request, reply, userId, async (tx) => {
        const id = await createWithinLimit(tx, { workspaceId, type, title, config, userId });
        return { statusCode: 201, body: { data: await reloadReport(tx, workspaceId, id, userId) } };
      });
    },
  );

  app.post(
    '/workspaces/:workspaceId/reports/:type/:id/opened',
    { schema: { params: reportParamsSchema } },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const report = await reportWithAccess(db, request.params, userId, 'read');
      await markOpened(db, report.id, userId);
      return { data: await reloadReport(db, workspaceId, report.id, userId) };
    },
  );

  app.get(
    '/workspaces/:workspaceId/permissions',
    { schema: { params: workspaceIdParamsSchema, querystring: permissionsQuerySchema } },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const { object_type: type, object_id: id } = request.query;
      const report = await reportWithAccess(db, { workspaceId, type, id }, userId, 'read');
      return { data: await listPermissions(db, report, userId) };
    },
  );

  /**
   * Checks a change of one entry against spec 2 §6: only full_access holders share, never changing their own
   * level; users must be members; the public link is either read or off.
   */
  async function applyPermission(workspaceId: number, userId: number, body: PermissionBody) {
    const report = await reportWithAccess(
      db,
      { workspaceId, type: body.objectType, id: body.objectId },
      userId,
      'full_access',
    );
    const subjectId = body.subjectId ?? null;
    if (body.subjectType === 'user') {
      if (subjectId === null) throw badRequest('Unknown user');
      // A former member's entry may still be removed; only granting needs a current member.
      if (body.accessLevel !== 'none' && !(await isMember(db, workspaceId, subjectId))) {
        throw badRequest('Unknown user');
      }
      if (subjectId === userId) throw forbidden('You cannot change your own access level');
    } else if (subjectId !== null) {
      throw badRequest('Invalid subject');
    }
    if (body.subjectType === 'public' && body.accessLevel !== 'none' && body.accessLevel !== 'read') {
      throw badRequest('A public link can only grant view access');
    }
    await setPermission(db, report.id, body.subjectType, subjectId, body.accessLevel);
    if (body.subjectType === 'public') invalidatePublicDatasets(app.config.dataDir, report.id);
    return { data: await listPermissions(db, report, userId) };
  }

  app.put(
    '/workspaces/:workspaceId/permissions',
    { schema: { params: workspaceIdParamsSchema, body: permissionBodySchema } },
    async (request) => {
      const { workspaceId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      return applyPermission(workspaceId, userId, request.body);
    },
  );

  /** An existing entry, named by id: the body must describe that very entry, so ids cannot be swapped. */
  async function entryMatching(
    workspaceId: number,
    permissionId: number,
    userId: number,
    expected?: PermissionBody,
  ): Promise<PermissionBody> {
    const entry = await findPermission(db, permissionId);
    if (!entry) throw notFound();
    if (
      expected &&
      (entry.reportId !== expected.objectId ||
        entry.subjectType !== expected.subjectType ||
        entry.userId !== (expected.subjectId ?? null))
    ) {
      throw notFound();
    }
    const [report] = await loadReports(db, workspaceId, userId, entry.reportId);
    if (!report) throw notFound();
    return {
      accessLevel: expected?.accessLevel ?? 'none',
      subjectType: entry.subjectType,
      subjectId: entry.userId,
      objectId: entry.reportId,
      objectType: report.type,
    };
  }

  app.put(
    '/workspaces/:workspaceId/permissions/:permissionId',
    { schema: { params: permissionParamsSchema, body: permissionBodySchema } },
    async (request) => {
      const { workspaceId, permissionId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      const body = await entryMatching(workspaceId, permissionId, userId, request.body);
      if (body.objectType !== request.body.objectType) throw notFound();
      return applyPermission(workspaceId, userId, body);
    },
  );

  app.delete(
    '/workspaces/:workspaceId/permissions/:permissionId',
    { schema: { params: permissionParamsSchema } },
    async (request) => {
      const { workspaceId, permissionId } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      return applyPermission(workspaceId, userId, await entryMatching(workspaceId, permissionId, userId));
    },
  );

  // Public variants: every failure, whatever its cause, is the same not-found.
  const publicParams = { params: z.object({ reportId: z.string() }) };

  app.get('/reports/:reportId/config', { schema: publicParams }, async (request) => {
    const report = await findPublicReport(db, request.params.reportId);
    if (!report) throw notFound();
    const { datasets: _datasets, workspaceId: _workspaceId, ...shown } = report;
    return { data: { ...shown, access_level: 'read', share_level: 'public' } };
  });

  app.get('/reports/:reportId/workspace', { schema: publicParams }, async (request) => {
    const report = await findPublicReport(db, request.params.reportId);
    if (!report) throw notFound();
    const workspace = await findPublicWorkspace(db, report.workspaceId);
    if (!workspace) throw notFound();
    return { data: workspace };
  });

  app.get('/reports/:reportId/workspace/flags', { schema: publicParams }, async (request) => {
    const report = await findPublicReport(db, request.params.reportId);
    if (!report) throw notFound();
    return { data: await getWorkspaceFlags(db, report.workspaceId) };
  });
};
