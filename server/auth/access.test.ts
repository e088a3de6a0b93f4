import { addMember, createWorkspace, signIn, uniqueEmail } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

describe('workspace access and CSRF', () => {
  const t = withTestApp();

  it('answers 401 without a session', async () => {
    const admin = await signIn(t);
    const workspace = await createWorkspace(t, { adminUserId: admin.userId });
    const res = await t.app.inject({ method: 'GET', url: `/api/workspaces/${workspace.id}/members` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized' });
  });

  it('hides workspaces from non-members and missing workspaces alike with 404', async () => {
    const admin = await signIn(t);
    const outsider = await signIn(t);
    const workspace = await createWorkspace(t, { adminUserId: admin.userId });
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/workspaces/${workspace.id}/members`,
      headers: outsider.headers,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'Not found' });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/workspaces/2147483000/members',
      headers: admin.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Not found' });
  });

  it.each([':id', 'null', '-1', '0', '1.5', 'abc', '99999999999', '1e3', ' 1'])(
    'refuses the workspace id %p with 400 Invalid workspace id',
    async (id) => {
      const user = await signIn(t);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${encodeURIComponent(id)}/members`,
        headers: user.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Invalid workspace id' });
    },
  );

  it('refuses an empty workspace id with 400 Invalid workspace id', async () => {
    const user = await signIn(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/workspaces//members', headers: user.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Invalid workspace id' });
  });

  it('lets members read and refuses admin-only changes to them with 403', async () => {
    const admin = await signIn(t);
    const member = await signIn(t);
    const workspace = await createWorkspace(t, { adminUserId: admin.userId });
    await addMember(t, workspace.id, member.userId, 'member');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/workspaces/${workspace.id}/members`,
      headers: member.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .data.map((m: { email: string }) => m.email)
        .sort(),
    ).toEqual([admin.email, member.email].sort());
    const invite = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspace.id}/members`,
      headers: member.headers,
      payload: { email: uniqueEmail() },
    });
    expect(invite.statusCode).toBe(403);
    expect(invite.json()).toEqual({ error: 'Forbidden' });
  });

  describe('CSRF', () => {
    async function invite(headers: Record<string, string>) {
      const admin = await signIn(t);
      const workspace = await createWorkspace(t, { adminUserId: admin.userId });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspace.id}/members`,
        headers: { ...admin.headers, ...headers },
        payload: { email: uniqueEmail() },
      });
      const members = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspace.id}/members`,
        headers: admin.headers,
      });
      // An invitation is listed as pending until accepted: count both.
      const listed = members.json() as { data: unknown[]; invitations: unknown[] };
      return { res, memberCount: listed.data.length + listed.invitations.length };
    }

    it('accepts a call from our own origin with the custom header', async () => {
      const { res, memberCount } = await invite({});
      expect(res.statusCode).toBe(201);
      expect(memberCount).toBe(2);
    });

    it('refuses a state-changing call without X-Requested-With, and writes nothing', async () => {
      const { res, memberCount } = await invite({ 'x-requested-with': '' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'Forbidden' });
      expect(memberCount).toBe(1);
    });

    it('refuses a call from another origin even with the header', async () => {
      const { res, memberCount } = await invite({ origin: 'https://evil.example' });
      expect(res.statusCode).toBe(403);
      expect(memberCount).toBe(1);
    });

    it('accepts a call without Origin (same-origin requests of older browsers) when the header is there', async () => {
      const admin = await signIn(t);
      const workspace = await createWorkspace(t, { adminUserId: admin.userId });
      const headers: Record<string, string> = { ...admin.headers };
      delete headers.origin;
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspace.id}/members`,
        headers,
        payload: { email: uniqueEmail() },
      });
      expect(res.statusCode).toBe(201);
    });
  });
});
