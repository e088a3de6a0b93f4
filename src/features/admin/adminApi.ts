import {
  type AdminMemberList,
  type ImpersonateResponse,
  adminMemberListResponseSchema,
  impersonateResponseSchema,
} from '../../contracts/me';
import { api } from '../../store/api';

/** Product staff's calls (spec 1 §4): a workspace's members, and acting as one of them. */
export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminWorkspaceMembers: build.query<AdminMemberList, number>({
      query: (workspaceId) => `/admin/workspaces/${workspaceId}/members`,
      responseSchema: adminMemberListResponseSchema,
    }),
    impersonate: build.mutation<ImpersonateResponse, number>({
      query: (userId) => ({ url: '/admin/impersonate', method: 'POST', body: { userId } }),
      responseSchema: impersonateResponseSchema,
    }),
  }),
});

export const { useGetAdminWorkspaceMembersQuery, useImpersonateMutation } = adminApi;
