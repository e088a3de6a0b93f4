import { type Member } from '../../contracts/members';

/** Members whose name or e-mail contains the search text, case-insensitively. */
export function filterMembers(members: readonly Member[], query: string): Member[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...members];
  return members.filter(
    (member) => member.name.toLowerCase().includes(needle) || member.email.toLowerCase().includes(needle),
  );
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
