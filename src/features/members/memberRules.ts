import { type Invitation, type Member } from '../../contracts/members';

/** Members whose name or e-mail contains the search text, case-insensitively. */
export function filterMembers(members: readonly Member[], query: string): Member[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...members];
  return members.filter(
    (member) => member.name.toLowerCase().includes(needle) || member.email.toLowerCase().includes(needle),
  );
}

/** Pending invitations whose address contains the search text: an invitation has no name until accepted. */
export function filterInvitations(invitations: readonly Invitation[], query: string): Invitation[] {
  const needle = query.trim().toLowerCase();
  return invitations.filter((invitation) => !needle || invitation.email.toLowerCase().includes(needle));
}

/** The server's message for refusals a user can act on (4xx other than 401/404), else the spec's generic one. */
export function refusalMessage(status: number | undefined, serverMessage: string | undefined, fallback: string) {
  const actionable = status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 404;
  return actionable && serverMessage ? serverMessage : fallback;
}

/** What an admin may do to a member (spec 1 §6): never change or remove themself; remove MFA only when on. */
export function memberActions(member: Member, { admin, selfId }: { admin: boolean; selfId: number }) {
  const other = member.id !== selfId;
  return {
    rename: admin,
    changeRole: admin && other,
    remove: admin && other,
    removeMfa: admin && other && member.mfaEnabled,
  };
}
