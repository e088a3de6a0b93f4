import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { annotationListResponseSchema } from '../../src/contracts/annotations';
import {
  ALREADY_MEMBER,
  memberListResponseSchema,
  MFA_OTHER_WORKSPACES,
  STAFF_NOT_INVITABLE,
} from '../../src/contracts/members';
import { LOGO_TOO_BIG, LOGO_UNPROCESSABLE, workspaceSchema } from '../../src/contracts/workspaces';
import { SESSION_COOKIE } from '../auth/cookies';
import { sha256 } from '../auth/crypto';
import { invitations, licenses, memberships, outbox, users, workspaceAssets, workspaces } from '../db/schema';
import { addMember, adminWithWorkspace, apiCaller, createWorkspace, signIn, uniqueEmail } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = '----openrate-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('workspaces', () => {
  const t = withTestApp();
  const call = apiCaller(t);

  describe('create', () => {
    it('creates a workspace in status new with the caller as admin', async () => {
      const user = await signIn(t);
      const res = await call(user, 'POST', '/workspaces', { name: ' Team ' });
      expect(res.statusCode).toBe(201);
      const { id } = res.json();
      const ws = workspaceSchema.parse((await call(user, 'GET', `/workspaces/${id}`)).json());
      expect(ws).toMatchObject({ id, name: 'Team', status: 'new', role: 'admin', locale: 'nl_NL', agency: false });
      // It starts with a 'Default Dashboard' its members share.
      const listed = await call(user, 'GET', `/workspaces/${id}/reports`);
      expect(listed.json().data).toMatchObject([
        { type: 'dashboard', title: 'Default Dashboard', share_level: 'workspace' },
      ]);
    });

    it.each([
      [{ name: '' }, 'Name cannot be empty'],
      [{ name: 'x'.repeat(65) }, "We currently don't support more than 64 characters."],
      [{ name: 'Ok', status: 'active' }, 'status'],
      [{ name: 'Ok', id: 1 }, 'id'],
    ])('refuses %p', async (payload, message) => {
      const user = await signIn(t);
      const res = await call(user, 'POST', '/workspaces', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(message);
      const rows = await t.db.db.select().from(memberships).where(eq(memberships.userId, user.userId));
      expect(rows).toHaveLength(0);
    });

    it('adds a workspace to an agency licence only for an admin on that licence', async () => {
      const [license] = await t.db.db.insert(licenses).values({ type: 'agency', holderName: 'Agency X' }).returning();
      const admin = await signIn(t);
      const member = await signIn(t);
      const first = await createWorkspace(t, { adminUserId: admin.userId, licenseId: license.id });
      await addMember(t, first.id, member.userId, 'member');
      const byMember = await call(member, 'POST', '/workspaces', { name: 'Client B', license_id: license.id });
      expect(byMember.statusCode).toBe(404);
      const res = await call(admin, 'POST', '/workspaces', { name: 'Client B', license_id: license.id });
      expect(res.statusCode).toBe(201);
      const agency = await call(admin, 'GET', `/workspaces/${first.id}/agency/workspaces`);
      expect(
        agency
          .json()
          .data.map((w: { id: number }) => w.id)
          .sort(),
      ).toEqual([first.id, res.json().id].sort());
      const me = await call(admin, 'GET', `/workspaces/${first.id}`);
      expect(me.json()).toMatchObject({ agency: true, licenseType: 'agency', licenseHolder: 'Agency X' });
    });

    it('answers the agency listing of a non-agency workspace with Not applicable', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await call(admin, 'GET', `/workspaces/${workspaceId}/agency/workspaces`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Not applicable for this workspace' });
    });
  });

  describe('settings', () => {
    it('lets an admin change name and locale', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await call(admin, 'PUT', `/workspaces/${workspaceId}/settings`, {
        name: 'Renamed',
        locale: 'en_US',
        logo: null,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'Renamed', locale: 'en_US', logo: null });
    });

    it.each([
      [{ name: 'X', locale: 'de_DE' }, 'locale'],
      [{ name: '', locale: 'en_US' }, 'Name cannot be empty'],
      [{ name: 'X', locale: 'en_US', status: 'active' }, 'status'],
      [{ name: 'X', locale: 'en_US', licenseId: 5 }, 'licenseId'],
    ])('refuses %p and writes nothing', async (payload, message) => {
      const { admin, workspaceId } = await adminWithWorkspace(t, { status: 'new' });
      const res = await call(admin, 'PUT', `/workspaces/${workspaceId}/settings`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(message);
      const [row] = await t.db.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
      expect(row).toMatchObject({ status: 'new', locale: 'nl_NL', licenseId: null });
    });

    it("refuses another workspace's logo", async () => {
      const a = await adminWithWorkspace(t);
      const b = await adminWithWorkspace(t);
      const assetId = `${randomBytes(8).toString('hex')}.png`;
      await t.db.db.insert(workspaceAssets).values({
        id: assetId,
        workspaceId: b.workspaceId,
        contentType: 'image/png',
        data: Buffer.from('x'),
      });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/workspaces/${a.workspaceId}/settings`,
        headers: a.admin.headers,
        payload: { name: 'A', locale: 'en_US', logo: assetId },
      });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('logo upload', () => {
    const upload = (workspaceId: number, headers: Record<string, string>, file: ReturnType<typeof multipart>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/assets`,
        headers: { ...headers, 'content-type': file.contentType },
        payload: file.payload,
      });

    it('re-encodes an image as PNG without metadata and serves it with nosniff', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366cc' } })
        .jpeg()
        .withExif({ IFD0: { Copyright: 'SECRET-OWNER-42' } })
        .toBuffer();
      expect(jpeg.includes('SECRET-OWNER-42')).toBe(true);
      const res = await upload(workspaceId, admin.headers, multipart('logo.jpg', 'image/jpeg', jpeg));
      expect(res.statusCode).toBe(201);
      const { asset_id: assetId } = res.json();
      const served = await t.app.inject({ method: 'GET', url: `/api/assets/workspaces/${workspaceId}/${assetId}` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.includes('SECRET-OWNER-42')).toBe(false);
      expect((await sharp(served.rawPayload).metadata()).format).toBe('png');
      const saved = await call(admin, 'PUT', `/workspaces/${workspaceId}/settings`, {
        name: 'With logo',
        locale: 'nl_NL',
        logo: assetId,
      });
      expect(saved.json().logo).toBe(assetId);
      const elsewhere = await t.app.inject({
        method: 'GET',
        url: `/api/assets/workspaces/${workspaceId + 1}/${assetId}`,
      });
      expect(elsewhere.statusCode).toBe(404);
    });

    it('refuses 2 MiB + 1 byte as too big', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await upload(
        workspaceId,
        admin.headers,
        multipart('big.png', 'image/png', Buffer.alloc(2 * 1024 * 1024 + 1, 1)),
      );
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: LOGO_TOO_BIG });
    });

    it.each([
      ['HTML named .png', 'evil.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>')],
      [
        'an SVG with a script',
        'logo.svg',
        'image/svg+xml',
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
        ),
      ],
    ])('refuses %s', async (_label, name, type, data) => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await upload(workspaceId, admin.headers, multipart(name, type, data));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: LOGO_UNPROCESSABLE });
      const stored = await t.db.db.select().from(workspaceAssets).where(eq(workspaceAssets.workspaceId, workspaceId));
      expect(stored).toHaveLength(0);
    });

    it('refuses a decompression bomb: a small file with too many pixels', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const bomb = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#000' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
      const res = await upload(workspaceId, admin.headers, multipart('bomb.png', 'image/png', bomb));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: LOGO_UNPROCESSABLE });
    });

    it('is for admins only', async () => {
      const { workspaceId } = await adminWithWorkspace(t);
      const member = await signIn(t);
      await addMember(t, workspaceId, member.userId, 'member');
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      const res = await upload(workspaceId, member.headers, multipart('a.png', 'image/png', png));
      expect(res.statusCode).toBe(403);
    });
  });

  describe('delete', () => {
    it('refuses to delete an active workspace', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t, { status: 'active' });
      const res = await call(admin, 'DELETE', `/workspaces/${workspaceId}`);
      expect(res.statusCode).toBe(400);
      expect(await t.db.db.select().from(workspaces).where(eq(workspaces.id, workspaceId))).toHaveLength(1);
    });

    it('deletes a new workspace and sends the user to onboarding when no licence sibling is left', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t, { status: 'new' });
      const res = await call(admin, 'DELETE', `/workspaces/${workspaceId}`);
      expect(res.json()).toEqual({ next_workspace_id: null, redirect: '/onboarding' });
      expect(await t.db.db.select().from(workspaces).where(eq(workspaces.id, workspaceId))).toHaveLength(0);
    });

    it("goes to the licence's next workspace (agency page) after deleting an agency workspace", async () => {
      const [license] = await t.db.db.insert(licenses).values({ type: 'agency', holderName: 'Agency Y' }).returning();
      const admin = await signIn(t);
      const keep = await createWorkspace(t, { adminUserId: admin.userId, licenseId: license.id });
      const gone = await createWorkspace(t, { adminUserId: admin.userId, licenseId: license.id, status: 'cancelled' });
      const res = await call(admin, 'DELETE', `/workspaces/${gone.id}`);
      expect(res.json()).toEqual({ next_workspace_id: keep.id, redirect: `/workspaces/${keep.id}/settings/agency` });
    });

    it('is for admins only', async () => {
      const { workspaceId } = await adminWithWorkspace(t, { status: 'new' });
      const member = await signIn(t);
      await addMember(t, workspaceId, member.userId, 'member');
      const res = await call(member, 'DELETE', `/workspaces/${workspaceId}`);
      expect(res.statusCode).toBe(403);
    });
  });

  describe('flags and activation', () => {
    it('lists workspace flags to members', async () => {
      const admin = await signIn(t);
      const ws = await createWorkspace(t, { adminUserId: admin.userId, features: ['grid_layout', 'engagement'] });
      const res = await call(admin, 'GET', `/workspaces/${ws.id}/flags`);
      expect(res.json()).toEqual({ data: ['engagement', 'grid_layout'] });
    });

    it('records a demo activation request for a new workspace only', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t, { status: 'new' });
      const res = await call(admin, 'POST', `/workspaces/${workspaceId}/activation-request`);
      expect(res.json()).toEqual({ ok: true });
      const ws = await call(admin, 'GET', `/workspaces/${workspaceId}`);
      expect(ws.json().activationRequested).toBe(true);
      const active = await adminWithWorkspace(t, { status: 'active' });
      const refused = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${active.workspaceId}/activation-request`,
        headers: active.admin.headers,
      });
      expect(refused.json()).toEqual({ error: 'Not applicable for this workspace' });
    });
  });

  describe('members', () => {
    async function listOf(workspaceId: number, headers: Record<string, string>) {
      const res = await t.app.inject({ method: 'GET', url: `/api/workspaces/${workspaceId}/members`, headers });
      return memberListResponseSchema.parse(res.json());
    }

    it('invites by e-mail with role member by default, and lists the address as invited until accepted', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const email = uniqueEmail();
      const res = await call(admin, 'POST', `/workspaces/${workspaceId}/members`, { email: email.toUpperCase() });
      expect(res.statusCode).toBe(201);
      expect(Object.keys(res.json().data).sort()).toEqual(['email', 'expired', 'expiresAt', 'id', 'invitedAt', 'role']);
      expect(res.json().data).toMatchObject({ email, role: 'member', expired: false });
      const [mail] = await t.db.db.select().from(outbox).where(eq(outbox.to, email));
      expect(mail.link).toMatch(/^http:\/\/localhost\/api\/invitations\/[\w-]{43}$/);
      const list = await listOf(workspaceId, admin.headers);
      expect(list.data.map((m) => m.email)).not.toContain(email);
      expect(list.invitations.map((i) => i.email)).toEqual([email]);
      // No account is made before the invitee accepts.
      expect(await t.db.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

      const again = await call(admin, 'POST', `/workspaces/${workspaceId}/members`, { email, role: 'admin' });
      expect(again.statusCode).toBe(201);
      const relisted = await listOf(workspaceId, admin.headers);
      expect(relisted.invitations).toEqual([expect.objectContaining({ email, role: 'admin' })]);
      // The first link stops working once a new one is sent.
      const first = await t.app.inject({ method: 'GET', url: new URL(mail.link!).pathname });
      expect(first.headers.location).toBe('/registration-error?reason=token_not_found');
    });

    it('leaves one pending invitation when the same address is invited many times at once', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const email = uniqueEmail();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call(admin, 'POST', `/workspaces/${workspaceId}/members`, { email })),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array(10).fill(201));
      expect((await listOf(workspaceId, admin.headers)).invitations).toHaveLength(1);
    });

    it('refuses to invite someone who is already a member', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const member = await signIn(t);
      await addMember(t, workspaceId, member.userId, 'member');
      const res = await call(admin, 'POST', `/workspaces/${workspaceId}/members`, { email: member.email });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: ALREADY_MEMBER });
    });

    it('inviting an existing account neither joins it nor tells anything about it', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const victim = await signIn(t);
      await t.db.db
        .update(users)
        .set({ name: 'Victor Tim', mfaSecret: 'JBSWY3DPEHPK3PXP', lastSeenAt: new Date() })
        .where(eq(users.id, victim.userId));
      const res = await call(admin, 'POST', `/workspaces/${workspaceId}/members`, { email: victim.email });
      expect(res.statusCode).toBe(201);
      expect(res.body).not.toContain('Victor');
      expect(res.json().data).not.toHaveProperty('mfaEnabled');
      expect(res.json().data).not.toHaveProperty('lastSeen');
      const list = await listOf(workspaceId, admin.headers);
      expect(JSON.stringify(list)).not.toContain('Victor');
      expect(list.data.map((m) => m.id)).not.toContain(victim.userId);

      const base = `/api/workspaces/${workspaceId}/members/${victim.userId}`;
      const mfa = await t.app.inject({ method: 'DELETE', url: `${base}/mfa`, headers: admin.headers });
      const name = await t.app.inject({
        method: 'PUT',
        url: `${base}/name`,
        headers: admin.headers,
        payload: { name: 'Hacked' },
      });
      expect([mfa.statusCode, name.statusCode]).toEqual([404, 404]);
      const [row] = await t.db.db.select().from(users).where(eq(users.id, victim.userId));
      expect(row).toMatchObject({ name: 'Victor Tim', mfaSecret: 'JBSWY3DPEHPK3PXP' });
      expect(await t.db.db.select().from(memberships).where(eq(memberships.userId, victim.userId))).toHaveLength(0);
    });

    it('refuses to invite a product-staff account, and writes nothing', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const staff = `support-${randomBytes(4).toString('hex')}@${t.config.STAFF_EMAIL_DOMAIN}`;
      const res = await call(admin, 'POST', `/workspaces/${workspaceId}/members`, { email: staff.toUpperCase() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: STAFF_NOT_INVITABLE });
      expect(await t.db.db.select().from(invitations).where(eq(invitations.email, staff))).toHaveLength(0);
      expect(await t.db.db.select().from(outbox).where(eq(outbox.to, staff))).toHaveLength(0);
    });

    it('lets an admin withdraw a pending invitation, of its own workspace only', async () => {
      const mine = await adminWithWorkspace(t);
      const theirs = await adminWithWorkspace(t);
      const email = uniqueEmail();
      const invite = async (workspaceId: number, headers: Record<string, string>) =>
        (
          await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${workspaceId}/members`,
            headers,
            payload: { email },
          })
        ).json().data.id as number;
      const myInvitation = await invite(mine.workspaceId, mine.admin.headers);
      const theirInvitation = await invite(theirs.workspaceId, theirs.admin.headers);
      const across = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${mine.workspaceId}/invitations/${theirInvitation}`,
        headers: mine.admin.headers,
      });
      expect(across.statusCode).toBe(404);
      expect((await listOf(theirs.workspaceId, theirs.admin.headers)).invitations).toHaveLength(1);
      const withdrawn = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${mine.workspaceId}/invitations/${myInvitation}`,
        headers: mine.admin.headers,
      });
      expect(withdrawn.json()).toEqual({ ok: true });
      expect((await listOf(mine.workspaceId, mine.admin.headers)).invitations).toEqual([]);
      const mails = await t.db.db.select().from(outbox).where(eq(outbox.to, email));
      const links = mails.map((mail) => new URL(mail.link!).pathname);
      const locations = await Promise.all(
        links.map(async (path) => (await t.app.inject({ method: 'GET', url: path })).headers.location),
      );
      expect(locations).toContain('/registration-error?reason=token_not_found');
    });

    describe('invitation link', () => {
      async function invite(email: string, role: 'admin' | 'member' = 'member') {
        const { admin, workspaceId } = await adminWithWorkspace(t);
        await call(admin, 'POST', `/workspaces/${workspaceId}/members`, { email, role });
        const [mail] = await t.db.db.select().from(outbox).where(eq(outbox.to, email));
        return { admin, workspaceId, path: new URL(mail.link!).pathname };
      }

      it('registers, signs in and adds a new person once, with the invited role', async () => {
        const email = uniqueEmail();
        const { admin, workspaceId, path } = await invite(email, 'admin');
        const res = await t.app.inject({ method: 'GET', url: path });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe(`/workspaces/${workspaceId}`);
        const session = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
        const me = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: session } });
        expect(me.json()).toMatchObject({ email, needsName: true });
        expect(me.json().workspaces).toEqual([expect.objectContaining({ id: workspaceId, role: 'admin' })]);
        const list = await listOf(workspaceId, admin.headers);
        expect(list.invitations).toEqual([]);
        expect(list.data).toContainEqual(expect.objectContaining({ email, role: 'admin' }));
        const again = await t.app.inject({ method: 'GET', url: path });
        expect(again.headers.location).toBe('/registration-error?reason=token_already_used');
        expect(again.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      });

      it('joins an existing account only when it is signed in as itself', async () => {
        const existing = await signIn(t);
        await call(existing, 'GET', '/me');
        const { workspaceId, path } = await invite(existing.email);
        const stranger = await signIn(t);
        const browsers: Record<string, string>[] = [{}, { [SESSION_COOKIE]: stranger.session }];
        for (const cookies of browsers) {
          const res = await t.app.inject({ method: 'GET', url: path, cookies });
          expect(res.headers.location).toBe('/registration-error?reason=sign_in_to_accept');
          expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
        }
        expect(await t.db.db.select().from(memberships).where(eq(memberships.userId, existing.userId))).toHaveLength(0);
        const accepted = await t.app.inject({
          method: 'GET',
          url: path,
          cookies: { [SESSION_COOKIE]: existing.session },
        });
        expect(accepted.headers.location).toBe(`/workspaces/${workspaceId}`);
        // The browser keeps its session: nothing was signed in by the link.
        expect(accepted.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
        const [membership] = await t.db.db.select().from(memberships).where(eq(memberships.userId, existing.userId));
        expect(membership).toMatchObject({ workspaceId, role: 'member' });
      });

      it('never admits a staff address, even through an invitation made before staff were refused', async () => {
        const { admin, workspaceId } = await adminWithWorkspace(t);
        const staff = `support-${randomBytes(4).toString('hex')}@${t.config.STAFF_EMAIL_DOMAIN}`;
        const token = randomBytes(32).toString('base64url');
        await t.db.db.insert(invitations).values({
          tokenHash: sha256(token),
          workspaceId,
          email: staff,
          invitedBy: admin.userId,
          expiresAt: new Date(Date.now() + 60_000),
        });
        const res = await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` });
        expect(res.headers.location).toBe('/registration-error?reason=token_not_found');
        expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
        expect((await listOf(workspaceId, admin.headers)).data.map((m) => m.email)).not.toContain(staff);
      });

      it('refuses an expired or unknown link', async () => {
        const email = uniqueEmail();
        const { path } = await invite(email);
        await t.db.db
          .update(invitations)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(invitations.email, email));
        expect((await t.app.inject({ method: 'GET', url: path })).headers.location).toBe(
          '/registration-error?reason=token_expired',
        );
        const unknown = await t.app.inject({ method: 'GET', url: '/api/invitations/not-a-real-token' });
        expect(unknown.headers.location).toBe('/registration-error?reason=token_not_found');
      });
    });

    it.each([
      [{ email: 'nope' }, 'Please enter a valid email address'],
      [{ email: ['a@example.com', 'b@example.com'] }, 'email'],
      [{ email: 'ok@example.com', role: 'owner' }, 'role'],
      [{ email: 'ok@example.com', workspaceId: 1 }, 'workspaceId'],
    ])('refuses the invite %p and writes nothing', async (payload, message) => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await call(admin, 'POST', `/workspaces/${workspaceId}/members`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(message);
      const rows = await t.db.db.select().from(memberships).where(eq(memberships.workspaceId, workspaceId));
      expect(rows).toHaveLength(1);
    });

    it('renames a member, changes a role, removes MFA and removes a member', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const member = await signIn(t);
      await addMember(t, workspaceId, member.userId, 'member');
      await t.db.db.update(users).set({ mfaSecret: 'JBSWY3DPEHPK3PXP' }).where(eq(users.id, member.userId));
      const base = `/api/workspaces/${workspaceId}/members/${member.userId}`;

      const empty = await t.app.inject({
        method: 'PUT',
        url: `${base}/name`,
        headers: admin.headers,
        payload: { name: ' ' },
      });
      expect(empty.json().error).toContain('Name cannot be empty');
      const named = await t.app.inject({
        method: 'PUT',
        url: `${base}/name`,
        headers: admin.headers,
        payload: { name: 'Mia' },
      });
      expect(named.json().data.name).toBe('Mia');
      // The admin names the membership; the account keeps the name its holder gave it.
      const [account] = await t.db.db.select().from(users).where(eq(users.id, member.userId));
      expect(account.name).toBe(member.email);
      const role = await t.app.inject({
        method: 'PUT',
        url: `${base}/role`,
        headers: admin.headers,
        payload: { role: 'admin' },
      });
      expect(role.json().data.role).toBe('admin');
      const mfa = await t.app.inject({ method: 'DELETE', url: `${base}/mfa`, headers: admin.headers });
      expect(mfa.json().data.mfaEnabled).toBe(false);
      const mfaAgain = await t.app.inject({ method: 'DELETE', url: `${base}/mfa`, headers: admin.headers });
      expect(mfaAgain.statusCode).toBe(400);
      const removed = await call(admin, 'DELETE', `/workspaces/${workspaceId}/members`, { member_id: member.userId });
      expect(removed.json()).toEqual({ ok: true });
      const after = await call(member, 'GET', `/workspaces/${workspaceId}`);
      expect(after.statusCode).toBe(404);
    });

    it("ends an admin's power over a member at the workspace: other workspaces keep their name and MFA", async () => {
      const mine = await adminWithWorkspace(t);
      const theirs = await adminWithWorkspace(t);
      const shared = await signIn(t);
      await addMember(t, mine.workspaceId, shared.userId, 'member');
      await addMember(t, theirs.workspaceId, shared.userId, 'member');
      await t.db.db
        .update(users)
        .set({ name: 'Sam Shared', mfaSecret: 'JBSWY3DPEHPK3PXP' })
        .where(eq(users.id, shared.userId));
      const base = `/api/workspaces/${mine.workspaceId}/members/${shared.userId}`;

      const mfa = await t.app.inject({ method: 'DELETE', url: `${base}/mfa`, headers: mine.admin.headers });
      expect(mfa.statusCode).toBe(403);
      expect(mfa.json()).toEqual({ error: MFA_OTHER_WORKSPACES });
      const named = await t.app.inject({
        method: 'PUT',
        url: `${base}/name`,
        headers: mine.admin.headers,
        payload: { name: 'Renamed Here' },
      });
      expect(named.json().data.name).toBe('Renamed Here');
      const elsewhere = await listOf(theirs.workspaceId, theirs.admin.headers);
      expect(elsewhere.data.find((m) => m.id === shared.userId)).toMatchObject({
        name: 'Sam Shared',
        mfaEnabled: true,
      });
      const me = await call(shared, 'GET', '/me');
      expect(me.json().name).toBe('Sam Shared');

      // An admin of every workspace the member belongs to may remove it.
      await addMember(t, theirs.workspaceId, mine.admin.userId, 'admin');
      const allowed = await t.app.inject({ method: 'DELETE', url: `${base}/mfa`, headers: mine.admin.headers });
      expect(allowed.json().data.mfaEnabled).toBe(false);
    });

    it('never changes its own role or membership', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const role = await call(admin, 'PUT', `/workspaces/${workspaceId}/members/${admin.userId}/role`, {
        role: 'member',
      });
      expect(role.statusCode).toBe(400);
      const remove = await call(admin, 'DELETE', `/workspaces/${workspaceId}/members`, { member_id: admin.userId });
      expect(remove.statusCode).toBe(400);
      const [row] = await t.db.db.select().from(memberships).where(eq(memberships.userId, admin.userId));
      expect(row.role).toBe('admin');
    });

    it.each([':id', 'null', '-1', '0', 'abc'])('refuses the member id %p', async (id) => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await call(admin, 'PUT', `/workspaces/${workspaceId}/members/${id}/role`, { role: 'admin' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Invalid member id' });
    });

    it("cannot touch a member of another workspace through its own workspace's routes", async () => {
      const mine = await adminWithWorkspace(t);
      const theirs = await adminWithWorkspace(t);
      const victim = await signIn(t);
      await addMember(t, theirs.workspaceId, victim.userId, 'member');
      const base = `/api/workspaces/${mine.workspaceId}/members/${victim.userId}`;
      const calls = [
        t.app.inject({ method: 'PUT', url: `${base}/name`, headers: mine.admin.headers, payload: { name: 'Hacked' } }),
        t.app.inject({ method: 'PUT', url: `${base}/role`, headers: mine.admin.headers, payload: { role: 'admin' } }),
        t.app.inject({ method: 'DELETE', url: `${base}/mfa`, headers: mine.admin.headers }),
        t.app.inject({
          method: 'DELETE',
          url: `/api/workspaces/${mine.workspaceId}/members`,
          headers: mine.admin.headers,
          payload: { member_id: victim.userId },
        }),
      ];
      for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(404);
      const [row] = await t.db.db.select().from(users).where(eq(users.id, victim.userId));
      expect(row.name).toBe(victim.email);
      expect(await t.db.db.select().from(memberships).where(eq(memberships.userId, victim.userId))).toHaveLength(1);
    });

    const annotation = { message: 'x', date_start: '2024-01-01', date_end: '2024-01-02' };
    it.each([
      ['GET', '/members', undefined],
      ['POST', '/members', { email: 'x@example.com' }],
      ['PUT', '/members/1/name', { name: 'X' }],
      ['PUT', '/members/1/role', { role: 'admin' }],
      ['DELETE', '/members', { member_id: 1 }],
      ['DELETE', '/members/1/mfa', undefined],
      ['DELETE', '/invitations/1', undefined],
      ['GET', '', undefined],
      ['PUT', '/settings', { name: 'X', locale: 'en_US' }],
      ['DELETE', '', undefined],
      ['GET', '/flags', undefined],
      ['POST', '/activation-request', undefined],
      ['GET', '/annotations', undefined],
      ['POST', '/annotations', annotation],
      ['PUT', '/annotations/1', annotation],
      ['DELETE', '/annotations/1', undefined],
      ['GET', '/agency/workspaces', undefined],
    ] as const)('answers %s %s of a workspace the caller is not in with 404', async (method, path, payload) => {
      const { workspaceId } = await adminWithWorkspace(t, { status: 'new' });
      const outsider = await signIn(t);
      const res = await call(outsider, method, `/workspaces/${workspaceId}${path}`, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found' });
      expect(await t.db.db.select().from(workspaces).where(eq(workspaces.id, workspaceId))).toHaveLength(1);
    });

    it.each([
      ['POST', '/members', { email: 'x@example.com' }],
      ['PUT', '/members/1/name', { name: 'X' }],
      ['PUT', '/members/1/role', { role: 'admin' }],
      ['DELETE', '/members', { member_id: 1 }],
      ['DELETE', '/members/1/mfa', undefined],
      ['DELETE', '/invitations/1', undefined],
      ['PUT', '/settings', { name: 'X', locale: 'en_US' }],
      ['DELETE', '', undefined],
    ] as const)('answers a member calling the admin route %s %s with 403', async (method, path, payload) => {
      const { workspaceId } = await adminWithWorkspace(t, { status: 'new' });
      const member = await signIn(t);
      await addMember(t, workspaceId, member.userId, 'member');
      const res = await call(member, method, `/workspaces/${workspaceId}${path}`, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'Forbidden' });
    });
  });

  describe('annotations', () => {
    const valid = { severity: 'critical', message: 'Black Friday', date_start: '2024-11-29', date_end: '2024-12-02' };

    it('creates, lists, updates and deletes with the creator named', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const created = await call(admin, 'POST', `/workspaces/${workspaceId}/annotations`, valid);
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id;
      const put = await call(admin, 'PUT', `/workspaces/${workspaceId}/annotations/${id}`, {
        ...valid,
        id,
        workspace_id: workspaceId + 999,
        message: 'Cyber Monday',
      });
      expect(put.statusCode).toBe(200);
      const list = annotationListResponseSchema.parse(
        (await call(admin, 'GET', `/workspaces/${workspaceId}/annotations`)).json(),
      );
      expect(list.data).toEqual([
        expect.objectContaining({
          id,
          workspace_id: workspaceId,
          severity: 'critical',
          message: 'Cyber Monday',
          date_start: '2024-11-29',
          date_end: '2024-12-02',
          created_by_id: admin.userId,
          created_by_email: admin.email,
        }),
      ]);
      const del = await call(admin, 'DELETE', `/workspaces/${workspaceId}/annotations/${id}`);
      expect(del.statusCode).toBe(200);
      const again = await call(admin, 'DELETE', `/workspaces/${workspaceId}/annotations/${id}`);
      expect(again.statusCode).toBe(404);
    });

    it.each([
      [{ message: '' }, 'Please provide a message'],
      [{ date_start: undefined }, 'Please select a date range'],
      [{ date_end: '2024-02-30' }, 'Please select a date range'],
      [{ date_start: '1999-12-31' }, 'Please select a date range'],
      [{ date_start: '2024-12-03' }, 'Start date of period must be before the end date'],
      [{ severity: 'urgent' }, 'severity'],
    ])('refuses %p', async (change, message) => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await call(admin, 'POST', `/workspaces/${workspaceId}/annotations`, { ...valid, ...change });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(message);
    });

    it('answers an inverted period in the spec words', async () => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await call(admin, 'POST', `/workspaces/${workspaceId}/annotations`, {
        ...valid,
        date_start: '2024-12-05',
      });
      expect(res.json()).toEqual({ error: 'Start date of period must be before the end date' });
    });

    it("cannot change another workspace's annotation through its own workspace", async () => {
      const mine = await adminWithWorkspace(t);
      const theirs = await adminWithWorkspace(t);
      const created = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${theirs.workspaceId}/annotations`,
        headers: theirs.admin.headers,
        payload: valid,
      });
      const id = created.json().data.id;
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/workspaces/${mine.workspaceId}/annotations/${id}`,
        headers: mine.admin.headers,
        payload: { ...valid, message: 'Hacked' },
      });
      expect(put.statusCode).toBe(404);
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${mine.workspaceId}/annotations/${id}`,
        headers: mine.admin.headers,
      });
      expect(del.statusCode).toBe(404);
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${theirs.workspaceId}/annotations`,
        headers: theirs.admin.headers,
      });
      expect(list.json().data[0].message).toBe('Black Friday');
    });

    it.each([':id', 'null', '-1', '0'])('refuses the annotation id %p', async (id) => {
      const { admin, workspaceId } = await adminWithWorkspace(t);
      const res = await call(admin, 'DELETE', `/workspaces/${workspaceId}/annotations/${id}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Invalid annotation id' });
    });
  });
});
