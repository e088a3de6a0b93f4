import { and, asc, desc, eq, gt, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsync } from 'fastify';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import { IMPERSONATION_READ_ONLY } from '../../src/contracts/me';
import {
  ALREADY_MEMBER,
  type Invitation,
  invitationIdParamsSchema,
  invitationParamsSchema,
  inviteBodySchema,
  type Member,
  memberNameBodySchema,
  memberParamsSchema,
  memberRoleBodySchema,
  MFA_OTHER_WORKSPACES,
  type RegistrationErrorReason,
  removeMemberBodySchema,
  STAFF_MFA,
  STAFF_NOT_INVITABLE,
} from '../../src/contracts/members';
import { getSession, requireAdmin, requireMember } from '../auth/access';
import { randomToken, sha256 } from '../auth/crypto';
import { invitations, memberships, reportingSubscriptions, users, workspaces } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { publicOrigin, sendMail } from '../mail/mailer';
import type { Executor } from '../services/db';
import { completeSignIn } from './login';
import { isStaffEmail } from './me';

const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export async function listMembers(db: Executor, workspaceId: number, userId?: number): Promise<Member[]> {
  const rows = await db
    .select({
      id: users.id,
      // The name this workspace's admins gave the member, else the name the person gave themself.
      name: sql<string>`coalesce(${memberships.displayName}, ${users.name})`,
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
    .orderBy(asc(sql`coalesce(${memberships.displayName}, ${users.name})`), asc(users.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    mfaEnabled: row.mfaSecret !== null,
    lastSeen: row.lastSeen?.toISOString() ?? null,
  }));
}

/** Pending invitations of a workspace: what the admin typed and when, nothing read from any account. */
export async function listInvitations(db: Executor, workspaceId: number, invitationId?: number): Promise<Invitation[]> {
  const rows = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .where(
      and(
        eq(invitations.workspaceId, workspaceId),
        isNull(invitations.usedAt),
        invitationId === undefined ? undefined : eq(invitations.id, invitationId),
      ),
    )
    .orderBy(asc(invitations.email), desc(invitations.id));
  const now = Date.now();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    invitedAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt.getTime() < now,
  }));
}

async function findMember(db: Executor, workspaceId: number, memberId: number): Promise<Member> {
  const [member] = await listMembers(db, workspaceId, memberId);
  if (!member) throw notFound();
  return member;
}

/**
 * Members of a workspace: everyone may list them; only admins change them, and never their own role or membership.
 * An invitation stays pending until the invitee accepts it, and an admin's power over a member ends at the
 * workspace: the admin names the membership, not the account, and removes two-factor sign-in only from accounts
 * that belong to no workspace the admin does not administer.
 */
export const memberRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.get('/workspaces/:workspaceId/members', { schema: { params: workspaceIdParamsSchema } }, async (request) => {
    const { workspaceId } = request.params;
    await requireMember(request, workspaceId);
    return { data: await listMembers(db, workspaceId), invitations: await listInvitations(db, workspaceId) };
  });

  app.post(
    '/workspaces/:workspaceId/members',
    { schema: { params: workspaceIdParamsSchema, body: inviteBodySchema } },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const admin = await requireAdmin(request, workspaceId);
      const { email, role } = request.body;
      if (isStaffEmail(email, app.config.STAFF_EMAIL_DOMAIN)) throw badRequest(STAFF_NOT_INVITABLE);
      const invitation = await db.transaction(async (tx) => {
        // Locks the workspace row, so two invitations of one address at once leave one pending, not two.
        const [workspace] = await tx
          .select({ name: workspaces.name })
          .from(workspaces)
          .where(eq(workspaces.id, workspaceId))
          .for('update');
        const [member] = await tx
          .select({ userId: memberships.userId })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(and(eq(memberships.workspaceId, workspaceId), eq(users.email, email)));
        if (member) throw conflict(ALREADY_MEMBER);
        // Inviting again sends a new link; the earlier one stops working, so one address is listed once.
        await tx
          .delete(invitations)
          .where(
            and(eq(invitations.workspaceId, workspaceId), eq(invitations.email, email), isNull(invitations.usedAt)),
          );
        const [inviter] = await tx.select({ name: users.name }).from(users).where(eq(users.id, admin.userId));
        const token = randomToken(32);
        const [created] = await tx
          .insert(invitations)
          .values({
            tokenHash: sha256(token),
            workspaceId,
            email,
            role,
            invitedBy: admin.userId,
            expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
          })
          .returning({ id: invitations.id });
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
              `If you already use Openrate, sign in with ${email} first, then open the link.\n`,
            link,
          },
          request.log,
        );
        const [listed] = await listInvitations(tx, workspaceId, created.id);
        return listed;
      });
      return reply.code(201).send({ data: invitation });
    },
  );

  app.delete(
    '/workspaces/:workspaceId/invitations/:invitationId',
    { schema: { params: invitationIdParamsSchema } },
    async (request) => {
      const { workspaceId, invitationId } = request.params;
      await requireAdmin(request, workspaceId);
      const deleted = await db
        .delete(invitations)
        .where(
          and(eq(invitations.id, invitationId), eq(invitations.workspaceId, workspaceId), isNull(invitations.usedAt)),
        )
        .returning({ id: invitations.id });
      if (deleted.length === 0) throw notFound();
      return { ok: true as const };
    },
  );

  // The account's own name belongs to its holder (and shows in every workspace): an admin names the membership.
  app.put(
    '/workspaces/:workspaceId/members/:memberId/name',
    { schema: { params: memberParamsSchema, body: memberNameBodySchema } },
    async (request) => {
      const { workspaceId, memberId } = request.params;
      await requireAdmin(request, workspaceId);
      const renamed = await db
        .update(memberships)
        .set({ displayName: request.body.name })
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, memberId)))
        .returning({ userId: memberships.userId });
      if (renamed.length === 0) throw notFound();
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
      if (admin.impersonatedBy !== null) throw forbidden(IMPERSONATION_READ_ONLY);
      const member = await findMember(db, workspaceId, memberId);
      if (isStaffEmail(member.email, app.config.STAFF_EMAIL_DOMAIN)) throw forbidden(STAFF_MFA);
      // Two-factor sign-in protects the whole account: one statement checks that every workspace the member
      // belongs to is administered by the caller, so a membership added meanwhile cannot slip between check and write.
      const theirs = alias(memberships, 'theirs');
      const mine = alias(memberships, 'mine');
      const outsideCallersAdministration = db
        .select({ one: sql`1` })
        .from(theirs)
        .where(
          and(
            eq(theirs.userId, users.id),
            notExists(
              db
                .select({ one: sql`1` })
                .from(mine)
                .where(
                  and(eq(mine.workspaceId, theirs.workspaceId), eq(mine.userId, admin.userId), eq(mine.role, 'admin')),
                ),
            ),
          ),
        );
      const updated = await db
        .update(users)
        .set({ mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null })
        .where(and(eq(users.id, memberId), isNotNull(users.mfaSecret), notExists(outsideCallersAdministration)))
        .returning({ id: users.id });
      if (updated.length === 0) {
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
    const [invitation] = await db
      .select()
      .from(invitations)
      .where(eq(invitations.tokenHash, sha256(request.params.token)));
    if (!invitation) return failed('token_not_found');
    if (invitation.usedAt) return failed('token_already_used');
    if (invitation.expiresAt.getTime() < Date.now()) return failed('token_expired');
    // Invitations of staff addresses are refused when made; one left from before that never admits staff either.
    if (isStaffEmail(invitation.email, app.config.STAFF_EMAIL_DOMAIN)) return failed('token_not_found');
    const session = await getSession(request);
    const outcome = await db.transaction(async (tx) => {
      const [existing] = await tx.select().from(users).where(eq(users.email, invitation.email));
      const accountInUse =
        existing && (existing.lastSeenAt || existing.signedUpAt || existing.googleSubject || existing.mfaSecret);
      const signedInAsInvitee =
        existing !== undefined &&
        session !== null &&
        !session.mfaPending &&
        session.impersonatedBy === null &&
        session.userId === existing.id;
      // Not used yet, so the invitee can sign in and open the same link again.
      if (accountInUse && !signedInAsInvitee) return 'sign_in_to_accept' as const;
      const used = await tx
        .update(invitations)
        .set({ usedAt: new Date() })
        .where(
          and(eq(invitations.id, invitation.id), isNull(invitations.usedAt), gt(invitations.expiresAt, new Date())),
        )
        .returning({ id: invitations.id });
      if (used.length === 0) return 'token_already_used' as const;
      await tx.insert(users).values({ email: invitation.email, name: invitation.email }).onConflictDoNothing();
      const [user] = await tx.select().from(users).where(eq(users.email, invitation.email));
      await tx
        .insert(memberships)
        .values({ workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role })
        .onConflictDoNothing();
      if (!signedInAsInvitee) await completeSignIn(tx, request, reply, user);
      return null;
    });
    if (outcome) return failed(outcome);
    return reply.redirect(`/workspaces/${invitation.workspaceId}`);
  });
};
