import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type AccessLevel,
  accessLevels,
  datasetsOfConfig,
  DEFAULT_EXPLORER_DATASET,
  EVERYONE_IN_WORKSPACE,
  type Permission,
  type Report,
  type ReportSummary,
  type ReportConfig,
  type ReportType,
  type ShareLevel,
  type SubjectType,
} from '../../src/contracts/reports';
import { memberships, reportOpens, reportPermissions, reports, users } from '../db/schema';
import { eqWhenGiven, type Executor } from './db';

const owner = alias(users, 'owner');
const creator = alias(users, 'creator');
const modifier = alias(users, 'modifier');

const ref = (id: number | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });

const highest = (levels: AccessLevel[]): AccessLevel =>
  levels.reduce<AccessLevel>(
    (best, level) => (accessLevels.indexOf(level) > accessLevels.indexOf(best) ? level : best),
    'none',
  );

interface EntryRow {
  reportId: number;
  subjectType: SubjectType;
  userId: number | null;
  accessLevel: AccessLevel;
}

/** A member's level: the higher of their own entry and the workspace-wide one. The public link grants members nothing. */
function accessFrom(entries: EntryRow[], userId: number): AccessLevel {
  return highest(
    entries
      .filter((entry) => entry.subjectType === 'workspace' || (entry.subjectType === 'user' && entry.userId === userId))
      .map((entry) => entry.accessLevel),
  );
}

function shareFrom(entries: EntryRow[]): ShareLevel {
  const open = entries.filter((entry) => entry.accessLevel !== 'none');
  if (open.some((entry) => entry.subjectType === 'public')) return 'public';
  if (open.some((entry) => entry.subjectType === 'workspace')) return 'workspace';
  return open.filter((entry) => entry.subjectType === 'user').length > 1 ? 'user' : 'private';
}

async function entriesOf(db: Executor, reportIds: number[]): Promise<EntryRow[]> {
  if (reportIds.length === 0) return [];
  return db
    .select({
      reportId: reportPermissions.reportId,
      subjectType: reportPermissions.subjectType,
      userId: reportPermissions.userId,
      accessLevel: reportPermissions.accessLevel,
    })
    .from(reportPermissions)
    .where(inArray(reportPermissions.reportId, reportIds));
}

/** What a report is, as the private list and the public page both read it. */
const documentColumns = {
  id: reports.id,
  workspaceId: reports.workspaceId,
  type: reports.type,
  title: reports.title,
  config: reports.config,
  version: reports.version,
};

/**
 * Reports of a workspace as `userId` sees them, with their access and share levels. Reports the user has no
 * access to are left out. `reportId` narrows the answer to one report (still within the workspace).
 */
export async function loadReports(
  db: Executor,
  workspaceId: number,
  userId: number,
  reportId?: number,
): Promise<Report[]> {
  const rows = await db
    .select({
      ...documentColumns,
      ownerId: reports.ownerId,
      ownerName: owner.name,
      createdAt: reports.createdAt,
      createdBy: reports.createdBy,
      createdByName: creator.name,
      modifiedAt: reports.modifiedAt,
      modifiedBy: reports.modifiedBy,
      modifiedByName: modifier.name,
      lastOpenedAt: reportOpens.openedAt,
    })
    .from(reports)
    .leftJoin(owner, eq(owner.id, reports.ownerId))
    .leftJoin(creator, eq(creator.id, reports.createdBy))
    .leftJoin(modifier, eq(modifier.id, reports.modifiedBy))
    .leftJoin(reportOpens, and(eq(reportOpens.reportId, reports.id), eq(reportOpens.userId, userId)))
    .where(and(eq(reports.workspaceId, workspaceId), eqWhenGiven(reports.id, reportId)))
    .orderBy(desc(reports.modifiedAt), desc(reports.id));
  const entries = await entriesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.flatMap((row): Report[] => {
    const own = entries.filter((entry) => entry.reportId === row.id);
    const accessLevel = accessFrom(own, userId);
    if (accessLevel === 'none') return [];
    return [
      {
        id: row.id,
        workspace_id: row.workspaceId,
        type: row.type,
        title: row.title,
        dataset: datasetsOfConfig(row.type, row.config)[0] ?? null,
        config: row.config,
        version: row.version,
        owner: ref(row.ownerId, row.ownerName),
        created_at: row.createdAt.toISOString(),
        created_by: ref(row.createdBy, row.createdByName),
        modified_at: row.modifiedAt.toISOString(),
        modified_by: ref(row.modifiedBy, row.modifiedByName),
        last_opened_at: row.lastOpenedAt?.toISOString() ?? null,
        access_level: accessLevel,
        share_level: shareFrom(own),
      },
    ];
  });
}

export async function listReports(db: Executor, workspaceId: number, userId: number): Promise<ReportSummary[]> {
  const all = await loadReports(db, workspaceId, userId);
  return all.map(({ config: _config, ...summary }) => summary);
}

/** Creates a report with its creator holding full access (spec 2 §3). */
export async function createReport(
  db: Executor,
  values: { workspaceId: number; type: ReportType; title: string; config: ReportConfig; userId: number },
): Promise<number> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(reports)
      .values({
        workspaceId: values.workspaceId,
        type: values.type,
        title: values.title,
        config: values.config,
        ownerId: values.userId,
        createdBy: values.userId,
        modifiedBy: values.userId,
      })
      .returning({ id: reports.id });
    await tx
      .insert(reportPermissions)
      .values({ reportId: created.id, subjectType: 'user', userId: values.userId, accessLevel: 'full_access' });
    return created.id;
  });
}

/** What a workspace's first dashboard holds ('Default Dashboard', spec 2): the KPI overview, sends over time, a note. */
export const DEFAULT_DASHBOARD_TITLE = 'Default Dashboard';
export const defaultDashboardConfig = (title: string = DEFAULT_DASHBOARD_TITLE): ReportConfig => ({
  title,
  widgets: [
    {
      id: 'kpis',
      type: 'campaign_performance',
      dataset: DEFAULT_EXPLORER_DATASET,
      title: 'KPI overview',
      metrics: ['sent_unique', 'sent', 'open_rate', 'click_to_open_rate', 'cto_unique', 'sessions', 'revenue'],
      visualizationSettings: { display: { type: 'tab' } },
      layout: { x: 0, y: 0, w: 24, h: 17 },
    },
    {
      id: 'sends',
      type: 'graph',
      dataset: DEFAULT_EXPLORER_DATASET,
      title: 'Sent over time',
      metrics: ['sent'],
      visualizationSettings: { chart: { chartType: 'line', granularity: 'auto' } },
      layout: { x: 0, y: 17, w: 12, h: 26 },
    },
    {
      id: 'note',
      type: 'rich_text',
      content: '<h2>Weekly review</h2><p>Numbers from the last 30 days.</p>',
      layout: { x: 12, y: 17, w: 12, h: 4 },
    },
  ],
});

/**
 * Writes a save only if the report is still at `baseVersion`, in one statement so two saves of the same
 * version cannot both pass the check. Answers the new version, or null when the save was stale.
 */
export async function saveReport(
  db: Executor,
  values: {
    workspaceId: number;
    reportId: number;
    baseVersion: number;
    title?: string;
    config: ReportConfig;
    userId: number;
  },
): Promise<number | null> {
  const [saved] = await db
    .update(reports)
    .set({
      config: values.config,
      ...(values.title === undefined ? {} : { title: values.title }),
      version: sql`${reports.version} + 1`,
      modifiedBy: values.userId,
      modifiedAt: sql`now()`,
    })
    .where(
      and(
        eq(reports.id, values.reportId),
        eq(reports.workspaceId, values.workspaceId),
        eq(reports.version, values.baseVersion),
      ),
    )
    .returning({ version: reports.version });
  return saved?.version ?? null;
}

/** The version on the server and who saved it, for a 409 answer. */
export async function currentVersion(
  db: Executor,
  reportId: number,
): Promise<{ version: number; modifiedBy: { id: number; name: string } | null }> {
  const [row] = await db
    .select({ version: reports.version, id: reports.modifiedBy, name: users.name })
    .from(reports)
    .leftJoin(users, eq(users.id, reports.modifiedBy))
    .where(eq(reports.id, reportId));
  return { version: row?.version ?? 0, modifiedBy: ref(row?.id ?? null, row?.name ?? null) };
}

/** A rename is a save of the title (in the column and the config): it makes older local copies stale. */
export async function renameReport(db: Executor, reportId: number, title: string, userId: number): Promise<void> {
  await db
    .update(reports)
    .set({
      title,
      config: sql`jsonb_set(${reports.config}, '{title}', to_jsonb(${title}::text))`,
      version: sql`${reports.version} + 1`,
      modifiedBy: userId,
      modifiedAt: sql`now()`,
    })
    .where(eq(reports.id, reportId));
}

export async function deleteReport(db: Executor, reportId: number): Promise<void> {
  await db.delete(reports).where(eq(reports.id, reportId));
}

export async function markOpened(db: Executor, reportId: number, userId: number): Promise<void> {
  await db
    .insert(reportOpens)
    .values({ reportId, userId })
    .onConflictDoUpdate({ target: [reportOpens.reportId, reportOpens.userId], set: { openedAt: sql`now()` } });
}

/** The access entries of a report, the current user first and the workspace entry last (spec 2 §6). */
export async function listPermissions(db: Executor, report: Report, userId: number): Promise<Permission[]> {
  const rows = await db
    .select({
      id: reportPermissions.id,
      subjectType: reportPermissions.subjectType,
      userId: reportPermissions.userId,
      userName: users.name,
      accessLevel: reportPermissions.accessLevel,
      createdAt: reportPermissions.createdAt,
      modifiedAt: reportPermissions.modifiedAt,
    })
    .from(reportPermissions)
    .leftJoin(users, eq(users.id, reportPermissions.userId))
    .where(eq(reportPermissions.reportId, report.id))
    .orderBy(asc(users.name), asc(reportPermissions.id));
  const rank = (row: (typeof rows)[number]) =>
    row.subjectType === 'user' ? (row.userId === userId ? 0 : 1) : row.subjectType === 'public' ? 2 : 3;
  return rows
    .sort((a, b) => rank(a) - rank(b))
    .map((row) => ({
      id: row.id,
      subjectId: row.userId,
      subjectType: row.subjectType,
      subjectName:
        row.subjectType === 'workspace'
          ? EVERYONE_IN_WORKSPACE
          : row.subjectType === 'public'
            ? 'Public link'
            : (row.userName ?? ''),
      objectId: report.id,
      objectType: report.type,
      accessLevel: row.accessLevel,
      createdAt: row.createdAt.toISOString(),
      modifiedAt: row.modifiedAt.toISOString(),
    }));
}

export async function findPermission(
  db: Executor,
  permissionId: number,
): Promise<{ id: number; reportId: number; subjectType: SubjectType; userId: number | null } | null> {
  const [row] = await db
    .select({
      id: reportPermissions.id,
      reportId: reportPermissions.reportId,
      subjectType: reportPermissions.subjectType,
      userId: reportPermissions.userId,
    })
    .from(reportPermissions)
    .where(eq(reportPermissions.id, permissionId));
  return row ?? null;
}

export async function isMember(db: Executor, workspaceId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
  return row !== undefined;
}

/** Sets one entry of a report; `none` deletes it (spec 2 §4 Sharing). */
export async function setPermission(
  db: Executor,
  reportId: number,
  subjectType: SubjectType,
  userId: number | null,
  accessLevel: AccessLevel,
): Promise<void> {
  const subject = and(
    eq(reportPermissions.reportId, reportId),
    eq(reportPermissions.subjectType, subjectType),
    userId === null ? isNull(reportPermissions.userId) : eq(reportPermissions.userId, userId),
  );
  if (accessLevel === 'none') {
    await db.delete(reportPermissions).where(subject);
    return;
  }
  await db
    .insert(reportPermissions)
    .values({ reportId, subjectType, userId, accessLevel })
    .onConflictDoUpdate({
      target: [reportPermissions.reportId, reportPermissions.subjectType, reportPermissions.userId],
      set: { accessLevel, modifiedAt: sql`now()` },
    });
}

export interface PublicReport {
  id: number;
  workspaceId: number;
  type: ReportType;
  title: string;
  config: ReportConfig;
  version: number;
  modifiedAt: string;
  /** The only datasets the public link may serve. */
  datasets: string[];
}

/**
 * A report while its public link is on, else null. Takes the raw path segment so that anything that is not a
 * report id gets the same answer as a report that is not public.
 */
export async function findPublicReport(db: Executor, rawReportId: string): Promise<PublicReport | null> {
  if (!/^[1-9][0-9]{0,9}$/.test(rawReportId) || Number(rawReportId) > 2_147_483_647) return null;
  const [row] = await db
    .select({
      ...documentColumns,
      modifiedAt: reports.modifiedAt,
    })
    .from(reports)
    .innerJoin(
      reportPermissions,
      and(
        eq(reportPermissions.reportId, reports.id),
        eq(reportPermissions.subjectType, 'public'),
        eq(reportPermissions.accessLevel, 'read'),
      ),
    )
    .where(eq(reports.id, Number(rawReportId)));
  if (!row) return null;
  return { ...row, modifiedAt: row.modifiedAt.toISOString(), datasets: datasetsOfConfig(row.type, row.config) };
}
