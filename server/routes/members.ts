import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import {
  invitationParamsSchema,
  inviteBodySchema,
  memberNameBodySchema,
  memberParamsSchema,
  memberRoleBodySchema,
  type RegistrationErrorReason,
  removeMemberBodySchema,
  type Member,
} from '../../src/contracts/members';
import { requireAdmin, requireMember } from '../auth/access';
import { randomToken, sha256 } from '../auth/crypto';
import { invitations, memberships, reportingSubscriptions, users, workspaces } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { publicOrigin, sendMail } from '../mail/mailer';
import type { Executor } from '../services/db';
import { completeSignIn } from './login';

const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export async function listMembers(db: Executor, workspaceId: number, userId?: number): Promise<Member[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      mfaSecret: users.mfaSecret,
      lastSeen: users.lastSeenAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      userId === undefined
        ? eq(memberships.workspaceId, workspaceId)
        : and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)),
    )
    .orderBy(asc(users.name), asc(users.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    mfaEnabled: row.mfaSecret !== null,
    lastSeen: row.lastSeen?.toISOString() ?? null,
  }));
}

async function findMember(db: Executor, workspaceId: number, memberId: number): Promise<Member> {
  const [member] = await listMembers(db, workspaceId, memberId);
  if (!member) throw notFound();
  return member;
}

/** Members of a workspace: everyone may list them; only admins change them, and never their own role or membership. */
export const memberRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.get('/workspaces/:workspaceId/members', { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    await requireMember(request, request.params.workspaceId);
    return { data: await listMembers(db, request.params.workspaceId) };
  });

  app.post(
    '/workspaces/:workspaceId/members',
    { schema: { params: workspaceIdParamsSchema, body: inviteBodySchema } },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const admin = await requireAdmin(request, workspaceId);
      const { email, role } = request.body;
      const member = await db.transaction(async (tx) => {
        await tx.insert(users).values({ email, name: email }).onConflictDoNothing();
        const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
        const inserted = await tx
          .insert(memberships)
          .values({ workspaceId, userId: user.id, role })
          .onConflictDoNothing()
          .returning({ userId: memberships.userId });
        if (inserted.length === 0) throw conflict('This person is already a member of the workspace.');
        const [workspace] = await tx
          .select({ name: workspaces.name })
          .from(workspaces)
          .where(eq(workspaces.id, workspaceId));
        const [inviter] = await tx.select({ name: users.name }).from(users).where(eq(users.id, admin.userId));
        const token = randomToken(32);
        await tx.insert(invitations).values({
          tokenHash: sha256(token),
          workspaceId,
          email,
          invitedBy: admin.userId,
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
        });
        const link = `${publicOrigin(request)}/api/invitations/${token}`;
        await sendMail(
          app,
          tx,
          {
            to: email,
            subject: `You have been invited to ${workspace.name} on Openrate`,
            text:
              `${inviter.name} invited you to the workspace ${workspace.name} on Openrate.\n\n` +
              `Join with this link (it works once, for 7 days): ${link}\n\n` +
              `If you already use Openrate, just sign in with ${email}.\n`,
            link,
          },
          request.log,
        );
        return findMember(tx, workspaceId, user.id);
      });
      return reply.code(201).send({ data: member });
    },
  );

  app.put(
    '/workspaces/:workspaceId/members/:memberId/name',
    { schema: { params: memberParamsSchema, body: memberNameBodySchema } },
    async (request) => {
      const { workspaceId, memberId } = request.params;
      await requireAdmin(request, workspaceId);
      await findMember(db, workspaceId, memberId);
      await db.update(users).set({ name: request.body.name }).where(eq(users.id, memberId));
      return { data: await findMember(db, workspaceId, memberId) };
    },
  );

  app.put(
    '/workspaces/:workspaceId/members/:memberId/role',
    { schema: { params: memberParamsSchema, body: memberRoleBodySchema } },
    async (request) => {
      const { workspaceId, memberId } = request.params;
      const admin = await requireAdmin(request, workspaceId);
      if (memberId === admin.userId) throw badRequest('You cannot change your own role.');
      await findMember(db, workspaceId, memberId);
      await db
        .update(memberships)
        .set({ role: request.body.role })
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, memberId)));
      return { data: await findMember(db, workspaceId, memberId) };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/members',
    { schema: { params: workspaceIdParamsSchema, body: removeMemberBodySchema } },
    async (request) => {
      const { workspaceId } = request.params;
      const memberId = request.body.member_id;
      const admin = await requireAdmin(request, workspaceId);
      if (memberId === admin.userId) throw badRequest('You cannot remove yourself from the workspace.');
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(memberships)
          .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, memberId)))
          .returning({ userId: memberships.userId });
        if (removed.length === 0) throw notFound();
        await tx
          .delete(reportingSubscriptions)
          .where(and(eq(reportingSubscriptions.workspaceId, workspaceId), eq(reportingSubscriptions.userId, memberId)));
      });
      return { ok: true as const };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/members/:memberId/mfa',
    { schema: { params: memberParamsSchema } },
    async (request) => {
      const { workspaceId, memberId } = request.params;
      const admin = await requireAdmin(request, workspaceId);
      // Own MFA is turned off only with a valid code (DELETE /api/me/mfa); never by someone acting as staff.
      if (memberId === admin.userId)
        throw badRequest('Use your profile to disable your own two-factor authentication.');
      if (admin.impersonatedBy !== null) throw forbidden();
      await findMember(db, workspaceId, memberId);
      const updated = await db
        .update(users)
        .set({ mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null })
        .where(and(eq(users.id, memberId), isNotNull(users.mfaSecret)))
        .returning({ id: users.id });
      if (updated.length === 0) throw badRequest('Two-factor authentication is not enabled for this member.');
      return { data: await findMember(db, workspaceId, memberId) };
    },
  );
  /**
   * The invitation link (a browser navigation): registers and signs in an invited person who has no
   * account yet; every other case goes to the registration error page with its reason.
   */
  app.get('/invitations/:token', { schema: { params: invitationParamsSchema } }, async (request, reply) => {
    const failed = (reason: RegistrationErrorReason) => reply.redirect(`/registration-error?reason=${reason}`);
    const [invitation] = await db
      .select()
      .from(invitations)
      .where(eq(invitations.tokenHash, sha256(request.params.token)));
    if (!invitation) return failed('token_not_found');
    if (invitation.usedAt) return failed('token_already_used');
    if (invitation.expiresAt.getTime() < Date.now()) return failed('token_expired');
    const outcome = await db.transaction(async (tx) => {
      const used = await tx
        .update(invitations)
        .set({ usedAt: new Date() })
        .where(and(eq(invitations.id, invitation.id), isNull(invitations.usedAt)))
        .returning({ id: invitations.id });
      if (used.length === 0) return 'token_already_used' as const;
      const [user] = await tx.select().from(users).where(eq(users.email, invitation.email));
      // Someone who has signed in before signs in the usual way: the link is only for registering.
      if (!user || user.lastSeenAt || user.signedUpAt || user.googleSubject || user.mfaSecret) {
        return 'account_already_exists' as const;
      }
      await completeSignIn(tx, request, reply, user);
      return null;
    });
    if (outcome) return failed(outcome);
    return reply.redirect(`/workspaces/${invitation.workspaceId}`);
  });
};
