import {
  type CampaignCollection,
  type CampaignCollectionBody,
  campaignCollectionListSchema,
  campaignCollectionResponseSchema,
} from '../../contracts/campaignCollections';
import { okResponseSchema } from '../../contracts/common';
import { api } from '../../store/api';

const listTag = (workspaceId: number) => ({ type: 'Baselines' as const, id: workspaceId });

/** Baseline templates (campaign collections, spec 2 §7) of a workspace. */
export const baselinesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCampaignCollections: build.query<{ campaignCollections: CampaignCollection[] }, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/campaign-collections`,
      responseSchema: campaignCollectionListSchema,
      providesTags: (_result, _error, workspaceId) => [listTag(workspaceId)],
    }),
    /** Creates or replaces: the id is made by the client, so a retried create replaces its own template. */
    saveCampaignCollection: build.mutation<
      { data: CampaignCollection },
      { workspaceId: number; id: string; body: CampaignCollectionBody }
    >({
      query: ({ workspaceId, id, body }) => ({
        url: `/workspaces/${workspaceId}/campaign-collections/${id}`,
        method: 'PUT',
        body,
      }),
      responseSchema: campaignCollectionResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => [listTag(workspaceId)],
    }),
    deleteCampaignCollection: build.mutation<{ ok: true }, { workspaceId: number; id: string }>({
      query: ({ workspaceId, id }) => ({
        url: `/workspaces/${workspaceId}/campaign-collections/${id}`,
        method: 'DELETE',
      }),
      responseSchema: okResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => [listTag(workspaceId)],
    }),
  }),
});

export const {
  useGetCampaignCollectionsQuery,
  useSaveCampaignCollectionMutation,
  useDeleteCampaignCollectionMutation,
} = baselinesApi;
