import type { FastifyPluginAsync } from 'fastify';
import { campaignCollectionBodySchema, campaignCollectionParamsSchema } from '../../src/contracts/campaignCollections';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import { requireMember } from '../auth/access';
import type { ZodTypeProvider } from '../http/zod';
import {
  deleteCampaignCollection,
  listCampaignCollections,
  putCampaignCollection,
} from '../services/campaignCollections';

/** Campaign collections (baseline templates, spec 2 §3): members of the workspace list, save and delete them. */
export const campaignCollectionRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.get(
    '/workspaces/:workspaceId/campaign-collections',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      await requireMember(request, request.params.workspaceId);
      return { campaignCollections: await listCampaignCollections(db, request.params.workspaceId) };
    },
  );

  // PUT to the collection's own id creates or replaces it, so a repeated save changes nothing more.
  app.put(
    '/workspaces/:workspaceId/campaign-collections/:collectionId',
    { schema: { params: campaignCollectionParamsSchema, body: campaignCollectionBodySchema } },
    async (request) => {
      const { workspaceId, collectionId } = request.params;
      await requireMember(request, workspaceId);
      return { data: await putCampaignCollection(db, workspaceId, collectionId, request.body) };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/campaign-collections/:collectionId',
    { schema: { params: campaignCollectionParamsSchema } },
    async (request) => {
      const { workspaceId, collectionId } = request.params;
      await requireMember(request, workspaceId);
      await deleteCampaignCollection(db, workspaceId, collectionId);
      return { ok: true as const };
    },
  );
};
