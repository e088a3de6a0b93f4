import { and, asc, desc, eq, gt, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Role } from '../../src/contracts/common';
import { ALREADY_MEMBER, type Invitation, type Member } from '../../src/contracts/members';
import { randomToken, sha256 } from '../auth/crypto';
import type { Database } from '../db/client';
import { invitations, memberships, reportingSubscriptions, users, workspaces } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { eqWhenGiven, type Executor, type Transaction } from './db';

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
    .where(and(eq(memberships.workspaceId, workspaceId), eqWhenGiven(memberships.userId, userId)))
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
        eqWhenGiven(invitations.id, invitationId),
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

export async function findMember(db: Executor, workspaceId: number, memberId: number): Promise<Member> {
  const [member] = await listMembers(db, workspaceId, memberId);
  if (!member) throw notFound();
  return member;
}

/** What the invitation mail needs: the workspace's name, who invites, and the one-time token of the link. */
export interface InvitationMail {
  workspaceName: string;
  inviterName: string;
  token: string;
}

/**
 * Invites an address that is not a member yet; inviting again replaces the pending invitation, so its earlier link
 * stops working. `send` mails the link in the same transaction: no invitation without its mail.
 */
export async function inviteMember(
  db: Database,
  workspaceId: number,
  invitedBy: number,
  { email, role }: { email: string; role: Role },
  send: (tx: Transaction, mail: InvitationMail) => Promise<void>,
): Promise<Invitation> {
  return db.transaction(async (tx) => {
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
    await tx
      .delete(invitations)
      .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.email, email), isNull(invitations.usedAt)));
    const [inviter] = await tx.select({ name: users.name }).from(users).where(eq(users.id, invitedBy));
    const token = randomToken(32);
    const [created] = await tx
      .insert(invitations)
      .values({
        tokenHash: sha256(token),
        workspaceId,
        email,
        role,
        invitedBy,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      })
      .returning({ id: invitations.id });
    await send(tx, { workspaceName: workspace.name, inviterName: inviter.name, token });
    const [listed] = await listInvitations(tx, workspaceId, created.id);
    return listed;
  });
}

export async function withdrawInvitation(db: Executor, workspaceId: number, invitationId: number): Promise<void> {
  const deleted = await db
    .delete(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.workspaceId, workspaceId), isNull(invitations.usedAt)))
    .returning({ id: invitations.id });
  if (deleted.length === 0) throw notFound();
}

/** Names the membership, never the account: the account's own name belongs to its holder. */
export async function renameMember(db: Executor, workspaceId: number, memberId: number, name: string): Promise<Member> {
  const renamed = await db
    .update(memberships)
    .set({ displayName: name })
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, memberId)))
    .returning({ userId: memberships.userId });
  if (renamed.length === 0) throw notFound();
  return findMember(db, workspaceId, memberId);
}

export async function changeMemberRole(
  db: Executor,
  workspaceId: number,
  memberId: number,
  role: Role,
): Promise<Member> {
  await findMember(db, workspaceId, memberId);
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, memberId)));
  return findMember(db, workspaceId, memberId);
}

/** Removes the membership and the member's weekly summary of that workspace together. */
export async function removeMember(db: Database, workspaceId: number, memberId: number): Promise<void> {
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
}

/**
 * Turns off the member's two-factor sign-in when every workspace they belong to is administered by `adminId`;
 * answers whether it did. One statement checks and writes, so a membership added meanwhile cannot slip between.
 */
export async function removeMemberMfa(db: Executor, memberId: number, adminId: number): Promise<boolean> {
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
            .where(and(eq(mine.workspaceId, theirs.workspaceId), eq(mine.userId, adminId), eq(mine.role, 'admin'))),
        ),
      ),
    );
  const updated = await db
    .update(users)
    .set({ mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null })
    .where(and(eq(users.id, memberId), isNotNull(users.mfaSecret), notExists(outsideCallersAdministration)))
    .returning({ id: users.id });
  return updated.length > 0;
}

export async function findInvitationByToken(db: Executor, token: string) {
  const [invitation] = await db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, sha256(token)));
  return invitation ?? null;
}

type InvitationRow = NonNullable<Awaited<ReturnType<typeof findInvitationByToken>>>;
type UserRow = typeof users.$inferSelect;

/**
 * Accepts an invitation: registers the invitee when they have no account yet and adds the membership. An account
 * already in use joins only while `signedInAs` is that account; `signIn` signs a new account in, in the same
 * transaction. Answers why it refused, or null.
 */
export async function acceptInvitation(
  db: Database,
  invitation: InvitationRow,
  signedInAs: number | null,
  signIn: (tx: Transaction, user: UserRow) => Promise<unknown>,
): Promise<'sign_in_to_accept' | 'token_already_used' | null> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(eq(users.email, invitation.email));
    const accountInUse =
      existing && (existing.lastSeenAt || existing.signedUpAt || existing.googleSubject || existing.mfaSecret);
    const signedInAsInvitee = existing !== undefined && signedInAs === existing.id;
    // Not used yet, so the invitee can sign in and open the same link again.
    if (accountInUse && !signedInAsInvitee) return 'sign_in_to_accept' as const;
    const used = await tx
      .update(invitations)
      .set({ usedAt: new Date() })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.usedAt), gt(invitations.expiresAt, new Date())))
      .returning({ id: invitations.id });
    if (used.length === 0) return 'token_already_used' as const;
    await tx.insert(users).values({ email: invitation.email, name: invitation.email }).onConflictDoNothing();
    const [user] = await tx.select().from(users).where(eq(users.email, invitation.email));
    await tx
      .insert(memberships)
      .values({ workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role })
      .onConflictDoNothing();
    if (!signedInAsInvitee) await signIn(tx, user);
    return null;
  });
}
