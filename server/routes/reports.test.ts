import { eq } from 'drizzle-orm';
import { okResponseSchema } from '../../src/contracts/common';
import {
  datasetsOfConfig,
  permissionListResponseSchema,
  publicReportResponseSchema,
  publicWorkspaceResponseSchema,
  type Report,
  reportListResponseSchema,
  reportResponseSchema,
  versionConflictSchema,
} from '../../src/contracts/reports';
import { generateWorkspaceDatasets } from '../datasets/generate';
import { memberships, reportPermissions, reports } from '../db/schema';
import { addMember, apiCaller, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

const t = withTestApp();

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const call = apiCaller(t);

const DATASET = 'campaign_metrics_by_send_date';

const dashboardConfig = (title = 'Sales') => ({
  title,
  widgets: [{ id: 'w1', type: 'graph', dataset: DATASET, metrics: ['sent'], layout: { x: 0, y: 0, w: 6, h: 26 } }],
});

/** A workspace with its admin and two members, plus an outsider who only belongs to a workspace of their own. */
async function team() {
  const owner = await signIn(t);
  const alice = await signIn(t);
  const bob = await signIn(t);
  const outsider = await signIn(t);
  const { id: workspaceId } = await createWorkspace(t, { adminUserId: owner.userId });
  await addMember(t, workspaceId, alice.userId, 'member');
  await addMember(t, workspaceId, bob.userId, 'member');
  const { id: otherWorkspaceId } = await createWorkspace(t, { adminUserId: outsider.userId });
  return { owner, alice, bob, outsider, workspaceId, otherWorkspaceId };
}

async function create(who: SignedIn, workspaceId: number, title = 'Sales', config: unknown = dashboardConfig(title)) {
  const res = await call(who, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, { title, config });
  expect(res.statusCode).toBe(201);
  return res.json().data as Report;
}

const reportUrl = (workspaceId: number, id: number, type = 'dashboard') =>
  `/workspaces/${workspaceId}/reports/${type}/${id}`;

async function share(
  who: SignedIn,
  workspaceId: number,
  report: Report,
  subject: Record<string, unknown>,
  level: string,
) {
  return call(who, 'PUT', `/workspaces/${workspaceId}/permissions`, {
    accessLevel: level,
    objectId: report.id,
    objectType: report.type,
    ...subject,
  });
}

const stored = async (id: number) => {
  const [row] = await t.db.db.select().from(reports).where(eq(reports.id, id));
  return row;
};
const entries = (id: number) =>
  t.db.db
    .select({
      subjectType: reportPermissions.subjectType,
      userId: reportPermissions.userId,
      level: reportPermissions.accessLevel,
    })
    .from(reportPermissions)
    .where(eq(reportPermissions.reportId, id));

describe('creating, reading and listing', () => {
  it('gives the creator full access and keeps a new report private, with unknown config keys dropped', async () => {
    const { owner, alice, workspaceId } = await team();
    const config = { ...dashboardConfig(), junk: 1, widgets: [{ ...dashboardConfig().widgets[0], evil: '<script>' }] };
    const report = await create(owner, workspaceId, 'Sales', config);
    expect(report).toMatchObject({
      type: 'dashboard',
      title: 'Sales',
      version: 1,
      access_level: 'full_access',
      share_level: 'private',
      owner: { id: owner.userId },
      created_by: { id: owner.userId },
      modified_by: { id: owner.userId },
      dataset: DATASET,
      last_opened_at: null,
    });
    expect(report.config).toEqual(dashboardConfig());

    const list = await call(owner, 'GET', `/workspaces/${workspaceId}/reports`);
    expect(list.json().data.map((r: Report) => r.id)).toContain(report.id);
    expect(list.json().data[0]).not.toHaveProperty('config');

    // Access none: hidden from the list and not found when asked for.
    const theirs = await call(alice, 'GET', `/workspaces/${workspaceId}/reports`);
    expect(theirs.json().data.map((r: Report) => r.id)).not.toContain(report.id);
    expect((await call(alice, 'GET', reportUrl(workspaceId, report.id))).statusCode).toBe(404);
  });

  it('accepts a config given as a JSON string, refuses a config of the wrong shape, and needs a title', async () => {
    const { owner, workspaceId } = await team();
    const fromString = await call(owner, 'POST', `/workspaces/${workspaceId}/reports/explorer_view`, {
      title: 'Explore',
      config: JSON.stringify({ pivotMode: true }),
    });
    expect(fromString.statusCode).toBe(201);
    expect(fromString.json().data.config).toMatchObject({ pivotMode: true, dataset: DATASET });
    const bad = await call(owner, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, {
      title: 'Bad',
      config: { widgets: 'nope' },
    });
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'Invalid report config' }]);
    const untitled = await call(owner, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, { title: '  ' });
    expect(untitled.statusCode).toBe(400);
  });

  it('asks for a report by its own type, and answers 400 for bad path values and 401 signed out', async () => {
    const { owner, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    expect((await call(owner, 'GET', reportUrl(workspaceId, report.id, 'widget'))).statusCode).toBe(400);
    const badWorkspace = await call(owner, 'GET', '/workspaces/abc/reports');
    expect([badWorkspace.statusCode, badWorkspace.json()]).toEqual([400, { error: 'Invalid workspace id' }]);
    const badId = await call(owner, 'GET', `/workspaces/${workspaceId}/reports/dashboard/0`);
    expect([badId.statusCode, badId.json()]).toEqual([400, { error: 'Invalid report id' }]);
    expect((await call(null, 'GET', reportUrl(workspaceId, report.id))).statusCode).toBe(401);
  });

  it('refuses a report asked for by another type in the spec’s words, and hides it from those who cannot see it', async () => {
    const { owner, alice, outsider, workspaceId, otherWorkspaceId } = await team();
    const dashboard = await create(owner, workspaceId);
    const explorer = await call(owner, 'POST', `/workspaces/${workspaceId}/reports/explorer_view`, {
      title: 'Pivot',
      config: { dataset: DATASET },
    });
    const view = explorer.json().data as Report;
    const asked = async (who: SignedIn, method: Method, url: string, payload?: unknown) => {
      const res = await call(who, method, url, payload);
      return [res.statusCode, res.json().error];
    };
    expect(await asked(owner, 'GET', reportUrl(workspaceId, dashboard.id, 'explorer_view'))).toEqual([
      400,
      'Invalid type: must be an explorer report',
    ]);
    expect(await asked(owner, 'PUT', `${reportUrl(workspaceId, view.id)}/title`, { title: 'Renamed' })).toEqual([
      400,
      'Invalid type: must be an dashboard report',
    ]);
    expect(await asked(owner, 'POST', `${reportUrl(workspaceId, view.id)}/duplicate`)).toEqual([
      400,
      'Cannot duplicate: Invalid type',
    ]);
    expect(await asked(owner, 'POST', `${reportUrl(workspaceId, view.id, 'widget')}/duplicate`)).toEqual([
      400,
      'Cannot duplicate: Invalid type',
    ]);
    // Nothing was copied, and the right type still duplicates.
    expect((await call(owner, 'GET', `/workspaces/${workspaceId}/reports`)).json().data).toHaveLength(2);
    expect(
      (await call(owner, 'POST', `${reportUrl(workspaceId, view.id, 'explorer_view')}/duplicate`)).statusCode,
    ).toBe(201);
    // A private report (alice) or another workspace's (outsider) stays not found, whatever type is named.
    expect((await call(alice, 'GET', reportUrl(workspaceId, dashboard.id, 'explorer_view'))).statusCode).toBe(404);
    expect((await call(outsider, 'GET', reportUrl(otherWorkspaceId, dashboard.id, 'explorer_view'))).statusCode).toBe(
      404,
    );
  });

  it('records when each user last opened a report', async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read');
    const opened = await call(owner, 'POST', `${reportUrl(workspaceId, report.id)}/opened`);
    expect(opened.statusCode).toBe(200);
    expect(typeof opened.json().data.last_opened_at).toBe('string');
    const forAlice = await call(alice, 'GET', reportUrl(workspaceId, report.id));
    expect(forAlice.json().data.last_opened_at).toBeNull();
  });
});

describe('saving with versions', () => {
  it('raises the version by one per save and names who saved', async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read_write');
    const saved = await call(alice, 'PUT', reportUrl(workspaceId, report.id), {
      title: 'Sales v2',
      config: dashboardConfig('Sales v2'),
      version: 1,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ version: 2, title: 'Sales v2', modified_by: { id: alice.userId } });
  });

  it('refuses a stale save with 409, the current version and its author, and changes nothing', async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read_write');
    await call(alice, 'PUT', reportUrl(workspaceId, report.id), { config: dashboardConfig('Alice'), version: 1 });
    const before = await stored(report.id);
    const stale = await call(owner, 'PUT', reportUrl(workspaceId, report.id), {
      config: dashboardConfig('Owner'),
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      error: 'Another user saved a newer version of this report',
      version: 2,
      modifiedBy: { id: alice.userId, name: alice.email },
    });
    expect(await stored(report.id)).toEqual(before);
  });

  it('lets exactly one of two concurrent saves of the same version win, round after round', async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read_write');
    for (let version = 1; version <= 5; version += 1) {
      const [a, b] = await Promise.all([
        call(owner, 'PUT', reportUrl(workspaceId, report.id), { config: dashboardConfig(`Owner ${version}`), version }),
        call(alice, 'PUT', reportUrl(workspaceId, report.id), { config: dashboardConfig(`Alice ${version}`), version }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const winner = a.statusCode === 200 ? a : b;
      const loser = a.statusCode === 200 ? b : a;
      const row = await stored(report.id);
      expect(row.version).toBe(version + 1);
      expect(row.config.title).toBe(winner.json().data.config.title);
      expect(loser.json()).toMatchObject({ version: version + 1, modifiedBy: { id: row.modifiedBy } });
    }
  });

  it("creates a new report instead on 'Save as new view', even from a stale version or with view access", async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read');
    await call(owner, 'PUT', reportUrl(workspaceId, report.id), { config: dashboardConfig('Newer'), version: 1 });
    const before = await stored(report.id);
    const res = await call(alice, 'PUT', reportUrl(workspaceId, report.id), {
      title: 'My view',
      config: dashboardConfig('My view'),
      version: 1,
      saveAsNewView: true,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      title: 'My view',
      version: 1,
      access_level: 'full_access',
      owner: { id: alice.userId },
      share_level: 'private',
    });
    expect(res.json().data.id).not.toBe(report.id);
    expect(await stored(report.id)).toEqual(before);
  });

  it('refuses owner, workspace, version-to-set or access level in a body, changing nothing', async () => {
    const { owner, alice, workspaceId, otherWorkspaceId } = await team();
    const report = await create(owner, workspaceId);
    const before = await stored(report.id);
    const extras = [
      { owner: alice.userId },
      { owner_id: alice.userId },
      { workspace_id: otherWorkspaceId },
      { workspaceId: otherWorkspaceId },
      { access_level: 'read' },
      { share_level: 'public' },
      { id: report.id + 1 },
    ];
    for (const extra of extras) {
      const save = await call(owner, 'PUT', reportUrl(workspaceId, report.id), {
        config: dashboardConfig('Hacked'),
        version: 1,
        ...extra,
      });
      expect(save.statusCode).toBe(400);
      const created = await call(owner, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, {
        title: 'Hacked',
        ...extra,
      });
      expect(created.statusCode).toBe(400);
    }
    // A version ahead of the server's is not a way to set it: it is refused like any other mismatch.
    const ahead = await call(owner, 'PUT', reportUrl(workspaceId, report.id), {
      config: dashboardConfig('Hacked'),
      version: 99,
    });
    expect(ahead.statusCode).toBe(409);
    expect(await stored(report.id)).toEqual(before);
    expect(await entries(report.id)).toEqual([{ subjectType: 'user', userId: owner.userId, level: 'full_access' }]);
  });
});

describe('permissions by access level', () => {
  it('read: view and duplicate only', async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read');
    const url = reportUrl(workspaceId, report.id);
    expect((await call(alice, 'GET', url)).json().data).toMatchObject({ access_level: 'read', share_level: 'user' });
    const before = await stored(report.id);
    expect((await call(alice, 'PUT', url, { config: dashboardConfig('x'), version: 1 })).statusCode).toBe(403);
    expect((await call(alice, 'PUT', `${url}/title`, { title: 'x' })).statusCode).toBe(403);
    expect((await call(alice, 'DELETE', url)).statusCode).toBe(403);
    expect((await share(alice, workspaceId, report, { subjectType: 'workspace' }, 'read')).statusCode).toBe(403);
    expect(await stored(report.id)).toEqual(before);

    const copy = await call(alice, 'POST', `${url}/duplicate`);
    expect(copy.statusCode).toBe(201);
    expect(copy.json().data).toMatchObject({
      title: 'Sales (Copy)',
      access_level: 'full_access',
      owner: { id: alice.userId },
      version: 1,
    });
    expect(copy.json().data.config).toEqual({ ...dashboardConfig(), title: 'Sales (Copy)' });
  });

  it('read_write: save and rename, but neither delete nor share', async () => {
    const { owner, alice, bob, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read_write');
    const url = reportUrl(workspaceId, report.id);
    expect((await call(alice, 'PUT', url, { config: dashboardConfig('x'), version: 1 })).statusCode).toBe(200);
    const renamed = await call(alice, 'PUT', `${url}/title`, { title: '  Renamed ' });
    // A rename is a save: it raises the version, so an older local copy cannot silently undo it.
    expect(renamed.json().data).toMatchObject({ title: 'Renamed', version: 3, config: { title: 'Renamed' } });
    expect((await call(owner, 'PUT', url, { config: dashboardConfig('Old'), version: 2 })).statusCode).toBe(409);
    expect((await call(alice, 'PUT', `${url}/title`, { title: '' })).statusCode).toBe(400);
    expect((await call(alice, 'DELETE', url)).statusCode).toBe(403);
    const shared = await share(alice, workspaceId, report, { subjectType: 'user', subjectId: bob.userId }, 'read');
    expect(shared.statusCode).toBe(403);
    expect(await entries(report.id)).toHaveLength(2);
    expect((await stored(report.id)).title).toBe('Renamed');
  });

  it('full_access: delete and share others, never changing its own level', async () => {
    const { owner, alice, bob, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'full_access');
    const own = await share(alice, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read');
    expect([own.statusCode, own.json()]).toEqual([403, { error: 'You cannot change your own access level' }]);
    const ownerOwn = await share(owner, workspaceId, report, { subjectType: 'user', subjectId: owner.userId }, 'none');
    expect(ownerOwn.statusCode).toBe(403);
    expect(
      (await share(alice, workspaceId, report, { subjectType: 'user', subjectId: bob.userId }, 'read')).statusCode,
    ).toBe(200);
    expect((await call(bob, 'GET', reportUrl(workspaceId, report.id))).statusCode).toBe(200);
    // Removing sets none and deletes the entry.
    expect(
      (await share(alice, workspaceId, report, { subjectType: 'user', subjectId: bob.userId }, 'none')).statusCode,
    ).toBe(200);
    expect((await call(bob, 'GET', reportUrl(workspaceId, report.id))).statusCode).toBe(404);
    expect((await entries(report.id)).map((entry) => entry.userId).sort()).toEqual([owner.userId, alice.userId].sort());
    expect((await call(alice, 'DELETE', reportUrl(workspaceId, report.id))).statusCode).toBe(200);
    expect(await stored(report.id)).toBeUndefined();
  });

  it('removes entries by id, the public link too, also for someone who has left the workspace', async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read');
    await share(owner, workspaceId, report, { subjectType: 'public' }, 'read');
    const listUrl = `/workspaces/${workspaceId}/permissions?object_type=dashboard&object_id=${report.id}`;
    const listed = (await call(owner, 'GET', listUrl)).json().data as {
      id: number;
      subjectType: string;
      subjectId: number;
    }[];
    expect(listed.map((entry) => entry.subjectType)).toEqual(['user', 'user', 'public']);
    const own = listed.find((entry) => entry.subjectId === owner.userId)!;
    expect((await call(owner, 'DELETE', `/workspaces/${workspaceId}/permissions/${own.id}`)).statusCode).toBe(403);
    const link = listed.find((entry) => entry.subjectType === 'public')!;
    expect((await call(owner, 'DELETE', `/workspaces/${workspaceId}/permissions/${link.id}`)).statusCode).toBe(200);
    expect((await call(null, 'GET', `/reports/${report.id}/config`)).statusCode).toBe(404);

    await t.db.db.delete(memberships).where(eq(memberships.userId, alice.userId));
    const regrant = await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read');
    expect(regrant.statusCode).toBe(400);
    const former = listed.find((entry) => entry.subjectId === alice.userId)!;
    expect((await call(owner, 'DELETE', `/workspaces/${workspaceId}/permissions/${former.id}`)).statusCode).toBe(200);
    expect(await entries(report.id)).toEqual([{ subjectType: 'user', userId: owner.userId, level: 'full_access' }]);
  });

  it('the public link gives members of the workspace no access of their own', async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'public' }, 'read');
    expect((await call(alice, 'GET', reportUrl(workspaceId, report.id))).statusCode).toBe(404);
    const list = await call(alice, 'GET', `/workspaces/${workspaceId}/reports`);
    expect(list.json().data.map((r: Report) => r.id)).not.toContain(report.id);
  });

  it('shares only with members of the workspace', async () => {
    const { owner, outsider, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    const res = await share(owner, workspaceId, report, { subjectType: 'user', subjectId: outsider.userId }, 'read');
    expect([res.statusCode, res.json()]).toEqual([400, { error: 'Unknown user' }]);
    expect(await entries(report.id)).toHaveLength(1);
  });

  it('the workspace-wide entry gives every member its level and lists last; the current user lists first', async () => {
    const { owner, alice, bob, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read_write');
    const byWriter = await share(alice, workspaceId, report, { subjectType: 'workspace' }, 'read');
    expect(byWriter.statusCode).toBe(403);
    expect((await share(owner, workspaceId, report, { subjectType: 'workspace' }, 'read')).statusCode).toBe(200);
    const forBob = await call(bob, 'GET', reportUrl(workspaceId, report.id));
    expect(forBob.json().data).toMatchObject({ access_level: 'read', share_level: 'workspace' });
    // The higher of the member's own entry and the workspace entry.
    expect((await call(alice, 'GET', reportUrl(workspaceId, report.id))).json().data.access_level).toBe('read_write');

    const list = await call(
      alice,
      'GET',
      `/workspaces/${workspaceId}/permissions?object_type=dashboard&object_id=${report.id}`,
    );
    expect(list.statusCode).toBe(200);
    const names = list.json().data.map((entry: { subjectName: string; subjectId: number | null }) => entry.subjectId);
    expect(names[0]).toBe(alice.userId);
    expect(list.json().data.at(-1)).toMatchObject({
      subjectType: 'workspace',
      subjectName: 'Everyone in the workspace',
      accessLevel: 'read',
    });
  });
});

describe('attacks across reports and workspaces', () => {
  it('answers 404 on every method to a report id of another workspace, and changes nothing', async () => {
    const { owner, outsider, workspaceId, otherWorkspaceId } = await team();
    const report = await create(owner, workspaceId);
    // The outsider also holds full access to a report of the other workspace, through membership there.
    await addMember(t, workspaceId, outsider.userId, 'member');
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: outsider.userId }, 'full_access');
    const before = await stored(report.id);
    const url = reportUrl(otherWorkspaceId, report.id);
    const attempts: [Method, string, unknown?][] = [
      ['GET', url],
      ['PUT', url, { config: dashboardConfig('x'), version: 1 }],
      ['PUT', url, { config: dashboardConfig('x'), version: 1, saveAsNewView: true }],
      ['PUT', `${url}/title`, { title: 'x' }],
      ['DELETE', url],
      ['POST', `${url}/duplicate`],
      ['POST', `${url}/opened`],
      ['GET', `/workspaces/${otherWorkspaceId}/permissions?object_type=dashboard&object_id=${report.id}`],
      [
        'PUT',
        `/workspaces/${otherWorkspaceId}/permissions`,
        { accessLevel: 'read', subjectType: 'workspace', objectId: report.id, objectType: 'dashboard' },
      ],
    ];
    const { id: entryId } = (
      await call(owner, 'GET', `/workspaces/${workspaceId}/permissions?object_type=dashboard&object_id=${report.id}`)
    ).json().data[0];
    attempts.push(
      ['DELETE', `/workspaces/${otherWorkspaceId}/permissions/${entryId}`],
      [
        'PUT',
        `/workspaces/${otherWorkspaceId}/permissions/${entryId}`,
        {
          accessLevel: 'read',
          subjectType: 'user',
          subjectId: owner.userId,
          objectId: report.id,
          objectType: 'dashboard',
        },
      ],
    );
    for (const [method, path, payload] of attempts) {
      const res = await call(outsider, method, path, payload);
      expect([method, path, res.statusCode, res.json()]).toEqual([method, path, 404, { error: 'Not found' }]);
    }
    // A non-member gets the same answer for the workspace itself.
    const stranger = await signIn(t);
    expect((await call(stranger, 'GET', reportUrl(workspaceId, report.id))).statusCode).toBe(404);
    expect(await stored(report.id)).toEqual(before);
    expect(await entries(report.id)).toHaveLength(2);
    const otherList = await call(outsider, 'GET', `/workspaces/${otherWorkspaceId}/reports`);
    expect(otherList.json().data).toEqual([]);
  });

  it('cannot change the sharing of a report one may not share by swapping ids', async () => {
    const { owner, alice, bob, workspaceId } = await team();
    const mine = await create(alice, workspaceId, 'Mine');
    const theirs = await create(owner, workspaceId, 'Theirs');
    await share(owner, workspaceId, theirs, { subjectType: 'user', subjectId: alice.userId }, 'read');
    const listed = await call(
      owner,
      'GET',
      `/workspaces/${workspaceId}/permissions?object_type=dashboard&object_id=${theirs.id}`,
    );
    const ownerEntry = listed.json().data.find((entry: { subjectId: number }) => entry.subjectId === owner.userId);
    const aliceEntry = listed.json().data.find((entry: { subjectId: number }) => entry.subjectId === alice.userId);
    const before = await entries(theirs.id);

    // Alice's own report in the body, the other report's entry in the path.
    const swapped = await call(alice, 'PUT', `/workspaces/${workspaceId}/permissions/${ownerEntry.id}`, {
      accessLevel: 'none',
      subjectType: 'user',
      subjectId: owner.userId,
      objectId: mine.id,
      objectType: 'dashboard',
    });
    expect(swapped.statusCode).toBe(404);
    // Raising her own entry of the other report, naming it honestly.
    const raise = await call(alice, 'PUT', `/workspaces/${workspaceId}/permissions/${aliceEntry.id}`, {
      accessLevel: 'full_access',
      subjectType: 'user',
      subjectId: alice.userId,
      objectId: theirs.id,
      objectType: 'dashboard',
    });
    expect(raise.statusCode).toBe(403);
    // Sharing the other report through the create-or-update call.
    const direct = await share(alice, workspaceId, theirs, { subjectType: 'user', subjectId: bob.userId }, 'read');
    expect(direct.statusCode).toBe(403);
    expect((await call(alice, 'DELETE', `/workspaces/${workspaceId}/permissions/${ownerEntry.id}`)).statusCode).toBe(
      403,
    );
    expect(await entries(theirs.id)).toEqual(before);
    expect(await entries(mine.id)).toHaveLength(1);
  });
});

describe('public reports', () => {
  it('serve config, workspace, flags and the used datasets only while the link is on', async () => {
    const { owner, workspaceId } = await team();
    await generateWorkspaceDatasets(t.config.dataDir, workspaceId, { rows: 1000, seed: 1, endDate: '2026-11-21' });
    const report = await create(owner, workspaceId);
    const publicUrls = [
      `/reports/${report.id}/config`,
      `/reports/${report.id}/workspace`,
      `/reports/${report.id}/workspace/flags`,
      `/reports/${report.id}/datasets`,
      `/reports/${report.id}/datasets/${DATASET}?schema=true`,
      `/reports/${report.id}/datasets/${DATASET}`,
      `/reports/${report.id}/datasets/campaigns/cmp-unknown`,
    ];
    const expectAllRefused = async () => {
      for (const url of publicUrls) {
        const res = await call(null, 'GET', url);
        expect([url, res.statusCode, res.json()]).toEqual([url, 404, { error: 'Not found' }]);
      }
    };
    await expectAllRefused();

    const wrongLevel = await share(owner, workspaceId, report, { subjectType: 'public' }, 'read_write');
    expect(wrongLevel.statusCode).toBe(400);
    expect((await share(owner, workspaceId, report, { subjectType: 'public' }, 'read')).statusCode).toBe(200);
    expect((await call(owner, 'GET', reportUrl(workspaceId, report.id))).json().data.share_level).toBe('public');

    const config = await call(null, 'GET', `/reports/${report.id}/config`);
    expect(config.statusCode).toBe(200);
    expect(config.json().data).toMatchObject({ id: report.id, title: 'Sales', config: dashboardConfig(), version: 1 });
    expect(config.json().data).not.toHaveProperty('workspaceId');
    const workspace = await call(null, 'GET', `/reports/${report.id}/workspace`);
    expect(workspace.json().data).toMatchObject({ id: workspaceId, status: 'active' });
    expect((await call(null, 'GET', `/reports/${report.id}/workspace/flags`)).json()).toEqual({ data: [] });
    const datasets = await call(null, 'GET', `/reports/${report.id}/datasets`);
    expect(datasets.json().datasets.map((d: { id: string }) => d.id)).toEqual([DATASET]);
    const schema = await call(null, 'GET', `/reports/${report.id}/datasets/${DATASET}?schema=true`);
    expect(schema.statusCode).toBe(200);
    expect(schema.json().id).toBe(DATASET);
    const file = await call(null, 'GET', `/reports/${report.id}/datasets/${DATASET}`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBeGreaterThan(0);
    // Its widgets show neither campaign ids nor web-view links, so the link gives no web view either.
    const webview = await call(null, 'GET', `/reports/${report.id}/datasets/campaigns/cmp-unknown`);
    expect(webview.statusCode).toBe(404);
    // A dataset the report does not use stays hidden, as does anything that is not a report id.
    const unused = await call(null, 'GET', `/reports/${report.id}/datasets/campaign_metrics_by_event_date?schema=true`);
    expect(unused.statusCode).toBe(404);
    expect((await call(null, 'GET', '/reports/abc/config')).statusCode).toBe(404);

    expect((await share(owner, workspaceId, report, { subjectType: 'public' }, 'none')).statusCode).toBe(200);
    await expectAllRefused();
  }, 60_000);
});

describe('datasets a report uses', () => {
  it("are its widgets' datasets, the implied one when a widget names none, and the explorer view's", () => {
    const widgets = [
      { id: 'a', type: 'rich_text', content: '<p>Hi</p>' },
      { id: 'b', type: 'graph' },
      { id: 'c', type: 'table', dataset: 'ga4' },
      { id: 'd', type: 'subscriber_growth' },
      { id: 'e', type: 'list', dataset: 'campaigns' },
    ];
    expect(datasetsOfConfig('dashboard', { widgets })).toEqual([DATASET, 'ga4', 'list_members']);
    expect(datasetsOfConfig('dashboard', { widgets: [widgets[0]] })).toEqual([]);
    expect(datasetsOfConfig('explorer_view', {})).toEqual([DATASET]);
    expect(datasetsOfConfig('explorer_view', { dataset: 'ecommerce' })).toEqual(['ecommerce']);
    // An older view names the send-date dataset by its old name, as older widgets do.
    expect(datasetsOfConfig('explorer_view', { dataset: 'campaigns' })).toEqual([DATASET]);
  });
});

describe('response contracts', () => {
  it('every answer the client reads parses with its schema', async () => {
    const { owner, alice, workspaceId } = await team();
    const report = await create(owner, workspaceId);
    const url = reportUrl(workspaceId, report.id);
    await share(owner, workspaceId, report, { subjectType: 'user', subjectId: alice.userId }, 'read_write');
    await share(owner, workspaceId, report, { subjectType: 'public' }, 'read');
    reportResponseSchema.parse((await call(owner, 'GET', url)).json());
    reportListResponseSchema.parse((await call(owner, 'GET', `/workspaces/${workspaceId}/reports`)).json());
    reportResponseSchema.parse((await call(owner, 'PUT', url, { config: dashboardConfig(), version: 1 })).json());
    versionConflictSchema.parse((await call(alice, 'PUT', url, { config: dashboardConfig(), version: 1 })).json());
    reportResponseSchema.parse((await call(owner, 'PUT', `${url}/title`, { title: 'T' })).json());
    reportResponseSchema.parse((await call(owner, 'POST', `${url}/duplicate`)).json());
    reportResponseSchema.parse((await call(owner, 'POST', `${url}/opened`)).json());
    const permissions = `/workspaces/${workspaceId}/permissions?object_type=dashboard&object_id=${report.id}`;
    permissionListResponseSchema.parse((await call(owner, 'GET', permissions)).json());
    publicReportResponseSchema.parse((await call(null, 'GET', `/reports/${report.id}/config`)).json());
    publicWorkspaceResponseSchema.parse((await call(null, 'GET', `/reports/${report.id}/workspace`)).json());
    okResponseSchema.parse((await call(owner, 'DELETE', url)).json());
  });
});
