import type { FastifyPluginAsync } from 'fastify';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import {
  type GaAvailableResponse,
  gaPropertyBodySchema,
  gaPropertyParamsSchema,
  type Integration,
  INTEGRATION_ERRORS,
} from '../../src/contracts/integrations';
import { requireAdmin } from '../auth/access';
import { badRequest, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { accountSummaries, serviceAccountEmail } from '../integrations/googleAnalytics';
import { fromProvider, type ProviderContext } from '../integrations/provider';
import type { Executor } from '../services/db';
import { idempotent } from '../services/idempotency';
import { changeUnits, findIntegration, saveIntegration } from '../services/integrations';

/**
 * Google Analytics (spec 1 sections 3, 4, 7): the admin grants the product's service account read access in GA,
 * enables the integration, then adds properties (GA4's views) with an optional market, or removes them. The
 * service account is the product's, so the workspace stores no credentials; every call asks GA what it may read.
 * Long because a plugin registers all its routes in one place; each handler stays short and calls services.
 */
export const googleAnalyticsRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const context: ProviderContext = { config: app.config };
  const base = '/workspaces/:workspaceId/integrations/google-analytics';

  const enabled = async (executor: Executor, workspaceId: number): Promise<Integration> => {
    const integration = await findIntegration(executor, workspaceId, { type: 'google_analytics' });
    if (!integration) throw notFound();
    return integration;
  };

  app.post(base, { schema: { params: workspaceIdParamsSchema } }, async (request, reply) => {
    const { workspaceId } = request.params;
    const { userId } = await requireAdmin(request, workspaceId);
    const existing = await findIntegration(db, workspaceId, { type: 'google_analytics' });
    // Enabling twice answers the one integration there is.
    if (existing) return reply.code(200).send({ data: existing });
    // Enabling proves the service account can sign in to GA; which properties it may read is the next step.
    await fromProvider(() => accountSummaries(context));
    return idempotent(db, request, reply, userId, async (tx) => ({
      statusCode: 201,
      body: { data: await saveIntegration(tx, app.secrets, workspaceId, 'google_analytics', null, []) },
    }));
  });

  app.get(`${base}/available`, { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    const { workspaceId } = request.params;
    await requireAdmin(request, workspaceId);
    const integration = await enabled(db, workspaceId);
    const { accounts, properties } = await fromProvider(() => accountSummaries(context));
    const added = new Set(integration.units.map((unit) => unit.id));
    const answer: GaAvailableResponse = {
      data: properties
        .filter((property) => !added.has(property.id))
        .map((property) => ({
          id: property.id,
          name: property.name,
          account_name: property.accountName,
          propertyName: property.name,
          // GA4 has no views: the property is what reports are read from.
          viewName: property.name,
        })),
      accounts,
      connection: { type: 'service_account', account: serviceAccountEmail(context) ?? '' },
    };
    return answer;
  });

  app.post(
    `${base}/properties`,
    { schema: { params: workspaceIdParamsSchema, body: gaPropertyBodySchema } },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const { userId } = await requireAdmin(request, workspaceId);
      const integration = await enabled(db, workspaceId);
      const { property_id: propertyId, market = null } = request.body;
      const { properties } = await fromProvider(() => accountSummaries(context));
      const property = properties.find((candidate) => candidate.id === propertyId);
      if (!property) throw badRequest(INTEGRATION_ERRORS.gaNoAccess);
      const view = { id: property.id, name: property.name, account_name: property.accountName, market };
      return idempotent(db, request, reply, userId, async (tx) => {
        // Adding a property again replaces its market rather than listing it twice.
        const saved = await changeUnits(tx, workspaceId, integration.id, (units) => [
          ...units.filter((unit) => unit.id !== view.id),
          view,
        ]);
        if (!saved) throw notFound();
        return { statusCode: 201, body: { data: saved } };
      });
    },
  );

  app.delete(`${base}/properties/:viewId`, { schema: { params: gaPropertyParamsSchema } }, async (request) => {
    const { workspaceId, viewId } = request.params;
    await requireAdmin(request, workspaceId);
    const integration = await enabled(db, workspaceId);
    const saved = await db.transaction(async (tx) => {
      let found = false;
      const changed = await changeUnits(tx, workspaceId, integration.id, (units) => {
        found = units.some((unit) => unit.id === viewId);
        return units.filter((unit) => unit.id !== viewId);
      });
      return found ? changed : null;
    });
    if (!saved) throw notFound();
    return { data: saved };
  });
};
