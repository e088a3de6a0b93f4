import { and, asc, count, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Workspace, WorkspaceSummary } from '../../src/contracts/workspaces';
import { licenses, memberships, workspaceFlags, workspaces } from '../db/schema';
import type { Executor } from './db';

const workspaceColumns = {
  id: workspaces.id,
  name: workspaces.name,
  status: workspaces.status,
  locale: workspaces.locale,
  logo: workspaces.logo,
  licenseId: workspaces.licenseId,
  licenseType: licenses.type,
  licenseHolder: licenses.holderName,
  activationRequestedAt: workspaces.activationRequestedAt,
  createdAt: workspaces.createdAt,
};

/** Every workspace the user belongs to, with their role and the workspace's flags, sorted by display name. */
export async function listUserWorkspaces(db: Executor, userId: number, workspaceId?: number): Promise<Workspace[]> {
  const rows = await db
    .select({ ...workspaceColumns, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .leftJoin(licenses, eq(licenses.id, workspaces.licenseId))
    .where(
      workspaceId === undefined
        ? eq(memberships.userId, userId)
        : and(eq(memberships.userId, userId), eq(memberships.workspaceId, workspaceId)),
    )
    .orderBy(asc(workspaces.name), asc(workspaces.id));
  const ids = rows.map((row) => row.id);
  const flags = ids.length
    ? await db
        .select()
        .from(workspaceFlags)
        .where(inArray(workspaceFlags.workspaceId, ids))
        .orderBy(asc(workspaceFlags.flag))
    : [];
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    displayName: row.name,
    status: row.status,
    role: row.role,
    agency: row.licenseType === 'agency',
    licenseId: row.licenseId,
    licenseType: row.licenseType,
    licenseHolder: row.licenseHolder,
    logo: row.logo,
    locale: row.locale,
    createdAt: row.createdAt.toISOString(),
    features: flags.filter((flag) => flag.workspaceId === row.id).map((flag) => flag.flag),
    activationRequested: row.activationRequestedAt !== null,
  }));
}

export async function getUserWorkspace(db: Executor, userId: number, workspaceId: number): Promise<Workspace | null> {
  const [workspace] = await listUserWorkspaces(db, userId, workspaceId);
  return workspace ?? null;
}

/** Workspaces for the agency page (one licence) or the staff listing (all), whoever their members are. */
export async function listWorkspaceSummaries(db: Executor, licenseId?: number): Promise<WorkspaceSummary[]> {
  const memberCounts = db
    .select({ workspaceId: memberships.workspaceId, members: count().as('members') })
    .from(memberships)
    .groupBy(memberships.workspaceId)
    .as('member_counts');
  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      status: workspaces.status,
      locale: workspaces.locale,
      licenseId: workspaces.licenseId,
      licenseHolder: licenses.holderName,
      createdAt: workspaces.createdAt,
      members: memberCounts.members,
    })
    .from(workspaces)
    .leftJoin(licenses, eq(licenses.id, workspaces.licenseId))
    .leftJoin(memberCounts, eq(memberCounts.workspaceId, workspaces.id))
    .where(licenseId === undefined ? isNotNull(workspaces.id) : eq(workspaces.licenseId, licenseId))
    .orderBy(asc(workspaces.name), asc(workspaces.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    status: row.status,
    locale: row.locale,
    licenseId: row.licenseId,
    licenseHolder: row.licenseHolder,
    createdAt: row.createdAt.toISOString(),
    memberCount: Number(row.members ?? 0),
  }));
}
