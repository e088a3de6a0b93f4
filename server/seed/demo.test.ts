import { eq, inArray } from 'drizzle-orm';
import { meResponseSchema } from '../../src/contracts/me';
import { appMeta, memberships, users, workspaces } from '../db/schema';
import { createSession } from '../services/sessions';
import { sessionHeaders } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';
import { DEMO_EMAIL, seedDemo, STAFF_EMAIL } from './demo';

describe('demo seed', () => {
  const t = withTestApp();

  it('seeds the demo accounts and workspaces once, and reports the same workspaces on the next start', async () => {
    const db = t.db.db;
    // On a shared PostgreSQL another suite (or an earlier run) may have seeded already.
    const before = await db.select().from(appMeta).where(eq(appMeta.key, 'demo_seeded'));
    const first = await seedDemo(db);
    expect(first.created).toBe(before.length === 0);
    // Other writes move a row to the table's end (as the suites sharing a PostgreSQL do); the order stays. The
    // demo's workspaces are the seed's to report only while they exist: another suite may have deleted them.
    const [firstId] = first.workspaceIds;
    const [kept] = await db
      .select({ name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.id, firstId ?? -1));
    if (kept) await db.update(workspaces).set({ name: kept.name }).where(eq(workspaces.id, firstId));
    const second = await seedDemo(db);
    expect(second).toEqual({ workspaceIds: first.workspaceIds, created: false });
    if (!first.created) return;
    expect(first.workspaceIds).toHaveLength(7);

    const [demo] = await db.select().from(users).where(eq(users.email, DEMO_EMAIL));
    expect(demo.name).toBe('Demo Marketer');
    const { cookie } = await createSession(db, { userId: demo.id, ttlSeconds: 3600 });
    const me = meResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: sessionHeaders(cookie) })).json(),
    );
    const byName = Object.fromEntries(me.workspaces.map((w) => [w.name, w]));
    expect(byName['Acme Retail']).toMatchObject({ status: 'active', locale: 'nl_NL', role: 'admin' });
    expect(byName['Acme Retail'].features).toEqual(['campaigns_graph', 'engagement', 'grid_layout', 'list_members']);
    expect(byName['Northwind Travel']).toMatchObject({ status: 'active', locale: 'en_GB', role: 'member' });
    expect(byName['Globex Demo']).toMatchObject({ status: 'new', role: 'admin' });
    expect(byName.Initech).toMatchObject({ status: 'suspended', role: 'admin' });
    expect(byName['Hooli Home']).toMatchObject({ status: 'cancelled', role: 'admin', agency: false });
    expect(byName['Fjord Outdoor']).toMatchObject({ agency: true, licenseHolder: 'Brightwave Agency' });
    expect(byName['Lumen Cosmetics']).toMatchObject({ agency: true, licenseHolder: 'Brightwave Agency' });

    const [staff] = await db.select().from(users).where(eq(users.email, STAFF_EMAIL));
    expect(staff).toBeDefined();
    const seeded = await db.select().from(workspaces).where(inArray(workspaces.id, first.workspaceIds));
    expect(seeded).toHaveLength(7);
    const staffMemberships = await db.select().from(memberships).where(eq(memberships.userId, staff.id));
    expect(staffMemberships).toHaveLength(0);
  });
});
