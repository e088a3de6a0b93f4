import { type Role } from '../../contracts/common';
import { memberListResponseSchema, memberResponseSchema, type Member } from '../../contracts/members';
import { api } from '../../store/api';

const membersTag = (workspaceId: number) => [{ type: 'Members' as const, id: workspaceId }];

export const membersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMembers: build.query<Member[], number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/members`,
      transformResponse: (raw: unknown) => memberListResponseSchema.parse(raw).data,
      providesTags: (_result, _error, workspaceId) => membersTag(workspaceId),
    }),
    inviteMember: build.mutation<Member, { workspaceId: number; email: string; role: Role }>({
      query: ({ workspaceId, email, role }) => ({
        url: `/workspaces/${workspaceId}/members`,
        method: 'POST',
        body: { email, role },
      }),
      transformResponse: (raw: unknown) => memberResponseSchema.parse(raw).data,
      invalidatesTags: (_result, _error, { workspaceId }) => membersTag(workspaceId),
    }),
    renameMember: build.mutation<Member, { workspaceId: number; memberId: number; name: string }>({
      query: ({ workspaceId, memberId, name }) => ({
        url: `/workspaces/${workspaceId}/members/${memberId}/name`,
        method: 'PUT',
        body: { name },
      }),
      transformResponse: (raw: unknown) => memberResponseSchema.parse(raw).data,
      invalidatesTags: (_result, _error, { workspaceId }) => [...membersTag(workspaceId), 'Me'],
    }),
    changeMemberRole: build.mutation<Member, { workspaceId: number; memberId: number; role: Role }>({
      query: ({ workspaceId, memberId, role }) => ({
        url: `/workspaces/${workspaceId}/members/${memberId}/role`,
        method: 'PUT',
        body: { role },
      }),
      transformResponse: (raw: unknown) => memberResponseSchema.parse(raw).data,
      invalidatesTags: (_result, _error, { workspaceId }) => membersTag(workspaceId),
    }),
    removeMember: build.mutation<{ ok: true }, { workspaceId: number; memberId: number }>({
      query: ({ workspaceId, memberId }) => ({
        url: `/workspaces/${workspaceId}/members`,
        method: 'DELETE',
        body: { member_id: memberId },
      }),
      invalidatesTags: (_result, _error, { workspaceId }) => membersTag(workspaceId),
    }),
    removeMemberMfa: build.mutation<Member, { workspaceId: number; memberId: number }>({
      query: ({ workspaceId, memberId }) => ({
        url: `/workspaces/${workspaceId}/members/${memberId}/mfa`,
        method: 'DELETE',
      }),
      transformResponse: (raw: unknown) => memberResponseSchema.parse(raw).data,
      invalidatesTags: (_result, _error, { workspaceId }) => membersTag(workspaceId),
    }),
  }),
});

export const {
  useGetMembersQuery,
  useInviteMemberMutation,
  useRenameMemberMutation,
  useChangeMemberRoleMutation,
  useRemoveMemberMutation,
  useRemoveMemberMfaMutation,
} = membersApi;
