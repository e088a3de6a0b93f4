import {
  assetResponseSchema,
  createWorkspaceResponseSchema,
  flagsResponseSchema,
  workspaceListResponseSchema,
  workspaceResponseSchema,
  type Workspace,
  type WorkspaceSettingsBody,
  type WorkspaceSummary,
} from '../../contracts/workspaces';
import { api } from '../../store/api';
import { dataOf } from '../../store/httpRules';
import { idempotencyHeaders } from '../../store/idempotency';

export interface DeleteWorkspaceResult {
  next_workspace_id: number | null;
  redirect: string;
}

export const workspacesApi = api.injectEndpoints({
  endpoints: (build) => ({
    createWorkspace: build.mutation<{ id: number }, { name: string; license_id?: number }>({
      query: (body) => ({ url: '/workspaces', method: 'POST', body, headers: idempotencyHeaders() }),
      responseSchema: createWorkspaceResponseSchema,
      invalidatesTags: ['Me', 'Workspace'],
    }),
    getWorkspaceFlags: build.query<string[], number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/flags`,
      ...dataOf(flagsResponseSchema),
      providesTags: (_result, _error, workspaceId) => [{ type: 'Flags', id: workspaceId }],
    }),
    updateWorkspaceSettings: build.mutation<Workspace, { workspaceId: number; body: WorkspaceSettingsBody }>({
      query: ({ workspaceId, body }) => ({ url: `/workspaces/${workspaceId}/settings`, method: 'PUT', body }),
      responseSchema: workspaceResponseSchema,
      invalidatesTags: ['Me', 'Workspace'],
    }),
    uploadLogo: build.mutation<{ asset_id: string }, { workspaceId: number; file: File }>({
      query: ({ workspaceId, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `/workspaces/${workspaceId}/assets`, method: 'POST', body };
      },
      responseSchema: assetResponseSchema,
    }),
    deleteWorkspace: build.mutation<DeleteWorkspaceResult, number>({
      query: (workspaceId) => ({ url: `/workspaces/${workspaceId}`, method: 'DELETE' }),
      invalidatesTags: ['Me', 'Workspace'],
    }),
    getAgencyWorkspaces: build.query<WorkspaceSummary[], number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/agency/workspaces`,
      ...dataOf(workspaceListResponseSchema),
      providesTags: ['Workspace'],
    }),
    getAdminWorkspaces: build.query<WorkspaceSummary[], void>({
      query: () => '/admin/workspaces',
      ...dataOf(workspaceListResponseSchema),
      providesTags: ['Workspace'],
    }),
    requestActivation: build.mutation<{ ok: true }, number>({
      query: (workspaceId) => ({ url: `/workspaces/${workspaceId}/activation-request`, method: 'POST' }),
      invalidatesTags: ['Me'],
    }),
  }),
});

export const {
  useCreateWorkspaceMutation,
  useGetWorkspaceFlagsQuery,
  useUpdateWorkspaceSettingsMutation,
  useUploadLogoMutation,
  useDeleteWorkspaceMutation,
  useGetAgencyWorkspacesQuery,
  useGetAdminWorkspacesQuery,
  useRequestActivationMutation,
} = workspacesApi;
