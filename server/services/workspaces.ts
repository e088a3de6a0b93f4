import { and, asc, count, eq, inArray, ne } from 'drizzle-orm';
import type { Workspace, WorkspaceSettingsBody, WorkspaceSummary } from '../../src/contracts/workspaces';
import { randomToken } from '../auth/crypto';
import type { Database } from '../db/client';
import { licenses, memberships, users, workspaceAssets, workspaceFlags, workspaces } from '../db/schema';
import { eqWhenGiven, type Executor, type Transaction } from './db';
import { checkUploadsPerDay, checkWorkspacesPerDay } from './limits';
import { createReport, DEFAULT_DASHBOARD_TITLE, defaultDashboardConfig, setPermission } from './reports';

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
    .where(and(eq(memberships.userId, userId), eqWhenGiven(memberships.workspaceId, workspaceId)))
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
    .where(eqWhenGiven(workspaces.licenseId, licenseId))
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

/** Whether the user is an admin of a workspace on that agency licence: only they may add workspaces to it. */
export async function isAgencyAdmin(db: Executor, userId: number, licenseId: number): Promise<boolean> {
  const [allowed] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .innerJoin(licenses, eq(licenses.id, workspaces.licenseId))
    .innerJoin(memberships, eq(memberships.workspaceId, workspaces.id))
    .where(
      and(
        eq(workspaces.licenseId, licenseId),
        eq(licenses.type, 'agency'),
        eq(memberships.userId, userId),
        eq(memberships.role, 'admin'),
      ),
    )
    .limit(1);
  return allowed !== undefined;
}

/** A new workspace with its creator as admin, within the creator's daily bound. */
export async function createWorkspace(
  tx: Transaction,
  userId: number,
  name: string,
  licenseId: number | null,
  perDay: number,
): Promise<number> {
  await checkWorkspacesPerDay(tx, userId, perDay);
  const [created] = await tx
    .insert(workspaces)
    .values({ name, status: 'new', licenseId, createdBy: userId })
    .returning({ id: workspaces.id });
  await tx.insert(memberships).values({ workspaceId: created.id, userId, role: 'admin' });
  // Every workspace starts with a dashboard its members share (spec 2: 'Default Dashboard').
  const dashboard = await createReport(tx, {
    workspaceId: created.id,
    type: 'dashboard',
    title: DEFAULT_DASHBOARD_TITLE,
    config: defaultDashboardConfig(),
    userId,
  });
  await setPermission(tx, dashboard, 'workspace', null, 'read_write');
  return created.id;
}

/** One of the workspace's uploaded files; another workspace's is not found. */
/** What a public report's page shows of its workspace: name, status and locale, nothing about members. */
export async function findPublicWorkspace(db: Executor, workspaceId: number) {
  const [workspace] = await db
    .select({ id: workspaces.id, name: workspaces.name, status: workspaces.status, locale: workspaces.locale })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return workspace ? { ...workspace, displayName: workspace.name } : null;
}

export async function findWorkspaceAsset(db: Executor, workspaceId: number, assetId: string) {
  const [asset] = await db
    .select()
    .from(workspaceAssets)
    .where(and(eq(workspaceAssets.id, assetId), eq(workspaceAssets.workspaceId, workspaceId)));
  return asset ?? null;
}

export async function updateWorkspaceSettings(
  db: Executor,
  workspaceId: number,
  { name, locale, logo }: WorkspaceSettingsBody,
): Promise<void> {
  await db
    .update(workspaces)
    .set({ name, locale, ...(logo !== undefined ? { logo } : {}) })
    .where(eq(workspaces.id, workspaceId));
}

/** Stores a normalised logo under an unguessable id, within the workspace's daily bound on uploads. */
export async function storeLogo(db: Database, workspaceId: number, png: Buffer, perDay: number): Promise<string> {
  const id = `${randomToken(18)}.png`;
  await db.transaction(async (tx) => {
    await checkUploadsPerDay(tx, workspaceId, perDay);
    await tx.insert(workspaceAssets).values({ id, workspaceId, contentType: 'image/png', data: png });
  });
  return id;
}

/**
 * Deletes the workspace; answers another workspace of the same licence the user belongs to (first by name),
 * where the app goes next, or null.
 */
export async function deleteWorkspace(db: Database, workspace: Workspace, userId: number): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.delete(workspaces).where(eq(workspaces.id, workspace.id));
    if (workspace.licenseId === null) return null;
    const [sibling] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .innerJoin(memberships, eq(memberships.workspaceId, workspaces.id))
      .where(
        and(
          eq(workspaces.licenseId, workspace.licenseId),
          eq(memberships.userId, userId),
          ne(workspaces.id, workspace.id),
        ),
      )
      .orderBy(asc(workspaces.name))
      .limit(1);
    return sibling?.id ?? null;
  });
}

/** Marks the demo activation as requested; `notify` tells support in the same transaction. */
export async function requestActivation(
  db: Database,
  userId: number,
  workspaceId: number,
  notify: (tx: Executor, user: { email: string; name: string }) => Promise<void>,
): Promise<void> {
  const [user] = await db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  await db.transaction(async (tx) => {
    await tx.update(workspaces).set({ activationRequestedAt: new Date() }).where(eq(workspaces.id, workspaceId));
    await notify(tx, user);
  });
}
