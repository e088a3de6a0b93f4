import { eq, inArray } from 'drizzle-orm';
import {
  type AccessLevel,
  DEFAULT_EXPLORER_DATASET,
  type ReportConfig,
  type ReportType,
  type SubjectType,
} from '../../src/contracts/reports';
import type { Database } from '../db/client';
import { annotations, appMeta, licenses, memberships, reportingSubscriptions, users, workspaces } from '../db/schema';
import { setWorkspaceFlags } from '../services/flags';
import { createReport, defaultDashboardConfig, setPermission } from '../services/reports';

const SEEDED_KEY = 'demo_seeded';

export const DEMO_EMAIL = 'demo@example.com';
export const STAFF_EMAIL = 'staff@openrate.app';

/** Flags of the active demo workspaces: every optional part of the product is visible. */
const ACTIVE_FLAGS = ['list_members', 'engagement', 'campaigns_graph', 'grid_layout'];

type Status = 'new' | 'active' | 'suspended' | 'cancelled';
type Locale = 'en_US' | 'en_GB' | 'nl_NL';

interface DemoWorkspace {
  key: string;
  name: string;
  status: Status;
  locale: Locale;
  license: 'acme' | 'northwind' | 'globex' | 'initech' | 'hooli' | 'brightwave';
  /** e-mail → role */
  members: Record<string, 'admin' | 'member'>;
}

const people = [
  { email: DEMO_EMAIL, name: 'Demo Marketer' },
  { email: STAFF_EMAIL, name: 'Openrate Staff' },
  { email: 'agency@brightwave.example', name: 'Bea Brightwave' },
  { email: 'sanne@acme.example', name: 'Sanne de Vries' },
  { email: 'tom@northwind.example', name: 'Tom Fletcher' },
  { email: 'priya@northwind.example', name: 'Priya Shah' },
];

const licenceRows = {
  acme: { type: 'other', holderName: 'Acme Retail B.V.' },
  northwind: { type: 'other', holderName: 'Northwind Travel Ltd' },
  globex: { type: 'other', holderName: 'Globex Corporation' },
  initech: { type: 'other', holderName: 'Initech' },
  hooli: { type: 'other', holderName: 'Hooli Home B.V.' },
  brightwave: { type: 'agency', holderName: 'Brightwave Agency' },
} as const;

const demoWorkspaces: DemoWorkspace[] = [
  {
    key: 'acme',
    name: 'Acme Retail',
    status: 'active',
    locale: 'nl_NL',
    license: 'acme',
    members: { [DEMO_EMAIL]: 'admin', 'sanne@acme.example': 'member' },
  },
  {
    key: 'northwind',
    name: 'Northwind Travel',
    status: 'active',
    locale: 'en_GB',
    license: 'northwind',
    members: { 'tom@northwind.example': 'admin', [DEMO_EMAIL]: 'member', 'priya@northwind.example': 'member' },
  },
  {
    key: 'globex',
    name: 'Globex Demo',
    status: 'new',
    locale: 'nl_NL',
    license: 'globex',
    members: { [DEMO_EMAIL]: 'admin' },
  },
  {
    key: 'initech',
    name: 'Initech',
    status: 'suspended',
    locale: 'en_US',
    license: 'initech',
    members: { [DEMO_EMAIL]: 'admin' },
  },
  {
    key: 'hooli',
    name: 'Hooli Home',
    status: 'cancelled',
    locale: 'nl_NL',
    license: 'hooli',
    members: { [DEMO_EMAIL]: 'admin' },
  },
  {
    key: 'fjord',
    name: 'Fjord Outdoor',
    status: 'active',
    locale: 'en_GB',
    license: 'brightwave',
    members: { 'agency@brightwave.example': 'admin', [DEMO_EMAIL]: 'admin' },
  },
  {
    key: 'lumen',
    name: 'Lumen Cosmetics',
    status: 'new',
    locale: 'nl_NL',
    license: 'brightwave',
    members: { 'agency@brightwave.example': 'admin', [DEMO_EMAIL]: 'admin' },
  },
];

const isoDay = (daysAgo: number, now: Date) =>
  new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/**
 * Seeds the demo accounts and workspaces of DATA-CATALOGUE "Demo workspaces" once, in one
 * transaction. Returns the demo workspaces' ids every time (so datasets can be generated for them),
 * and whether this call created them.
 * Long because the demo's users, licences, workspaces, memberships, annotations and reports are written in one
 * transaction, each step using the ids the previous one returned.
 */
export async function seedDemo(db: Database, now = new Date()): Promise<{ workspaceIds: number[]; created: boolean }> {
  return db.transaction(async (tx) => {
    // Taking the marker row first makes a second process wait here instead of seeding twice.
    const claimed = await tx
      .insert(appMeta)
      .values({ key: SEEDED_KEY, value: '[]' })
      .onConflictDoNothing()
      .returning({ key: appMeta.key });
    if (claimed.length === 0) {
      const [row] = await tx.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, SEEDED_KEY));
      const ids = JSON.parse(row.value) as number[];
      // In the marker's order: a table scan's order changes once other writes move the rows.
      const rows = ids.length
        ? await tx.select({ id: workspaces.id }).from(workspaces).where(inArray(workspaces.id, ids))
        : [];
      const present = new Set(rows.map((w) => w.id));
      const alive = ids.filter((id) => present.has(id));
      return { workspaceIds: alive, created: false };
    }

    const userIds = new Map<string, number>();
    for (const person of people) {
      await tx.insert(users).values(person).onConflictDoNothing();
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.email, person.email));
      userIds.set(person.email, row.id);
    }
    const licenceIds = new Map<string, number>();
    for (const [key, licence] of Object.entries(licenceRows)) {
      const [row] = await tx.insert(licenses).values(licence).returning({ id: licenses.id });
      licenceIds.set(key, row.id);
    }
    const workspaceIds = new Map<string, number>();
    for (const spec of demoWorkspaces) {
      const [row] = await tx
        .insert(workspaces)
        .values({ name: spec.name, status: spec.status, locale: spec.locale, licenseId: licenceIds.get(spec.license) })
        .returning({ id: workspaces.id });
      workspaceIds.set(spec.key, row.id);
      await tx.insert(memberships).values(
        Object.entries(spec.members).map(([email, role]) => ({
          workspaceId: row.id,
          userId: userIds.get(email)!,
          role,
        })),
      );
      if (spec.status === 'active') await setWorkspaceFlags(tx, row.id, ACTIVE_FLAGS);
    }

    const demoId = userIds.get(DEMO_EMAIL)!;
    const acme = workspaceIds.get('acme')!;
    const northwind = workspaceIds.get('northwind')!;
    await tx.insert(annotations).values([
      {
        workspaceId: acme,
        severity: 'critical',
        message: 'Checkout outage: orders from e-mail traffic dropped',
        dateStart: isoDay(20, now),
        dateEnd: isoDay(19, now),
        createdById: demoId,
      },
      {
        workspaceId: acme,
        severity: 'note',
        message: 'Spring sale newsletter series',
        dateStart: isoDay(45, now),
        dateEnd: isoDay(38, now),
        createdById: userIds.get('sanne@acme.example')!,
      },
      {
        workspaceId: acme,
        severity: 'note',
        message: 'New welcome flow live',
        dateStart: isoDay(8, now),
        dateEnd: isoDay(8, now),
        createdById: demoId,
      },
      {
        workspaceId: northwind,
        severity: 'note',
        message: 'Summer destinations campaign',
        dateStart: isoDay(30, now),
        dateEnd: isoDay(16, now),
        createdById: userIds.get('tom@northwind.example')!,
      },
    ]);
    await tx.insert(reportingSubscriptions).values({ userId: demoId, workspaceId: acme, type: 'weeklySummary' });

    // A few reports, so home, tabs, sharing and the public page have something to show.
    const sanneId = userIds.get('sanne@acme.example')!;
    const tomId = userIds.get('tom@northwind.example')!;
    const demoReports: {
      workspaceId: number;
      userId: number;
      type: ReportType;
      title: string;
      config: ReportConfig;
      shares: { subjectType: SubjectType; userId: number | null; level: AccessLevel }[];
    }[] = [
      {
        workspaceId: acme,
        userId: demoId,
        type: 'dashboard',
        title: 'Default Dashboard',
        config: defaultDashboardConfig('Default Dashboard'),
        shares: [{ subjectType: 'workspace', userId: null, level: 'read_write' }],
      },
      {
        workspaceId: acme,
        userId: demoId,
        type: 'dashboard',
        title: 'Newsletter results',
        config: defaultDashboardConfig('Newsletter results'),
        shares: [
          { subjectType: 'workspace', userId: null, level: 'read' },
          { subjectType: 'public', userId: null, level: 'read' },
        ],
      },
      {
        workspaceId: acme,
        userId: sanneId,
        type: 'explorer_view',
        title: 'Campaigns by country',
        config: {
          title: 'Campaigns by country',
          dataset: DEFAULT_EXPLORER_DATASET,
          valueColumns: ['sent', 'open_rate'],
        },
        shares: [{ subjectType: 'user', userId: demoId, level: 'read' }],
      },
      {
        workspaceId: northwind,
        userId: tomId,
        type: 'dashboard',
        title: 'Default Dashboard',
        config: defaultDashboardConfig('Default Dashboard'),
        shares: [{ subjectType: 'workspace', userId: null, level: 'read' }],
      },
    ];
    for (const { shares, ...report } of demoReports) {
      const id = await createReport(tx, report);
      for (const entry of shares) await setPermission(tx, id, entry.subjectType, entry.userId, entry.level);
    }

    const ids = [...workspaceIds.values()];
    await tx
      .update(appMeta)
      .set({ value: JSON.stringify(ids), updatedAt: now })
      .where(eq(appMeta.key, SEEDED_KEY));
    return { workspaceIds: ids, created: true };
  });
}
