import { okResponseSchema } from '../../contracts/common';
import { randomHex } from '../../contracts/ids';
import { type Target, type TargetBody, targetListResponseSchema, targetResponseSchema } from '../../contracts/targets';
import { api } from '../../store/api';
import { idempotencyHeaders } from '../../store/idempotency';

const listTag = (workspaceId: number) => ({ type: 'Targets' as const, id: workspaceId });

/** The targets API (spec 2 §7): a workspace's targets, and those a public dashboard shows. */
export const targetsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTargets: build.query<{ data: Target[] }, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/targets`,
      responseSchema: targetListResponseSchema,
      providesTags: (_result, _error, workspaceId) => [listTag(workspaceId)],
    }),
    /** A public dashboard's targets: only those its target widgets name, read-only. */
    getReportTargets: build.query<{ data: Target[] }, number>({
      query: (reportId) => `/reports/${reportId}/targets`,
      responseSchema: targetListResponseSchema,
    }),
    /** Creates or updates: the id is made by the client, so a retried create updates its own target. */
    saveTarget: build.mutation<{ data: Target }, { workspaceId: number; id: string; body: TargetBody }>({
      query: ({ workspaceId, id, body }) => ({
        url: `/workspaces/${workspaceId}/targets/${id}`,
        method: 'PUT',
        body,
        headers: idempotencyHeaders(),
      }),
      responseSchema: targetResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => [listTag(workspaceId)],
    }),
    deleteTarget: build.mutation<{ ok: true }, { workspaceId: number; id: string }>({
      query: ({ workspaceId, id }) => ({ url: `/workspaces/${workspaceId}/targets/${id}`, method: 'DELETE' }),
      responseSchema: okResponseSchema,
      invalidatesTags: (_result, _error, { workspaceId }) => [listTag(workspaceId)],
    }),
  }),
});

export const { useGetTargetsQuery, useGetReportTargetsQuery, useSaveTargetMutation, useDeleteTargetMutation } =
  targetsApi;

/** A new target's id: random, so the PUT that creates it can be retried without making a second one. */
export const newTargetId = (): string => randomHex(12);
