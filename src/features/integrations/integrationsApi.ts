import type { z } from 'zod';
import {
  bucketInfoResponseSchema,
  type CopernicaNode,
  copernicaNodeListResponseSchema,
  copernicaTrackedViewsResponseSchema,
  type GaAvailableResponse,
  gaAvailableResponseSchema,
  type Integration,
  type IntegrationType,
  integrationListResponseSchema,
  integrationResponseSchema,
  type IntegrationUnit,
  sftpAccountResponseSchema,
} from '../../contracts/integrations';
import { api } from '../../store/api';
import { idempotencyHeaders } from '../../store/idempotency';

const integrationsTag = (workspaceId: number) => [{ type: 'Integrations' as const, id: workspaceId }];

/** The connect calls of spec 1 section 7 that create an integration from what the admin typed. */
export const CONNECT_PATHS: Partial<Record<IntegrationType, string>> = {
  copernica: 'copernica',
  deployteq: 'deployteq',
  iterable: 'iterable',
  webpower: 'mailpro',
  mailplus: 'mailplus',
  salesforce: 'salesforce',
};

export const integrationsApi = api.injectEndpoints({
  // Long because RTK Query takes a feature's endpoints as one object; each endpoint is a few lines.
  endpoints: (build) => ({
    getIntegrations: build.query<{ data: Integration[] }, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/integrations`,
      responseSchema: integrationListResponseSchema,
      providesTags: (_result, _error, workspaceId) => integrationsTag(workspaceId),
    }),
    enableKlaviyo: build.mutation<{ data: Integration }, number>({
      query: (workspaceId) => ({
        url: `/workspaces/${workspaceId}/integrations/klaviyo`,
        method: 'POST',
        headers: idempotencyHeaders(),
      }),
      responseSchema: integrationResponseSchema,
      invalidatesTags: (_result, _error, workspaceId) => integrationsTag(workspaceId),
    }),
    connectKlaviyo: build.mutation<
      { data: Integration },
      { workspaceId: number; integrationId: number; apiKey: string }
    >({
      query: ({ workspaceId, integrationId, apiKey }) => ({
        url: `/workspaces/${workspaceId}/integrations/klaviyo/${integrationId}/connect`,
        method: 'PUT',
        body: { api_key: apiKey },
        headers: idempotencyHeaders(),
      }),
      responseSchema: integrationResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => integrationsTag(workspaceId),
    }),
    connectIntegration: build.mutation<
      { data: Integration },
      { workspaceId: number; type: IntegrationType; body: Record<string, string> }
    >({
      query: ({ workspaceId, type, body }) => ({
        url: `/workspaces/${workspaceId}/integrations/${CONNECT_PATHS[type]}`,
        method: 'POST',
        body,
        headers: idempotencyHeaders(),
      }),
      responseSchema: integrationResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => integrationsTag(workspaceId),
    }),
    /** A level of Copernica's tree: the databases (no parent), a database's views, or a view's views. */
    getCopernicaNodes: build.query<
      { data: CopernicaNode[] },
      { workspaceId: number; integrationId: number; parent?: { kind: 'database' | 'view'; id: string } }
    >({
      query: ({ workspaceId, integrationId, parent }) => {
        const base = `/workspaces/${workspaceId}/integrations/copernica/${integrationId}`;
        if (!parent) return `${base}/databases`;
        return parent.kind === 'database' ? `${base}/databases/${parent.id}/views` : `${base}/views/${parent.id}/views`;
      },
      responseSchema: copernicaNodeListResponseSchema,
    }),
    getTrackedViews: build.query<{ data: IntegrationUnit[] }, { workspaceId: number; integrationId: number }>({
      query: ({ workspaceId, integrationId }) =>
        `/workspaces/${workspaceId}/integrations/copernica/${integrationId}/tracked-views`,
      responseSchema: copernicaTrackedViewsResponseSchema,
      providesTags: (_result, _error, { workspaceId }) => integrationsTag(workspaceId),
    }),
    saveTrackedViews: build.mutation<
      { data: IntegrationUnit[] },
      { workspaceId: number; integrationId: number; views: IntegrationUnit[] }
    >({
      query: ({ workspaceId, integrationId, views }) => ({
        url: `/workspaces/${workspaceId}/integrations/copernica/${integrationId}/tracked-views`,
        method: 'PUT',
        body: { views },
      }),
      responseSchema: copernicaTrackedViewsResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => integrationsTag(workspaceId),
    }),
    enableGoogleAnalytics: build.mutation<{ data: Integration }, number>({
      query: (workspaceId) => ({
        url: `/workspaces/${workspaceId}/integrations/google-analytics`,
        method: 'POST',
        headers: idempotencyHeaders(),
      }),
      responseSchema: integrationResponseSchema,
      invalidatesTags: (_result, _error, workspaceId) => integrationsTag(workspaceId),
    }),
    /** The GA properties the product's service account may read and the workspace has not added yet. */
    getGaAvailable: build.query<GaAvailableResponse, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/integrations/google-analytics/available`,
      responseSchema: gaAvailableResponseSchema,
      providesTags: (_result, _error, workspaceId) => integrationsTag(workspaceId),
    }),
    addGaProperty: build.mutation<
      { data: Integration },
      { workspaceId: number; propertyId: string; market: string | null }
    >({
      query: ({ workspaceId, propertyId, market }) => ({
        url: `/workspaces/${workspaceId}/integrations/google-analytics/properties`,
        method: 'POST',
        body: { property_id: propertyId, market },
        headers: idempotencyHeaders(),
      }),
      responseSchema: integrationResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => integrationsTag(workspaceId),
    }),
    removeGaProperty: build.mutation<{ data: Integration }, { workspaceId: number; viewId: string }>({
      query: ({ workspaceId, viewId }) => ({
        url: `/workspaces/${workspaceId}/integrations/google-analytics/properties/${viewId}`,
        method: 'DELETE',
      }),
      responseSchema: integrationResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => integrationsTag(workspaceId),
    }),
    /** The GCS bucket and key the product issued to the workspace: generated on the first request, admins only. */
    getGcsBucket: build.query<z.infer<typeof bucketInfoResponseSchema>, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/integrations/gcs/bucket`,
      responseSchema: bucketInfoResponseSchema,
      // Issued once and never changed: no refetch, and gone from the cache soon after the panel closes.
      keepUnusedDataFor: 30,
    }),
    getSftpAccount: build.query<z.infer<typeof sftpAccountResponseSchema>, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/integrations/sftp/account`,
      responseSchema: sftpAccountResponseSchema,
      keepUnusedDataFor: 30,
    }),
    removeIntegration: build.mutation<unknown, { workspaceId: number; integrationId: number }>({
      query: ({ workspaceId, integrationId }) => ({
        url: `/workspaces/${workspaceId}/integrations/${integrationId}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { workspaceId }) => integrationsTag(workspaceId),
    }),
  }),
});

export const {
  useGetIntegrationsQuery,
  useEnableKlaviyoMutation,
  useConnectKlaviyoMutation,
  useConnectIntegrationMutation,
  useRemoveIntegrationMutation,
  useGetCopernicaNodesQuery,
  useGetTrackedViewsQuery,
  useSaveTrackedViewsMutation,
  useEnableGoogleAnalyticsMutation,
  useGetGaAvailableQuery,
  useAddGaPropertyMutation,
  useRemoveGaPropertyMutation,
  useGetGcsBucketQuery,
  useGetSftpAccountQuery,
} = integrationsApi;
