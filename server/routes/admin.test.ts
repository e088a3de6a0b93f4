import { and, desc, eq } from 'drizzle-orm';
import { IMPERSONATION_READ_ONLY } from '../../src/contracts/me';
import { SESSION_COOKIE } from '../auth/cookies';
import { auditLog, users } from '../db/schema';
import { addMember, apiCaller, createWorkspace, sessionHeaders, signIn, uniqueEmail } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

describe('product staff', () => {
  const t = withTestApp();
  const call = apiCaller(t);

  const staffEmail = () => uniqueEmail('staff').replace('@example.com', '@openrate.app');

  async function impersonate(staff: { headers: Record<string, string> }, userId: number) {
    const res = await call(staff, 'POST', '/admin/impersonate', { userId });
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
    return { res, headers: cookie ? sessionHeaders(cookie) : {} };
  }

  it('lists every workspace for staff only', async () => {
    const staff = await signIn(t, staffEmail());
    const user = await signIn(t);
    const ws = await createWorkspace(t, { adminUserId: user.userId, name: 'Listed' });
    const res = await call(staff, 'GET', '/admin/workspaces');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toContainEqual(expect.objectContaining({ id: ws.id, name: 'Listed', memberCount: 1 }));
    const me = await call(staff, 'GET', '/me');
    expect(me.json().isStaff).toBe(true);
    const refused = await call(user, 'GET', '/admin/workspaces');
    expect(refused.statusCode).toBe(403);
    const members = await call(staff, 'GET', `/admin/workspaces/${ws.id}/members`);
    expect(members.json().data).toEqual([
      expect.objectContaining({ id: user.userId, email: user.email, role: 'admin' }),
    ]);
    const notStaff = await call(user, 'GET', `/admin/workspaces/${ws.id}/members`);
    expect(notStaff.statusCode).toBe(403);
  });

  it('does not take a look-alike domain for staff', async () => {
    const fake = await signIn(t, uniqueEmail('x').replace('@example.com', '@evil-openrate.app'));
    expect((await call(fake, 'GET', '/admin/workspaces')).statusCode).toBe(403);
  });

  it('impersonates a user with an audit entry, shows it in /session and /me, and exits back to staff', async () => {
    const staff = await signIn(t, staffEmail());
    const target = await signIn(t);
    const ws = await createWorkspace(t, { adminUserId: target.userId });
    const { res, headers } = await impersonate(staff, target.userId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user_id: target.userId, impersonated_by: staff.userId });

    const session = await t.app.inject({ method: 'GET', url: '/session', headers });
    expect(session.json()).toMatchObject({ user_id: target.userId, impersonated_by: staff.userId });
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(me.json()).toMatchObject({ email: target.email, isStaff: false, impersonatedBy: { id: staff.userId } });
    expect(me.json().workspaces.map((w: { id: number }) => w.id)).toEqual([ws.id]);
    // The staff member's own session was replaced, not kept alongside.
    expect((await t.app.inject({ method: 'GET', url: '/session', headers: staff.headers })).json()).toEqual({
      status: 'unauthenticated',
    });

    const [audit] = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, staff.userId), eq(auditLog.action, 'impersonate_start')));
    expect(audit.targetUserId).toBe(target.userId);

    const exit = await t.app.inject({ method: 'GET', url: '/impersonate/exit', headers });
    expect(exit.statusCode).toBe(302);
    const back = exit.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    expect(
      (await t.app.inject({ method: 'GET', url: '/session', headers: sessionHeaders(back) })).json(),
    ).toMatchObject({
      user_id: staff.userId,
    });
    expect((await t.app.inject({ method: 'GET', url: '/session', headers })).json()).toEqual({
      status: 'unauthenticated',
    });
    const [end] = await t.db.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorUserId, staff.userId))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(end.action).toBe('impersonate_end');
  });

  it("cannot change the target's MFA or another member's MFA while impersonating", async () => {
    const staff = await signIn(t, staffEmail());
    const target = await signIn(t);
    const colleague = await signIn(t);
    const ws = await createWorkspace(t, { adminUserId: target.userId });
    await addMember(t, ws.id, colleague.userId, 'member');
    await t.db.db.update(users).set({ mfaSecret: 'JBSWY3DPEHPK3PXP' }).where(eq(users.id, colleague.userId));
    const { headers } = await impersonate(staff, target.userId);
    const setup = await t.app.inject({ method: 'POST', url: '/api/me/mfa/setup', headers });
    expect(setup.statusCode).toBe(403);
    const disable = await t.app.inject({ method: 'DELETE', url: '/api/me/mfa', headers, payload: { token: '123456' } });
    expect(disable.statusCode).toBe(403);
    const member = await t.app.inject({
      method: 'DELETE',
      url: `/api/workspaces/${ws.id}/members/${colleague.userId}/mfa`,
      headers,
    });
    expect(member.statusCode).toBe(403);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers,
      payload: { email: 'new@example.com' },
    });
    expect(patch.statusCode).toBe(400);
    const [row] = await t.db.db.select().from(users).where(eq(users.id, colleague.userId));
    expect(row.mfaSecret).toBe('JBSWY3DPEHPK3PXP');
    const [self] = await t.db.db.select().from(users).where(eq(users.id, target.userId));
    expect(self.email).toBe(target.email);
    // Acting as a user grants no staff powers.
    const nested = await t.app.inject({
      method: 'POST',
      url: '/api/admin/impersonate',
      headers,
      payload: { userId: colleague.userId },
    });
    expect(nested.statusCode).toBe(403);
    // Nor the staff pages' lists of workspaces and of whom to impersonate.
    for (const url of ['/api/admin/workspaces', `/api/admin/workspaces/${ws.id}/members`]) {
      expect((await t.app.inject({ method: 'GET', url, headers })).statusCode).toBe(403);
    }
  });

  it("cannot change the target's name, first day of week or e-mail subscriptions while impersonating", async () => {
    const staff = await signIn(t, staffEmail());
    const target = await signIn(t);
    await t.db.db.update(users).set({ name: 'Tara Target', firstDayOfWeek: 1 }).where(eq(users.id, target.userId));
    const ws = await createWorkspace(t, { adminUserId: target.userId });
    const other = await createWorkspace(t, { adminUserId: target.userId });
    const subscribed = await call(target, 'POST', '/reporting-subscriptions', {
      payload: { type: 'weeklySummary', workspaceId: ws.id },
    });
    const subscriptionId = subscribed.json().data.id as number;
    const { headers } = await impersonate(staff, target.userId);
    const payload = (workspaceId: number) => ({ payload: { type: 'weeklySummary', workspaceId } });
    const calls = await Promise.all([
      t.app.inject({ method: 'PATCH', url: '/api/me', headers, payload: { name: 'Renamed by staff' } }),
      t.app.inject({ method: 'PATCH', url: '/api/me', headers, payload: { firstDayOfWeek: 0 } }),
      t.app.inject({ method: 'POST', url: '/api/reporting-subscriptions', headers, payload: payload(other.id) }),
      t.app.inject({
        method: 'PUT',
        url: `/api/reporting-subscriptions/${subscriptionId}`,
        headers,
        payload: payload(other.id),
      }),
      t.app.inject({ method: 'DELETE', url: `/api/reporting-subscriptions/${subscriptionId}`, headers }),
      t.app.inject({
        method: 'POST',
        url: '/api/signup',
        headers,
        payload: { name: 'Renamed by staff', company: 'X', esp: ['Mailchimp'], newsletter_opt_in: false },
      }),
    ]);
    for (const res of calls) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: IMPERSONATION_READ_ONLY });
    }
    const [row] = await t.db.db.select().from(users).where(eq(users.id, target.userId));
    expect(row).toMatchObject({ name: 'Tara Target', firstDayOfWeek: 1, signedUpAt: null });
    const subscriptions = await t.app.inject({ method: 'GET', url: '/api/reporting-subscriptions', headers });
    expect(subscriptions.json().data).toEqual([
      { id: subscriptionId, memberId: target.userId, payload: { type: 'weeklySummary', workspaceId: ws.id } },
    ]);
    // Looking around still works, and so does dismissing the getting-started drawer.
    const drawer = await t.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers,
      payload: { showGettingStarted: false },
    });
    expect(drawer.statusCode).toBe(200);
    const session = await t.app.inject({ method: 'GET', url: '/session', headers });
    expect(session.json()).toMatchObject({ user_id: target.userId, impersonated_by: staff.userId });
  });

  it('refuses to impersonate staff, unknown users, or to let non-staff impersonate', async () => {
    const staff = await signIn(t, staffEmail());
    const otherStaff = await signIn(t, staffEmail());
    const user = await signIn(t);
    expect((await impersonate(staff, otherStaff.userId)).res.statusCode).toBe(400);
    expect((await impersonate(staff, 2147483000)).res.statusCode).toBe(404);
    const byUser = await impersonate(user, staff.userId);
    expect(byUser.res.statusCode).toBe(403);
    expect(byUser.headers).toEqual({});
  });
});
