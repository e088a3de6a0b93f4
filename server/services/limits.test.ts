import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import {
  REPORTS_PER_WORKSPACE_REACHED,
  UPLOADS_PER_DAY_REACHED,
  WORKSPACES_PER_DAY_REACHED,
} from '../../src/contracts/common';
import { reports, workspaceAssets, workspaces } from '../db/schema';
import { createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

const WORKSPACES_PER_DAY = 2;
const REPORTS_PER_WORKSPACE = 3;
const UPLOADS_PER_DAY = 2;

const t = withTestApp({
  LIMIT_WORKSPACES_PER_DAY: WORKSPACES_PER_DAY,
  LIMIT_REPORTS_PER_WORKSPACE: REPORTS_PER_WORKSPACE,
  LIMIT_UPLOADS_PER_DAY: UPLOADS_PER_DAY,
});

const call = (who: SignedIn, method: 'POST' | 'PUT', url: string, payload: unknown = {}) =>
  t.app.inject({ method, url: `/api${url}`, headers: who.headers, payload: payload as object });

async function workspacesCreatedBy(userId: number) {
  const [row] = await t.db.db.select({ n: count() }).from(workspaces).where(eq(workspaces.createdBy, userId));
  return Number(row.n);
}

describe('workspaces per account per day', () => {
  it(`creates ${WORKSPACES_PER_DAY}, then answers 429 with the spec-style message and creates nothing`, async () => {
    const user = await signIn(t);
    for (let i = 0; i < WORKSPACES_PER_DAY; i++) {
      expect((await call(user, 'POST', '/workspaces', { name: `Acme ${i}` })).statusCode).toBe(201);
    }
    const over = await call(user, 'POST', '/workspaces', { name: 'One too many' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: WORKSPACES_PER_DAY_REACHED });
    expect(await workspacesCreatedBy(user.userId)).toBe(WORKSPACES_PER_DAY);

    // Another account has its own allowance.
    const other = await signIn(t);
    expect((await call(other, 'POST', '/workspaces', { name: 'Theirs' })).statusCode).toBe(201);
  });

  it('counts only the last 24 hours', async () => {
    const user = await signIn(t);
    for (let i = 0; i < WORKSPACES_PER_DAY; i++) await call(user, 'POST', '/workspaces', { name: `Old ${i}` });
    await t.db.db
      .update(workspaces)
      .set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) })
      .where(eq(workspaces.createdBy, user.userId));
    expect((await call(user, 'POST', '/workspaces', { name: 'Today' })).statusCode).toBe(201);
  });

  it('never passes the bound with concurrent creates', async () => {
    const user = await signIn(t);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(user, 'POST', '/workspaces', { name: `Burst ${i}` })),
    );
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(WORKSPACES_PER_DAY);
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(8 - WORKSPACES_PER_DAY);
    expect(await workspacesCreatedBy(user.userId)).toBe(WORKSPACES_PER_DAY);
  });
});

describe('reports per workspace', () => {
  async function full() {
    const user = await signIn(t);
    const { id: workspaceId } = await createWorkspace(t, { adminUserId: user.userId });
    const ids: number[] = [];
    for (let i = 0; i < REPORTS_PER_WORKSPACE; i++) {
      const res = await call(user, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, { title: `R${i}` });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().data.id);
    }
    return { user, workspaceId, ids };
  }
  const reportsOf = async (workspaceId: number) => {
    const [row] = await t.db.db.select({ n: count() }).from(reports).where(eq(reports.workspaceId, workspaceId));
    return Number(row.n);
  };

  it('refuses a new report, a duplicate and a save as new view with 403 once the workspace is full', async () => {
    const { user, workspaceId, ids } = await full();
    const base = `/workspaces/${workspaceId}/reports/dashboard`;
    const attempts = [
      await call(user, 'POST', base, { title: 'More' }),
      await call(user, 'POST', `${base}/${ids[0]}/duplicate`),
      await call(user, 'PUT', `${base}/${ids[0]}`, { config: { widgets: [] }, version: 1, saveAsNewView: true }),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: REPORTS_PER_WORKSPACE_REACHED });
    }
    expect(await reportsOf(workspaceId)).toBe(REPORTS_PER_WORKSPACE);
    // Saving an existing report is not a new one.
    expect((await call(user, 'PUT', `${base}/${ids[0]}`, { config: { widgets: [] }, version: 1 })).statusCode).toBe(
      200,
    );
  });

  it('takes a new report again once one is deleted, and counts each workspace on its own', async () => {
    const { user, workspaceId, ids } = await full();
    await t.app.inject({
      method: 'DELETE',
      url: `/api/workspaces/${workspaceId}/reports/dashboard/${ids[0]}`,
      headers: user.headers,
    });
    expect(
      (await call(user, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, { title: 'New' })).statusCode,
    ).toBe(201);
    const { id: otherWorkspace } = await createWorkspace(t, { adminUserId: user.userId });
    expect(
      (await call(user, 'POST', `/workspaces/${otherWorkspace}/reports/dashboard`, { title: 'X' })).statusCode,
    ).toBe(201);
  });

  it('never passes the bound with concurrent creates', async () => {
    const user = await signIn(t);
    const { id: workspaceId } = await createWorkspace(t, { adminUserId: user.userId });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(user, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, { title: `Burst ${i}` }),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(REPORTS_PER_WORKSPACE);
    expect(await reportsOf(workspaceId)).toBe(REPORTS_PER_WORKSPACE);
  });
});

describe('uploads per workspace per day', () => {
  it(`stores ${UPLOADS_PER_DAY} logos a day, then answers 429 and stores nothing`, async () => {
    const user = await signIn(t);
    const { id: workspaceId } = await createWorkspace(t, { adminUserId: user.userId });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const boundary = '----openrate-limits';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/assets`,
        headers: { ...user.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    for (let i = 0; i < UPLOADS_PER_DAY; i++) expect((await upload()).statusCode).toBe(201);
    const over = await upload();
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: UPLOADS_PER_DAY_REACHED });
    const [row] = await t.db.db
      .select({ n: count() })
      .from(workspaceAssets)
      .where(eq(workspaceAssets.workspaceId, workspaceId));
    expect(Number(row.n)).toBe(UPLOADS_PER_DAY);
  });
});
