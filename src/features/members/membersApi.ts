import { type z } from 'zod';
import { type Role } from '../../contracts/common';
import {
  invitationResponseSchema,
  memberListResponseSchema,
  memberResponseSchema,
  type Invitation,
  type Member,
} from '../../contracts/members';
import { api } from '../../store/api';
import { dataOf } from '../../store/httpRules';

const membersTag = (workspaceId: number) => [{ type: 'Members' as const, id: workspaceId }];

export const membersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The accepted members only (whom one can share with); the members page also lists pending invitations. */
    getMembers: build.query<Member[], number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/members`,
      ...dataOf(memberListResponseSchema.pick({ data: true })),
      providesTags: (_result, _error, workspaceId) => membersTag(workspaceId),
    }),
    getMembersAndInvitations: build.query<{ members: Member[]; invitations: Invitation[] }, number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/members`,
      rawResponseSchema: memberListResponseSchema,
      transformResponse: ({ data, invitations }: z.output<typeof memberListResponseSchema>) => ({
        members: data,
        invitations,
      }),
      providesTags: (_result, _error, workspaceId) => membersTag(workspaceId),
    }),
    inviteMember: build.mutation<Invitation, { workspaceId: number; email: string; role: Role }>({
      query: ({ workspaceId, email, role }) => ({
        url: `/workspaces/${workspaceId}/members`,
        method: 'POST',
        body: { email, role },
      }),
      ...dataOf(invitationResponseSchema),
      invalidatesTags: (_result, _error, { workspaceId }) => membersTag(workspaceId),
    }),
    withdrawInvitation: build.mutation<{ ok: true }, { workspaceId: number; invitationId: number }>({
      query: ({ workspaceId, invitationId }) => ({
        url: `/workspaces/${workspaceId}/invitations/${invitationId}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { workspaceId }) => membersTag(workspaceId),
    }),
    renameMember: build.mutation<Member, { workspaceId: number; memberId: number; name: string }>({
      query: ({ workspaceId, memberId, name }) => ({
        url: `/workspaces/${workspaceId}/members/${memberId}/name`,
        method: 'PUT',
        body: { name },
      }),
      ...dataOf(memberResponseSchema),
      // The admin names the membership, never the account: the signed-in user's own name does not change.
      invalidatesTags: (_result, _error, { workspaceId }) => membersTag(workspaceId),
    }),
    changeMemberRole: build.mutation<Member, { workspaceId: number; memberId: number; role: Role }>({
      query: ({ workspaceId, memberId, role }) => ({
        url: `/workspaces/${workspaceId}/members/${memberId}/role`,
        method: 'PUT',
        body: { role },
      }),
      ...dataOf(memberResponseSchema),
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
      ...dataOf(memberResponseSchema),
      invalidatesTags: (_result, _error, { workspaceId }) => membersTag(workspaceId),
    }),
  }),
});

export const {
  useGetMembersQuery,
  useGetMembersAndInvitationsQuery,
  useInviteMemberMutation,
  useWithdrawInvitationMutation,
  useRenameMemberMutation,
  useChangeMemberRoleMutation,
  useRemoveMemberMutation,
  useRemoveMemberMfaMutation,
} = membersApi;
