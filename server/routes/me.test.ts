import { eq } from 'drizzle-orm';
import { meResponseSchema, mfaSetupResponseSchema, subscriptionListResponseSchema } from '../../src/contracts/me';
import { totpFor } from '../auth/totp';
import { userFlags, users } from '../db/schema';
import { addMember, apiCaller, createWorkspace, signIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

describe('/api/me', () => {
  const t = withTestApp();
  const call = apiCaller(t);

  const userRow = async (id: number) => (await t.db.db.select().from(users).where(eq(users.id, id)))[0];

  it('gives the initial data: workspaces sorted by name with role, and what onboarding still needs', async () => {
    const user = await signIn(t);
    const fresh = await call(user, 'GET', '/me');
    expect(fresh.statusCode).toBe(200);
    const empty = meResponseSchema.parse(fresh.json());
    expect(empty).toMatchObject({
      memberId: user.userId,
      email: user.email,
      workspaces: [],
      needsName: true,
      needsWorkspace: true,
      onboardingRequired: true,
      mfaEnabled: false,
      isStaff: false,
      impersonatedBy: null,
    });

    const other = await signIn(t);
    const b = await createWorkspace(t, { name: 'Bravo', adminUserId: user.userId, features: ['engagement'] });
    const a = await createWorkspace(t, { name: 'Alpha', adminUserId: other.userId, status: 'new', locale: 'en_GB' });
    await addMember(t, a.id, user.userId, 'member');
    await call(user, 'PATCH', '/me', { name: 'Ann Example' });
    const me = meResponseSchema.parse((await call(user, 'GET', '/me')).json());
    expect(me.workspaces.map((w) => [w.id, w.name, w.role, w.status, w.locale])).toEqual([
      [a.id, 'Alpha', 'member', 'new', 'en_GB'],
      [b.id, 'Bravo', 'admin', 'active', 'nl_NL'],
    ]);
    expect(me.workspaces[1].features).toEqual(['engagement']);
    expect(me).toMatchObject({
      name: 'Ann Example',
      needsName: false,
      needsWorkspace: false,
      onboardingRequired: false,
    });
    expect((await userRow(user.userId)).lastSeenAt).not.toBeNull();
  });

  it('answers 401 when signed out', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
  });

  it('updates the name, first day of week and getting-started flag', async () => {
    const user = await signIn(t);
    const res = await call(user, 'PATCH', '/me', { name: '  Bo  ', firstDayOfWeek: 0, showGettingStarted: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Bo', firstDayOfWeek: 0, showGettingStarted: false });
  });

  it.each([
    [{ name: '' }, 'Your name should contain at least 1 character'],
    [{ name: 'x'.repeat(257) }, "We currently don't support more than 256 characters."],
    [{ firstDayOfWeek: 7 }, 'firstDayOfWeek'],
    [{ name: 'Mallory', email: 'mallory@example.com' }, 'email'],
    [{ name: 'Mallory', id: 1 }, 'id'],
    [{ name: 'Mallory', mfaSecret: null }, 'mfaSecret'],
    [{ name: ['a', 'b'] }, 'name'],
  ])('refuses %p and writes nothing', async (payload, message) => {
    const user = await signIn(t);
    const res = await call(user, 'PATCH', '/me', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
    const row = await userRow(user.userId);
    expect(row).toMatchObject({ name: user.email, email: user.email, firstDayOfWeek: 1 });
  });

  it('lists the user feature flags', async () => {
    const user = await signIn(t);
    await t.db.db.insert(userFlags).values([
      { userId: user.userId, flag: 'zeta' },
      { userId: user.userId, flag: 'alpha' },
    ]);
    const res = await call(user, 'GET', '/me/flags');
    expect(res.json()).toEqual({ data: ['alpha', 'zeta'] });
  });

  describe('two-factor settings', () => {
    async function setup(headers: Record<string, string>) {
      const res = await t.app.inject({ method: 'POST', url: '/api/me/mfa/setup', headers });
      expect(res.statusCode).toBe(200);
      return mfaSetupResponseSchema.parse(res.json());
    }

    it('sets up with a QR code, enables with a valid code, refuses the code again, disables with a new one', async () => {
      const user = await signIn(t);
      const offer = await setup(user.headers);
      expect(offer.uri).toMatch(/^otpauth:\/\/totp\/Openrate:.*algorithm=SHA1&digits=6&period=30/);
      expect(offer.qr).toMatch(/^data:image\/png;base64,/);
      const totp = totpFor(offer.secret, user.email);
      const wrong = await call(user, 'POST', '/me/mfa', { secret: offer.secret, token: '000000' });
      expect(wrong.json()).toEqual({ error: 'invalid_token' });
      const code = totp.generate();
      const enabled = await call(user, 'POST', '/me/mfa', { secret: offer.secret, token: code });
      expect(enabled.json()).toEqual({ mfaEnabled: true });
      expect((await userRow(user.userId)).mfaSecret).toBe(offer.secret);

      // The code that enabled it was used: it cannot also turn it off.
      const replay = await call(user, 'DELETE', '/me/mfa', { token: code });
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({ error: 'invalid_token' });
      expect((await userRow(user.userId)).mfaSecret).toBe(offer.secret);

      const next = totp.generate({ timestamp: Date.now() + 30_000 });
      const disabled = await call(user, 'DELETE', '/me/mfa', { token: next });
      expect(disabled.json()).toEqual({ mfaEnabled: false });
      expect((await userRow(user.userId)).mfaSecret).toBeNull();
    });

    it('refuses a secret the server did not offer', async () => {
      const user = await signIn(t);
      await setup(user.headers);
      const forged = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      const res = await call(user, 'POST', '/me/mfa', {
        secret: forged,
        token: totpFor(forged, user.email).generate(),
      });
      expect(res.json()).toEqual({ error: 'invalid_token' });
      expect((await userRow(user.userId)).mfaSecret).toBeNull();
    });

    it('refuses a too-short token as invalid_token', async () => {
      const user = await signIn(t);
      const res = await call(user, 'DELETE', '/me/mfa', { token: '123' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_token' });
    });
  });

  describe('signup', () => {
    const valid = { name: 'Sam Signup', company: 'Acme', esp: ['Klaviyo'], newsletter_opt_in: true };

    it('stores the older onboarding form once', async () => {
      const user = await signIn(t);
      const res = await call(user, 'POST', '/signup', valid);
      expect(res.statusCode).toBe(200);
      expect(await userRow(user.userId)).toMatchObject({
        name: 'Sam Signup',
        company: 'Acme',
        esp: ['Klaviyo'],
        newsletterOptIn: true,
      });
      const again = await call(user, 'POST', '/signup', valid);
      expect(again.json()).toEqual({ error: 'account_already_exists' });
    });

    it.each([
      [{ company: '' }, 'The company name should contain at least 1 character'],
      [{ company: 'x'.repeat(31) }, "We currently don't support more than 30 characters."],
      [{ esp: [] }, 'To proceed, choose at least one automation tool'],
      [{ newsletter_opt_in: 'yes' }, 'newsletter_opt_in'],
      [{ name: '' }, 'Your name should contain at least 1 character'],
    ])('refuses %p', async (change, message) => {
      const user = await signIn(t);
      const res = await call(user, 'POST', '/signup', { ...valid, ...change });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(message);
      expect((await userRow(user.userId)).signedUpAt).toBeNull();
    });
  });

  it('answers validation problems the spec words itself with exactly those words', async () => {
    const user = await signIn(t);
    const res = await call(user, 'POST', '/signup', {
      name: 'Sam',
      company: 'x'.repeat(31),
      esp: ['Klaviyo'],
      newsletter_opt_in: false,
    });
    expect(res.json()).toEqual({ error: "We currently don't support more than 30 characters." });
  });

  describe('reporting subscriptions', () => {
    it('creates, lists and deletes a weekly summary for a workspace of the user', async () => {
      const user = await signIn(t);
      const ws = await createWorkspace(t, { adminUserId: user.userId });
      const created = await call(user, 'POST', '/reporting-subscriptions', {
        payload: { type: 'weeklySummary', workspaceId: ws.id },
      });
      expect(created.statusCode).toBe(201);
      const list = subscriptionListResponseSchema.parse((await call(user, 'GET', '/reporting-subscriptions')).json());
      expect(list.data).toEqual([
        { id: created.json().data.id, memberId: user.userId, payload: { type: 'weeklySummary', workspaceId: ws.id } },
      ]);
      const del = await call(user, 'DELETE', `/reporting-subscriptions/${list.data[0].id}`);
      expect(del.statusCode).toBe(200);
      const after = await call(user, 'GET', '/reporting-subscriptions');
      expect(after.json()).toEqual({ data: [] });
    });

    it("refuses another workspace's id and another user's subscription", async () => {
      const user = await signIn(t);
      const other = await signIn(t);
      const foreign = await createWorkspace(t, { adminUserId: other.userId });
      const res = await call(user, 'POST', '/reporting-subscriptions', {
        payload: { type: 'weeklySummary', workspaceId: foreign.id },
      });
      expect(res.statusCode).toBe(404);
      const theirs = await call(other, 'POST', '/reporting-subscriptions', {
        payload: { type: 'weeklySummary', workspaceId: foreign.id },
      });
      const id = theirs.json().data.id;
      expect((await call(user, 'DELETE', `/reporting-subscriptions/${id}`)).statusCode).toBe(404);
      const put = await call(user, 'PUT', `/reporting-subscriptions/${id}`, {
        id,
        memberId: user.userId,
        payload: { type: 'weeklySummary', workspaceId: foreign.id },
      });
      expect(put.statusCode).toBe(404);
      const still = await call(other, 'GET', '/reporting-subscriptions');
      expect(still.json().data).toHaveLength(1);
    });

    it.each(['abc', '0', '-1', 'null'])('refuses the subscription id %p', async (id) => {
      const user = await signIn(t);
      const res = await call(user, 'DELETE', `/reporting-subscriptions/${id}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Invalid subscription id' });
    });
  });
});
