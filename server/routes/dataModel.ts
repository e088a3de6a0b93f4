import type { FastifyPluginAsync } from 'fastify';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import { customFieldsBodySchema } from '../../src/contracts/dataModel';
import { requireAdmin, requireMember } from '../auth/access';
import { badRequest } from '../http/errors';
import { DOCUMENT_BODY_LIMIT } from '../http/inputGuard';
import type { ZodTypeProvider } from '../http/zod';
import { fieldsWithCustomFields, getCustomFieldGroups, saveCustomFieldGroups } from '../services/dataModel';
import { availableDatasets } from '../services/datasets';
import { idempotent } from '../services/idempotency';

/** The data model: tables with their fields, and the workspace's custom fields (admins change them). */
export const dataModelRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.get(
    '/workspaces/:workspaceId/schema/tables',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      const { workspaceId } = request.params;
      await requireMember(request, workspaceId);
      const { listed } = await availableDatasets(db, workspaceId);
      const groups = await getCustomFieldGroups(db, workspaceId);
      return {
        tables: listed.map((dataset) => ({
          id: dataset.id,
          title: dataset.title,
          dateField: dataset.dateField,
          fields: fieldsWithCustomFields(dataset, groups),
        })),
      };
    },
  );

  app.get(
    '/workspaces/:workspaceId/schema/custom-fields',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      await requireMember(request, request.params.workspaceId);
      return getCustomFieldGroups(db, request.params.workspaceId);
    },
  );

  app.put(
    '/workspaces/:workspaceId/schema/custom-fields',
    { schema: { params: workspaceIdParamsSchema, body: customFieldsBodySchema }, bodyLimit: DOCUMENT_BODY_LIMIT },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const { userId } = await requireAdmin(request, workspaceId);
      return idempotent(db, request, reply, userId, async (tx) => {
        const result = await saveCustomFieldGroups(tx, workspaceId, userId, request.body);
        if ('error' in result) throw badRequest(result.error);
        return { statusCode: 200, body: result.groups };
      });
    },
  );
};
