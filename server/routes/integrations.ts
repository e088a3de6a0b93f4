import type { FastifyPluginAsync } from 'fastify';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import {
  copernicaBodySchema,
  copernicaDatabaseParamsSchema,
  copernicaTrackedViewsBodySchema,
  copernicaViewParamsSchema,
  deployteqBodySchema,
  INTEGRATION_ERRORS,
  type Integration,
  integrationParamsSchema,
  type IntegrationType,
  type IntegrationUnit,
  iterableBodySchema,
  klaviyoConnectBodySchema,
  mailplusBodySchema,
  mailproBodySchema,
  salesforceBodySchema,
} from '../../src/contracts/integrations';
import { requireAdmin, requireMember } from '../auth/access';
import { badRequest, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { copernica } from '../integrations/copernica';
import { deployteq } from '../integrations/deployteq';
import { iterable } from '../integrations/iterable';
import { klaviyo } from '../integrations/klaviyo';
import { mailplus } from '../integrations/mailplus';
import { fromProvider, type ProviderContext } from '../integrations/provider';
import { webpower } from '../integrations/webpower';
import { enqueueKlaviyoImport } from '../jobs/imports';
import { idempotent } from '../services/idempotency';
import {
  findIntegration,
  listIntegrations,
  openCredentials,
  pushAccount,
  removeIntegration,
  saveIntegration,
  updateUnits,
} from '../services/integrations';

/**
 * Integrations of spec 1 section 7. Members may read the list (the page tells them to ask an admin); every change,
 * every provider call made with saved credentials and the issued push credentials are for admins only.
 * Long because a plugin registers all its routes in one place; each handler stays short and calls services.
 */
export const integrationRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const context: ProviderContext = { config: app.config };
  const base = '/workspaces/:workspaceId/integrations';

  app.get(base, { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    await requireMember(request, request.params.workspaceId);
    return { data: await listIntegrations(db, request.params.workspaceId) };
  });

  app.delete(`${base}/:integrationId`, { schema: { params: integrationParamsSchema } }, async (request) => {
    const { workspaceId, integrationId } = request.params;
    await requireAdmin(request, workspaceId);
    if (!(await removeIntegration(db, workspaceId, integrationId))) throw notFound();
    return { ok: true as const };
  });

  /** Checks the credentials with the provider, then stores them sealed with the units it listed. */
  const save = async (
    request: Parameters<typeof idempotent>[1],
    reply: Parameters<typeof idempotent>[2],
    workspaceId: number,
    type: IntegrationType,
    credentials: Record<string, string> | null,
    list: () => Promise<IntegrationUnit[]>,
  ) => {
    const { userId } = await requireAdmin(request, workspaceId);
    const units = await fromProvider(list);
    return idempotent(db, request, reply, userId, async (tx) => ({
      statusCode: 201,
      body: { data: await saveIntegration(tx, app.secrets, workspaceId, type, credentials, units) },
    }));
  };

  app.post(`${base}/klaviyo`, { schema: { params: workspaceIdParamsSchema } }, async (request, reply) => {
    const { workspaceId } = request.params;
    const existing = await findIntegration(db, workspaceId, { type: 'klaviyo' });
    if (existing) {
      // Enabling twice answers the one integration there is.
      await requireAdmin(request, workspaceId);
      return reply.code(200).send({ data: existing });
    }
    return save(request, reply, workspaceId, 'klaviyo', null, async () => []);
  });

  app.put(
    `${base}/klaviyo/:integrationId/connect`,
    { schema: { params: integrationParamsSchema, body: klaviyoConnectBodySchema } },
    async (request, reply) => {
      const { workspaceId, integrationId } = request.params;
      const { userId } = await requireAdmin(request, workspaceId);
      const integration = await findIntegration(db, workspaceId, { id: integrationId });
      if (!integration || integration.type !== 'klaviyo') throw notFound();
      const apiKey = request.body.api_key;
      const units = await fromProvider(() => klaviyo.listUnits(context, { apiKey }));
      // The key and its import are saved together: a connect either imports once or leaves nothing behind.
      return idempotent(db, request, reply, userId, async (tx) => {
        const saved = await saveIntegration(tx, app.secrets, workspaceId, 'klaviyo', { apiKey }, units);
        await enqueueKlaviyoImport(tx, workspaceId, saved.id);
        return { statusCode: 200, body: { data: saved } };
      });
    },
  );

  app.post(
    `${base}/copernica`,
    { schema: { params: workspaceIdParamsSchema, body: copernicaBodySchema } },
    async (request, reply) => {
      const { token } = request.body;
      return save(request, reply, request.params.workspaceId, 'copernica', { token }, () =>
        copernica.listUnits(context, { token }),
      );
    },
  );

  app.post(
    `${base}/iterable`,
    { schema: { params: workspaceIdParamsSchema, body: iterableBodySchema } },
    async (request, reply) => {
      const { region, api_key: apiKey } = request.body;
      return save(request, reply, request.params.workspaceId, 'iterable', { region, apiKey }, () =>
        iterable.listUnits(context, { region, apiKey }),
      );
    },
  );

  app.post(
    `${base}/deployteq`,
    { schema: { params: workspaceIdParamsSchema, body: deployteqBodySchema } },
    async (request, reply) => {
      const credentials = { clientId: request.body.client_id, clientSecret: request.body.client_secret };
      return save(request, reply, request.params.workspaceId, 'deployteq', credentials, () =>
        deployteq.listUnits(context, credentials),
      );
    },
  );

  app.post(
    `${base}/mailpro`,
    { schema: { params: workspaceIdParamsSchema, body: mailproBodySchema } },
    async (request, reply) => {
      const { client_id: clientId, client_secret: clientSecret, hostname } = request.body;
      const credentials = { clientId, clientSecret, hostname };
      return save(request, reply, request.params.workspaceId, 'webpower', credentials, () =>
        webpower.listUnits(context, credentials),
      );
    },
  );

  app.post(
    `${base}/mailplus`,
    { schema: { params: workspaceIdParamsSchema, body: mailplusBodySchema } },
    async (request, reply) => {
      const credentials = { consumerKey: request.body.consumer_key, consumerSecret: request.body.consumer_secret };
      return save(request, reply, request.params.workspaceId, 'mailplus', credentials, () =>
        mailplus.listUnits(context, credentials),
      );
    },
  );

  // Marketing Cloud data arrives through the account's own export to us; the account id (MID) is all we keep.
  app.post(
    `${base}/salesforce`,
    { schema: { params: workspaceIdParamsSchema, body: salesforceBodySchema } },
    async (request, reply) => {
      const accountId = request.body.account_id;
      return save(request, reply, request.params.workspaceId, 'salesforce', null, async () => [
        { id: accountId, name: `Account ${accountId}` },
      ]);
    },
  );

  app.get(`${base}/gcs/bucket`, { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    await requireAdmin(request, request.params.workspaceId);
    return { data: await pushAccount(db, app.secrets, request.params.workspaceId, 'gcs') };
  });

  app.get(`${base}/sftp/account`, { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    await requireAdmin(request, request.params.workspaceId);
    const account = await pushAccount(db, app.secrets, request.params.workspaceId, 'sftp');
    return { data: { ...account, host: new URL(app.config.publicUrl).hostname, port: 2022, path: '/' } };
  });
};

/**
 * Copernica's tree (databases → views → views) read live with the saved token, and the tracked views: the views
 * whose data the nightly import reads, under names the admin may change.
 */
export const copernicaRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const context: ProviderContext = { config: app.config };
  const base = '/workspaces/:workspaceId/integrations/copernica/:integrationId';

  const tokenOf = async (workspaceId: number, integrationId: number): Promise<[Integration, string]> => {
    const integration = await findIntegration(db, workspaceId, { id: integrationId });
    if (!integration || integration.type !== 'copernica') throw notFound();
    const credentials = await openCredentials<{ token: string }>(db, app.secrets, workspaceId, integration);
    if (!credentials) throw badRequest(INTEGRATION_ERRORS.copernicaDatabases);
    return [integration, credentials.token];
  };

  app.get(`${base}/databases`, { schema: { params: integrationParamsSchema } }, async (request) => {
    const { workspaceId, integrationId } = request.params;
    await requireAdmin(request, workspaceId);
    const [, token] = await tokenOf(workspaceId, integrationId);
    return { data: await fromProvider(() => copernica.databases(context, token)) };
  });

  app.get(`${base}/databases/:dbId/views`, { schema: { params: copernicaDatabaseParamsSchema } }, async (request) => {
    const { workspaceId, integrationId, dbId } = request.params;
    await requireAdmin(request, workspaceId);
    const [, token] = await tokenOf(workspaceId, integrationId);
    return { data: await fromProvider(() => copernica.databaseViews(context, token, dbId)) };
  });

  app.get(`${base}/views/:viewId/views`, { schema: { params: copernicaViewParamsSchema } }, async (request) => {
    const { workspaceId, integrationId, viewId } = request.params;
    await requireAdmin(request, workspaceId);
    const [, token] = await tokenOf(workspaceId, integrationId);
    return { data: await fromProvider(() => copernica.viewViews(context, token, viewId)) };
  });

  app.get(`${base}/tracked-views`, { schema: { params: integrationParamsSchema } }, async (request) => {
    const { workspaceId, integrationId } = request.params;
    await requireAdmin(request, workspaceId);
    const [integration] = await tokenOf(workspaceId, integrationId);
    return { data: integration.units.filter((unit) => unit.id.startsWith('view:')).map(fromTracked) };
  });

  app.put(
    `${base}/tracked-views`,
    { schema: { params: integrationParamsSchema, body: copernicaTrackedViewsBodySchema } },
    async (request) => {
      const { workspaceId, integrationId } = request.params;
      await requireAdmin(request, workspaceId);
      const [integration] = await tokenOf(workspaceId, integrationId);
      const account = integration.units.filter((unit) => !unit.id.startsWith('view:'));
      const tracked = request.body.views.map((view) => ({ id: `view:${view.id}`, name: view.name }));
      await updateUnits(db, workspaceId, integrationId, [...account, ...tracked]);
      return { data: tracked.map(fromTracked) };
    },
  );
};

const fromTracked = (unit: IntegrationUnit): IntegrationUnit => ({
  id: unit.id.slice('view:'.length),
  name: unit.name,
});
