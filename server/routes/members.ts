import type { FastifyPluginAsync } from 'fastify';
import { okResponseSchema, workspaceIdParamsSchema } from '../../src/contracts/common';
import { IMPERSONATION_READ_ONLY } from '../../src/contracts/me';
import {
  invitationIdParamsSchema,
  invitationParamsSchema,
  invitationResponseSchema,
  inviteBodySchema,
  memberListResponseSchema,
  memberNameBodySchema,
  memberParamsSchema,
  memberResponseSchema,
  memberRoleBodySchema,
  MFA_OTHER_WORKSPACES,
  type RegistrationErrorReason,
  removeMemberBodySchema,
  STAFF_MFA,
  STAFF_NOT_INVITABLE,
} from '../../src/contracts/members';
import { getSession, requireAdmin, requireMember } from '../auth/access';
import { badRequest, forbidden } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { publicOrigin, sendMail } from '../mail/mailer';
import {
  acceptInvitation,
  changeMemberRole,
  findInvitationByToken,
  findMember,
  inviteMember,
  listInvitations,
  listMembers,
  removeMember,
  removeMemberMfa,
  renameMember,
  withdrawInvitation,
} from '../services/members';
import { completeSignIn } from './login';
import { isStaffEmail } from './me';

/**
 * Members of a workspace: everyone may list them; only admins change them, and never their own role or membership.
 * An invitation stays pending until the invitee accepts it, and an admin's power over a member ends at the
 * workspace: the admin names the membership, not the account, and removes two-factor sign-in only from accounts
 * that belong to no workspace the admin does not administer.
 * Long because a plugin registers all its routes in one place; each handler stays short and calls services.
 */
export const memberRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.get(
    '/workspaces/:workspaceId/members',
    { schema: { params: workspaceIdParamsSchema, response: { 200: memberListResponseSchema } } },
    async (request) => {
      const { workspaceId } = request.params;
      await requireMember(request, workspaceId);
      return { data: await listMembers(db, workspaceId), invitations: await listInvitations(db, workspaceId) };
    },
  );

  app.post(
    '/workspaces/:workspaceId/members',
    {
      schema: { params: workspaceIdParamsSchema, body: inviteBodySchema, response: { 201: invitationResponseSchema } },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const admin = await requireAdmin(request, workspaceId);
      const { email } = request.body;
      if (isStaffEmail(email, app.config.STAFF_EMAIL_DOMAIN)) throw badRequest(STAFF_NOT_INVITABLE);
      const invitation = await inviteMember(db, workspaceId, admin.userId, request.body, (tx, mail) => {
        const link = `${publicOrigin(request)}/api/invitations/${mail.token}`;
        return sendMail(
          app,
          tx,
          {
            to: email,
            subject: `You have been invited to ${mail.workspaceName} on Openrate`,
            text:
              `${mail.inviterName} invited you to the workspace ${mail.workspaceName} on Openrate.\n\n` +
              `Join with this link (it works once, for 7 days): ${link}\n\n` +
              `If you already use Openrate, sign in with ${email} first, then open the link.\n`,
            link,
          },
          request.log,
        );
      });
      return reply.code(201).send({ data: invitation });
    },
  );

  app.delete(
    '/workspaces/:workspaceId/invitations/:invitationId',
    { schema: { params: invitationIdParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      const { workspaceId, invitationId } = request.params;
      await requireAdmin(request, workspaceId);
      await withdrawInvitation(db, workspaceId, invitationId);
      return { ok: true as const };
    },
  );

  // The account's own name belongs to its holder (and shows in every workspace): an admin names the membership.
  app.put(
    '/workspaces/:workspaceId/members/:memberId/name',
    { schema: { params: memberParamsSchema, body: memberNameBodySchema, response: { 200: memberResponseSchema } } },
    async (request) => {
      const { workspaceId, memberId } = request.params;
      await requireAdmin(request, workspaceId);
      return { data: await renameMember(db, workspaceId, memberId, request.body.name) };
    },
  );

  app.put(
    '/workspaces/:workspaceId/members/:memberId/role',
    { schema: { params: memberParamsSchema, body: memberRoleBodySchema, response: { 200: memberResponseSchema } } },
    async (request) => {
      const { workspaceId, memberId } = request.params;
      const admin = await requireAdmin(request, workspaceId);
      if (memberId === admin.userId) throw badRequest('You cannot change your own role.');
      return { data: await changeMemberRole(db, workspaceId, memberId, request.body.role) };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/members',
    { schema: { params: workspaceIdParamsSchema, body: removeMemberBodySchema, response: { 200: okResponseSchema } } },
    async (request) => {
      const { workspaceId } = request.params;
      const memberId = request.body.member_id;
      const admin = await requireAdmin(request, workspaceId);
      if (memberId === admin.userId) throw badRequest('You cannot remove yourself from the workspace.');
      await removeMember(db, workspaceId, memberId);
      return { ok: true as const };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/members/:memberId/mfa',
    { schema: { params: memberParamsSchema, response: { 200: memberResponseSchema } } },
    async (request) => {
      const { workspaceId, memberId } = request.params;
      const admin = await requireAdmin(request, workspaceId);
      // Own MFA is turned off only with a valid code (DELETE /api/me/mfa); never by someone acting as staff.
      if (memberId === admin.userId)
        throw badRequest('Use your profile to disable your own two-factor authentication.');
      if (admin.impersonatedBy !== null) throw forbidden(IMPERSONATION_READ_ONLY);
      const member = await findMember(db, workspaceId, memberId);
      if (isStaffEmail(member.email, app.config.STAFF_EMAIL_DOMAIN)) throw forbidden(STAFF_MFA);
      // Two-factor sign-in protects the whole account, so only an admin of every workspace of the member may.
      if (!(await removeMemberMfa(db, memberId, admin.userId))) {
        if (!member.mfaEnabled) throw badRequest('Two-factor authentication is not enabled for this member.');
        throw forbidden(MFA_OTHER_WORKSPACES);
      }
      return { data: await findMember(db, workspaceId, memberId) };
    },
  );

  /**
   * The invitation link (a browser navigation) accepts the invitation. A person with no account yet is registered
   * and signed in by it; an existing account joins only while signed in as itself, because a link in a mailbox must
   * never sign in an account that may have two-factor sign-in. Every other case goes to the registration error page.
   */
  app.get('/invitations/:token', { schema: { params: invitationParamsSchema } }, async (request, reply) => {
    const failed = (reason: RegistrationErrorReason) => reply.redirect(`/registration-error?reason=${reason}`);
    const invitation = await findInvitationByToken(db, request.params.token);
    if (!invitation) return failed('token_not_found');
    if (invitation.usedAt) return failed('token_already_used');
    if (invitation.expiresAt.getTime() < Date.now()) return failed('token_expired');
    // Invitations of staff addresses are refused when made; one left from before that never admits staff either.
    if (isStaffEmail(invitation.email, app.config.STAFF_EMAIL_DOMAIN)) return failed('token_not_found');
    const session = await getSession(request);
    const signedInAs =
      session !== null && !session.mfaPending && session.impersonatedBy === null ? session.userId : null;
    const outcome = await acceptInvitation(db, invitation, signedInAs, (tx, user) =>
      completeSignIn(tx, request, reply, user),
    );
    if (outcome) return failed(outcome);
    return reply.redirect(`/workspaces/${invitation.workspaceId}`);
  });
};
