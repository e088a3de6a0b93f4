import { type Member } from '../../contracts/members';
import {
  type AccessLevel,
  EVERYONE_IN_WORKSPACE,
  type Permission,
  type PermissionBody,
  reportTypeSchema,
  type ReportType,
  type ShareLevel,
  type SubjectType,
} from '../../contracts/reports';

export const DRAWER_TITLE = 'Sharing';
export const NO_PERMISSION_MESSAGE = "It looks like you don't have the necessary permissions";
export const NO_ONE_LEFT_MESSAGE = 'There are no other people in this workspace to share this view with.';
export const YOU_SUFFIX = ' (You)';

export interface LevelChoice {
  level: AccessLevel;
  label: string;
  description: string;
}

/** The levels an entry can be given, highest first, with the spec's labels (spec 2 §6 Access levels). */
export const LEVEL_CHOICES: readonly LevelChoice[] = [
  { level: 'full_access', label: 'Full access', description: 'Can make changes and share' },
  { level: 'read_write', label: 'Can edit', description: 'Can make changes, but not share' },
  { level: 'read', label: 'Can view', description: 'Cannot edit or share' },
];

/** Taking a member off the list sets none, which deletes the entry (spec 2 §4 Sharing). */
const REMOVE_CHOICE: LevelChoice = { level: 'none', label: 'Remove', description: 'Take away their access' };
/** The workspace entry is always listed; none means the workspace as a whole has no access. */
const NO_ACCESS_CHOICE: LevelChoice = { level: 'none', label: 'No access', description: 'Only the people listed' };

/** The label of a level as the pickers show it. */
export function levelLabel(level: AccessLevel): string {
  return LEVEL_CHOICES.find((choice) => choice.level === level)?.label ?? NO_ACCESS_CHOICE.label;
}

export const SHARE_LEVEL_DESCRIPTIONS: Record<ShareLevel, string> = {
  public: 'Anyone on the internet with the link can access this report',
  workspace: 'Anyone within this workspace can access this report',
  user: 'Only selected people can access this report',
  private: 'Only you can access this report',
};

/** How far a report is shared, from its entries (the same rule the server applies to share_level). */
export function shareLevelOf(permissions: readonly Permission[]): ShareLevel {
  const open = permissions.filter((entry) => entry.accessLevel !== 'none');
  if (open.some((entry) => entry.subjectType === 'public')) return 'public';
  if (open.some((entry) => entry.subjectType === 'workspace')) return 'workspace';
  return open.filter((entry) => entry.subjectType === 'user').length > 1 ? 'user' : 'private';
}

/** One row of the drawer's list: a member, or everyone in the workspace. */
export interface ShareEntry {
  key: string;
  subjectType: Exclude<SubjectType, 'public'>;
  subjectId: number | null;
  /** The stored entry; null for the workspace row while the workspace has no access. */
  permission: Permission | null;
  name: string;
  level: AccessLevel;
  isYou: boolean;
  /** The viewer may change this row: they can share, and it is not their own level. */
  editable: boolean;
}

/**
 * The rows of the list (spec 2 §6): the current user first with '(You)', the other members by name, and
 * 'Everyone in the workspace' last, listed even without an entry so it can be granted. The public link is
 * not a row: it has its own toggle.
 */
export function shareEntries(
  permissions: readonly Permission[],
  currentUserId: number,
  canShare: boolean,
): ShareEntry[] {
  const users = permissions
    .filter((entry) => entry.subjectType === 'user')
    .map((entry): ShareEntry => ({
      key: `user/${entry.subjectId}`,
      subjectType: 'user',
      subjectId: entry.subjectId,
      permission: entry,
      name: entry.subjectId === currentUserId ? `${entry.subjectName}${YOU_SUFFIX}` : entry.subjectName,
      level: entry.accessLevel,
      isYou: entry.subjectId === currentUserId,
      editable: canShare && entry.subjectId !== currentUserId,
    }))
    .sort((a, b) => Number(b.isYou) - Number(a.isYou) || a.name.localeCompare(b.name));
  const workspaceEntry = permissions.find((entry) => entry.subjectType === 'workspace') ?? null;
  return [
    ...users,
    {
      key: 'workspace',
      subjectType: 'workspace',
      subjectId: null,
      permission: workspaceEntry,
      name: EVERYONE_IN_WORKSPACE,
      level: workspaceEntry?.accessLevel ?? 'none',
      isYou: false,
      editable: canShare,
    },
  ];
}

/** What a row's picker offers: the three levels, then removing the member or closing the workspace off. */
export function levelChoicesFor(entry: ShareEntry): LevelChoice[] {
  return [...LEVEL_CHOICES, entry.subjectType === 'user' ? REMOVE_CHOICE : NO_ACCESS_CHOICE];
}

/** The workspace members not yet on the list, by name; never the viewer, whose own level cannot change. */
export function peopleToShareWith(
  members: readonly Member[],
  permissions: readonly Permission[],
  currentUserId: number,
): Member[] {
  const listed = new Set(permissions.filter((entry) => entry.subjectType === 'user').map((entry) => entry.subjectId));
  return members
    .filter((member) => member.id !== currentUserId && !listed.has(member.id))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** The members whose name or e-mail contains the search text (case-insensitive). */
export function matchingPeople(people: readonly Member[], search: string): Member[] {
  const needle = search.trim().toLowerCase();
  if (needle === '') return [...people];
  return people.filter(
    (member) => member.name.toLowerCase().includes(needle) || member.email.toLowerCase().includes(needle),
  );
}

/** Spec 2 §5: Share is disabled while nobody is chosen (and while a share is on its way). */
export function shareDisabled(chosen: readonly number[], busy: boolean): boolean {
  return chosen.length === 0 || busy;
}

export interface ReportObject {
  type: ReportType;
  id: number;
}

/** The report the drawer's URL parameters name (drawer.objectType, drawer.objectId), or null when invalid. */
export function shareTargetOf(objectType: string | null, objectId: string | null): ReportObject | null {
  const type = reportTypeSchema.safeParse(objectType);
  if (!type.success || objectId === null || !/^[1-9][0-9]{0,9}$/.test(objectId)) return null;
  const id = Number(objectId);
  return id <= 2_147_483_647 ? { type: type.data, id } : null;
}

/**
 * The change that gives `entry` the level `level`, or null when there is nothing to do (the same level, or
 * no access for a workspace that has none).
 */
export function entryChange(
  entry: ShareEntry,
  level: AccessLevel,
  report: ReportObject,
): { permissionId?: number; body: PermissionBody } | null {
  if (level === entry.level) return null;
  if (level === 'none' && entry.permission === null) return null;
  return {
    permissionId: entry.permission?.id,
    body: {
      accessLevel: level,
      subjectType: entry.subjectType,
      subjectId: entry.subjectId,
      objectId: report.id,
      objectType: report.type,
    },
  };
}

/** The change that gives a member not yet listed the level chosen in the people picker. */
export function memberGrant(memberId: number, level: AccessLevel, report: ReportObject): { body: PermissionBody } {
  return {
    body: {
      accessLevel: level,
      subjectType: 'user',
      subjectId: memberId,
      objectId: report.id,
      objectType: report.type,
    },
  };
}

export const publicLinkEntry = (permissions: readonly Permission[]): Permission | null =>
  permissions.find((entry) => entry.subjectType === 'public' && entry.accessLevel !== 'none') ?? null;

/** Switching the public link on grants read; off sets none, which deletes the entry (spec 2 §4 Sharing). */
export function publicLinkChange(
  permissions: readonly Permission[],
  on: boolean,
  report: ReportObject,
): { permissionId?: number; body: PermissionBody } | null {
  const current = publicLinkEntry(permissions);
  if (on === (current !== null)) return null;
  return {
    permissionId: current?.id,
    body: {
      accessLevel: on ? 'read' : 'none',
      subjectType: 'public',
      subjectId: null,
      objectId: report.id,
      objectType: report.type,
    },
  };
}

/** The address of the public, signed-out page of a report. */
export const publicLinkUrl = (origin: string, reportId: number): string => `${origin}/reports/${reportId}`;
