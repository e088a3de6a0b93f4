import { randomInt } from 'node:crypto';
import { count, eq, like, sql } from 'drizzle-orm';
import { SIGNED_IN_HINT_COOKIE } from '../../src/contracts/cookies';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { LOGIN_COOKIE, SESSION_COOKIE } from '../auth/cookies';
import { newTotpSecret, totpFor } from '../auth/totp';
import { loginTokens, outbox, rateLimitHits, users } from '../db/schema';
import { sessionHeaders, signIn, solvedToken, startEmailLogin, TEST_ORIGIN, uniqueEmail } from '../testing/fixtures';
import { createTestApp, withTestApp, type TestApp } from '../testing/testApp';

const api = { origin: TEST_ORIGIN, 'x-requested-with': 'openrate' };
/** A client address of its own per test, so rate limits of one test never touch another. */
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** A user with two-factor sign-in, the e-mail step that gives a pending session, and the TOTP step. */
function twoFactorSteps(app: () => TestApp) {
  async function mfaUser() {
    const email = uniqueEmail();
    const secret = newTotpSecret();
    await app().db.db.insert(users).values({ email, name: 'Two Factor', mfaSecret: secret });
    return { email, secret };
  }

  async function emailStep(email: string) {
    const login = await startEmailLogin(app(), email);
    const res = await app().app.inject({
      method: 'GET',
      url: `/api/login/email/${login.token}/check?code=${login.code}`,
      headers: { 'x-requested-with': 'openrate' },
      cookies: { [LOGIN_COOKIE]: login.device },
    });
    expect(res.json()).toEqual({ status: 'mfa_required' });
    // Not signed in yet: the page is not told to start as if it were.
    expect(res.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE)).toBeUndefined();
    return res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
  }

  const verify = (pending: string, token: string) =>
    app().app.inject({
      method: 'POST',
      url: '/api/login/mfa/verify',
      headers: sessionHeaders(pending),
      payload: { token },
    });

  return { mfaUser, emailStep, verify };
}

describe('e-mail sign-in', () => {
  const t = withTestApp({ RATE_LIMIT_PER_IP: 1000, POW_MAX_NUMBER: 2000 });

  const check = (token: string, code: string | undefined, cookies: Record<string, string>, json = true) =>
    t.app.inject({
      method: 'GET',
      url: `/api/login/email/${encodeURIComponent(token)}/check${code === undefined ? '' : `?code=${encodeURIComponent(code)}`}`,
      headers: json ? { 'x-requested-with': 'openrate' } : {},
      cookies,
    });

  const outboxCount = async (email: string) =>
    Number((await t.db.db.select({ n: count() }).from(outbox).where(eq(outbox.to, email)))[0].n);

  it('hands out a signed proof-of-work challenge that the shared solver solves', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/login/challenge' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ algorithm: 'SHA-256', maxnumber: t.config.POW_MAX_NUMBER });
    expect(body.challenge).toMatch(/^[0-9a-f]{64}$/);
    const started = Date.now();
    expect(await solvedToken(t)).toEqual(expect.any(String));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('mails a link and a code of at least 10 characters, bound to this browser by an httpOnly cookie', async () => {
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/email/start',
      headers: api,
      payload: { email, token: await solvedToken(t) },
    });
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    const cookie = res.cookies.find((c) => c.name === LOGIN_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const [mail] = await t.db.db.select().from(outbox).where(eq(outbox.to, email));
    expect(mail.code?.length).toBeGreaterThanOrEqual(10);
    expect(mail.link).toBe(`http://localhost/login/email/${token}?code=${mail.code}`);
    expect(mail.text).toContain(mail.code);
  });

  it('answers known and unknown addresses alike', async () => {
    const known = await signIn(t);
    const unknown = uniqueEmail();
    const a = await t.app.inject({
      method: 'POST',
      url: '/api/login/email/start',
      headers: api,
      payload: { email: known.email, token: await solvedToken(t) },
    });
    const b = await t.app.inject({
      method: 'POST',
      url: '/api/login/email/start',
      headers: api,
      payload: { email: unknown, token: await solvedToken(t) },
    });
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(Object.keys(a.json())).toEqual(Object.keys(b.json()));
  });

  it('signs in with the code from the same browser and rotates any earlier session cookie (fixation)', async () => {
    const attacker = await signIn(t);
    const email = uniqueEmail();
    const login = await startEmailLogin(t, email);
    const res = await check(login.token, login.code, {
      [LOGIN_COOKIE]: login.device,
      [SESSION_COOKIE]: attacker.session,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'signed_in' });
    const session = res.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // The page may read that someone is signed in here (nothing more), for as long as the session lasts.
    const hint = res.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE);
    expect(hint).toMatchObject({ value: '1', sameSite: 'Lax', path: '/', expires: session?.expires });
    expect(hint?.httpOnly).toBeFalsy();
    expect(session?.secure).toBeFalsy();
    expect(session?.value).not.toBe(attacker.session);
    expect(Buffer.from(session!.value, 'base64url').length).toBeGreaterThanOrEqual(32);

    const me = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: session!.value } });
    expect(me.json().email).toBe(email);
    const planted = await t.app.inject({
      method: 'GET',
      url: '/session',
      cookies: { [SESSION_COOKIE]: attacker.session },
    });
    expect(planted.json()).toEqual({ status: 'unauthenticated' });
    const status = await t.app.inject({
      method: 'GET',
      url: '/session',
      cookies: { [SESSION_COOKIE]: session!.value },
    });
    expect(status.json()).toEqual({ user_id: me.json().memberId, expires_at: expect.any(String) });
  });

  it('accepts a code typed in lower case with a space', async () => {
    const login = await startEmailLogin(t, uniqueEmail());
    const typed = `${login.code.slice(0, 5).toLowerCase()} ${login.code.slice(5)}`;
    const res = await check(login.token, typed, { [LOGIN_COOKIE]: login.device });
    expect(res.json()).toEqual({ status: 'signed_in' });
  });

  it('follows the e-mailed link as a page: redirect home with a session', async () => {
    const login = await startEmailLogin(t, uniqueEmail());
    const url = new URL(login.link);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/login/email/${login.token}/check${url.search}`,
      cookies: { [LOGIN_COOKIE]: login.device },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBeTruthy();
  });

  it('refuses a reused link', async () => {
    const login = await startEmailLogin(t, uniqueEmail());
    expect((await check(login.token, login.code, { [LOGIN_COOKIE]: login.device })).statusCode).toBe(200);
    const again = await check(login.token, login.code, { [LOGIN_COOKIE]: login.device });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_link' });
    const page = await check(login.token, login.code, { [LOGIN_COOKIE]: login.device }, false);
    expect(page.headers.location).toBe('/login/error?error=invalid_link');
    expect(page.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses an expired link', async () => {
    const email = uniqueEmail();
    const login = await startEmailLogin(t, email);
    await t.db.db
      .update(loginTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginTokens.email, email));
    const res = await check(login.token, login.code, { [LOGIN_COOKIE]: login.device });
    expect(res.json()).toEqual({ error: 'invalid_link' });
  });

  it('refuses a link superseded by a newer request, and accepts the newer one', async () => {
    const email = uniqueEmail();
    const first = await startEmailLogin(t, email);
    const second = await startEmailLogin(t, email, { cookie: `${LOGIN_COOKIE}=${first.device}` });
    const old = await check(first.token, first.code, { [LOGIN_COOKIE]: first.device });
    expect(old.json()).toEqual({ error: 'invalid_link' });
    const fresh = await check(second.token, second.code, { [LOGIN_COOKIE]: second.device });
    expect(fresh.json()).toEqual({ status: 'signed_in' });
  });

  it('refuses the link and code in another browser', async () => {
    const login = await startEmailLogin(t, uniqueEmail());
    const other = await check(login.token, login.code, { [LOGIN_COOKIE]: 'another-browser' });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({ error: 'invalid_device' });
    const none = await check(login.token, login.code, {}, false);
    expect(none.headers.location).toBe('/login/error?error=invalid_device');
    // The rightful browser can still use it.
    expect((await check(login.token, login.code, { [LOGIN_COOKIE]: login.device })).json()).toEqual({
      status: 'signed_in',
    });
  });

  it('refuses a wrong code and sends a page back to the code form', async () => {
    const login = await startEmailLogin(t, uniqueEmail());
    const res = await check(login.token, 'AAAAAAAAAA', { [LOGIN_COOKIE]: login.device });
    expect(res.json()).toEqual({ error: 'invalid_code' });
    const short = await check(login.token, login.code.slice(0, 9), { [LOGIN_COOKIE]: login.device });
    expect(short.json()).toEqual({ error: 'invalid_code' });
    const page = await check(login.token, 'AAAAAAAAAA', { [LOGIN_COOKIE]: login.device }, false);
    expect(page.headers.location).toBe(`/login/email/${login.token}?error=invalid_code`);
  });

  it('stops a code brute force at the rate limit, even for the right code', async () => {
    const login = await startEmailLogin(t, uniqueEmail());
    const statuses: number[] = [];
    for (let i = 0; i < t.config.RATE_LIMIT_PER_EMAIL + 1; i += 1) {
      const res = await check(login.token, `WRONGCODE${i}`, { [LOGIN_COOKIE]: login.device });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, t.config.RATE_LIMIT_PER_EMAIL).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const right = await check(login.token, login.code, { [LOGIN_COOKIE]: login.device });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ error: 'Too many attempts' });
  });

  it('evaluates at most the limit of 25 concurrent wrong codes', async () => {
    const login = await startEmailLogin(t, uniqueEmail());
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => check(login.token, `WRONGCODE${i}`, { [LOGIN_COOKIE]: login.device })),
    );
    const statuses = results.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(t.config.RATE_LIMIT_PER_EMAIL);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25 - t.config.RATE_LIMIT_PER_EMAIL);
  });

  it("lets the owner sign in with the right code in their own browser after strangers' wrong codes", async () => {
    const email = uniqueEmail();
    const owner = await startEmailLogin(t, email);
    // Strangers ask for links to the same address in their own browsers and guess until refused.
    for (let stranger = 0; stranger < 2; stranger += 1) {
      const login = await startEmailLogin(t, email);
      const statuses: number[] = [];
      for (let i = 0; i <= t.config.RATE_LIMIT_PER_EMAIL; i += 1) {
        statuses.push((await check(login.token, `WRONGCODE${i}`, { [LOGIN_COOKIE]: login.device })).statusCode);
      }
      expect(statuses.at(-1)).toBe(429);
    }
    const res = await check(owner.token, owner.code, { [LOGIN_COOKIE]: owner.device });
    expect(res.json()).toEqual({ status: 'signed_in' });
  });

  it('mails the owner a working link however many links strangers ask for', async () => {
    const email = uniqueEmail();
    const strangers = async () => {
      for (let i = 0; i <= t.config.RATE_LIMIT_PER_EMAIL; i += 1) {
        await t.app.inject({
          method: 'POST',
          url: '/api/login/email/start',
          remoteAddress: randomIp(),
          headers: api,
          payload: { email, token: await solvedToken(t) },
        });
      }
    };
    await strangers();
    const owner = await startEmailLogin(t, email);
    // A stranger's later request does not supersede the link the owner's browser is waiting for.
    await strangers();
    const res = await check(owner.token, owner.code, { [LOGIN_COOKIE]: owner.device });
    expect(res.json()).toEqual({ status: 'signed_in' });
  });

  it('counts a made-up browser cookie as the client address: new cookies do not buy new attempts', async () => {
    const email = uniqueEmail();
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i <= t.config.RATE_LIMIT_PER_EMAIL; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login/email/start',
        remoteAddress: ip,
        headers: api,
        cookies: { [LOGIN_COOKIE]: `made-up-${i}` },
        payload: { email, token: await solvedToken(t) },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  describe('bad start requests write nothing', () => {
    it.each([
      [
        'an array of e-mails',
        (email: string, token: string) => JSON.stringify({ email: [email, 'b@example.com'], token }),
        'invalid_email',
      ],
      [
        'the e-mail twice',
        (email: string, token: string) => `{"email":"${email}","email":"other@example.com","token":"${token}"}`,
        'invalid_email',
      ],
      [
        'an unknown field',
        (email: string, token: string) => JSON.stringify({ email, token, role: 'admin' }),
        'Invalid body: Unrecognized key: "role"',
      ],
    ])('refuses %s', async (_label, body, expected) => {
      const email = uniqueEmail();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login/email/start',
        headers: { ...api, 'content-type': 'application/json' },
        payload: body(email, await solvedToken(t)),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expected });
      expect(await outboxCount(email)).toBe(0);
      expect(res.cookies.find((c) => c.name === LOGIN_COOKIE)).toBeUndefined();
    });

    it('refuses an invalid e-mail with invalid_email', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login/email/start',
        headers: api,
        payload: { email: 'not-an-email', token: await solvedToken(t) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_email' });
    });

    it.each([
      ['missing', ''],
      ['garbage', 'bm90IGpzb24='],
      [
        'forged',
        Buffer.from(
          JSON.stringify({
            algorithm: 'SHA-256',
            challenge: 'a',
            number: 1,
            salt: 'x?expires=9999999999',
            signature: 'b',
          }),
        ).toString('base64'),
      ],
    ])('refuses a %s bot-check token with invalid_token', async (_label, token) => {
      const email = uniqueEmail();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login/email/start',
        headers: api,
        payload: { email, token },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_token' });
      expect(await outboxCount(email)).toBe(0);
    });

    it('accepts each bot-check solution once', async () => {
      const token = await solvedToken(t);
      const first = await t.app.inject({
        method: 'POST',
        url: '/api/login/email/start',
        headers: api,
        payload: { email: uniqueEmail(), token },
      });
      expect(first.statusCode).toBe(200);
      const email = uniqueEmail();
      const replay = await t.app.inject({
        method: 'POST',
        url: '/api/login/email/start',
        headers: api,
        payload: { email, token },
      });
      expect(replay.json()).toEqual({ error: 'invalid_token' });
      expect(await outboxCount(email)).toBe(0);
    });
  });

  it('limits sign-in requests per e-mail address', async () => {
    const email = uniqueEmail();
    // All from one browser: each request sends the binding cookie the previous one set.
    let device = '';
    for (let i = 0; i < t.config.RATE_LIMIT_PER_EMAIL; i += 1) {
      ({ device } = await startEmailLogin(t, email, device ? { cookie: `${LOGIN_COOKIE}=${device}` } : {}));
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/email/start',
      headers: api,
      cookies: { [LOGIN_COOKIE]: device },
      payload: { email, token: await solvedToken(t) },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ error: 'Too many attempts' });
  });
});

describe('the cap on every attempt at one address', () => {
  const t = withTestApp({ RATE_LIMIT_PER_IP: 1000, RATE_LIMIT_GLOBAL_PER_EMAIL: 3, POW_MAX_NUMBER: 2000 });

  const check = (login: { token: string; device: string }, code: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/login/email/${login.token}/check?code=${code}`,
      headers: { 'x-requested-with': 'openrate' },
      cookies: { [LOGIN_COOKIE]: login.device },
    });

  /** Makes the address's recorded attempts look older, as if the browsers had waited. */
  const wait = (email: string, seconds: number) =>
    t.db.db
      .update(rateLimitHits)
      .set({ createdAt: sql`${rateLimitHits.createdAt} - ${seconds} * interval '1 second'` })
      .where(like(rateLimitHits.key, `%${email}%`));

  it('only slows browsers down once reached: the owner signs in at once, a stranger waits out a back-off', async () => {
    const email = uniqueEmail();
    const owner = await startEmailLogin(t, email);
    const stranger = await startEmailLogin(t, email);
    const other = await startEmailLogin(t, email);
    const statuses: number[] = [];
    for (const login of [stranger, stranger, other]) statuses.push((await check(login, 'WRONGCODE0')).statusCode);
    expect(statuses).toEqual([400, 400, 400]);

    // The cap of 3 is reached: a browser that has tried must wait before its next attempt.
    const slowed = await check(other, 'WRONGCODE1');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json()).toEqual({ error: 'Too many attempts' });
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await check(stranger, 'WRONGCODE1')).statusCode).toBe(429);

    // The owner's browser has not tried yet: its right code goes straight in.
    expect((await check(owner, owner.code)).json()).toEqual({ status: 'signed_in' });

    // Once the back-off has passed, the stranger is evaluated again (a wrong code), then waits longer.
    await wait(email, t.config.RATE_LIMIT_MAX_BACKOFF + 1);
    expect((await check(stranger, 'WRONGCODE2')).json()).toEqual({ error: 'invalid_code' });
    const again = await check(stranger, 'WRONGCODE3');
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(Number(slowed.headers['retry-after']));
  });

  it('only slows two-factor attempts down once reached: the user signs in from a session that has not tried', async () => {
    const { mfaUser, emailStep, verify } = twoFactorSteps(() => t);
    const { email, secret } = await mfaUser();
    const other = await emailStep(email);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await verify(other, '000000')).statusCode);
    expect(statuses).toEqual([400, 400, 400]);
    const slowed = await verify(other, '000000');
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    const own = await emailStep(email);
    expect((await verify(own, totpFor(secret, email).generate())).json()).toEqual({ status: 'signed_in' });
  });
});

describe('rate limit per client address', () => {
  /**
   * Three sign-in starts from one connecting address (`remoteAddress`), each claiming another forwarded address, on
   * an app allowing two per address: their statuses.
   */
  async function startsFromOneAddress(trustProxy: boolean): Promise<number[]> {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: 2, TRUST_PROXY: trustProxy, POW_MAX_NUMBER: 2000 });
    try {
      const remoteAddress = randomIp();
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/login/email/start',
          remoteAddress,
          headers: { ...api, 'x-forwarded-for': randomIp() },
          payload: { email: uniqueEmail(), token: await solvedToken(t) },
        });
        statuses.push(res.statusCode);
      }
      return statuses;
    } finally {
      await t.close();
    }
  }

  it(
    'ignores a spoofed X-Forwarded-For unless TRUST_PROXY is on',
    async () => expect(await startsFromOneAddress(false)).toEqual([200, 200, 429]),
    START_TIMEOUT_MS,
  );

  it(
    'counts the forwarded address when behind a trusted proxy',
    async () => expect(await startsFromOneAddress(true)).toEqual([200, 200, 200]),
    START_TIMEOUT_MS,
  );
});

describe('two-factor sign-in', () => {
  const t = withTestApp({ RATE_LIMIT_PER_IP: 1000, POW_MAX_NUMBER: 2000 });

  const { mfaUser, emailStep, verify } = twoFactorSteps(() => t);

  it('reaches no data before the code, and signs in with a new session id after it', async () => {
    const { email, secret } = await mfaUser();
    const pending = await emailStep(email);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: sessionHeaders(pending) });
    expect(me.statusCode).toBe(401);
    const status = await t.app.inject({ method: 'GET', url: '/session', headers: sessionHeaders(pending) });
    expect(status.json()).toEqual({ status: 'unauthenticated' });
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/login/email/x/check`,
      headers: sessionHeaders(pending),
    });
    expect(page.statusCode).toBe(400);

    const res = await verify(pending, totpFor(secret, email).generate());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'signed_in' });
    expect(res.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE)?.value).toBe('1');
    const full = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    expect(full).not.toBe(pending);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: sessionHeaders(full) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: sessionHeaders(pending) })).statusCode).toBe(
      401,
    );
  });

  it('refuses a wrong code with invalid_token and a code replayed within its step', async () => {
    const { email, secret } = await mfaUser();
    const first = await emailStep(email);
    expect((await verify(first, '000000')).json()).toEqual({ error: 'invalid_token' });
    const code = totpFor(secret, email).generate();
    expect((await verify(first, code)).statusCode).toBe(200);
    const second = await emailStep(email);
    const replay = await verify(second, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ error: 'invalid_token' });
  });

  it('needs a pending session: a full or missing session cannot use the MFA step', async () => {
    const user = await signIn(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/mfa/verify',
      headers: user.headers,
      payload: { token: '123456' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('lets the user finish two-factor sign-in in their own session after another session used up its guesses', async () => {
    const { email, secret } = await mfaUser();
    const other = await emailStep(email);
    const statuses: number[] = [];
    for (let i = 0; i <= t.config.RATE_LIMIT_PER_EMAIL; i += 1)
      statuses.push((await verify(other, '000000')).statusCode);
    expect(statuses.at(-1)).toBe(429);
    const own = await emailStep(email);
    const res = await verify(own, totpFor(secret, email).generate());
    expect(res.json()).toEqual({ status: 'signed_in' });
  });

  it('evaluates at most the limit of 25 concurrent wrong two-factor codes', async () => {
    const { email } = await mfaUser();
    const pending = await emailStep(email);
    const results = await Promise.all(Array.from({ length: 25 }, () => verify(pending, '000000')));
    const statuses = results.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(t.config.RATE_LIMIT_PER_EMAIL);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25 - t.config.RATE_LIMIT_PER_EMAIL);
  });

  it('stops MFA guessing at the rate limit', async () => {
    const { email } = await mfaUser();
    const pending = await emailStep(email);
    const statuses: number[] = [];
    for (let i = 0; i <= t.config.RATE_LIMIT_PER_EMAIL; i += 1)
      statuses.push((await verify(pending, '000000')).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('sessions', () => {
  const t = withTestApp({ RATE_LIMIT_PER_IP: 1000, POW_MAX_NUMBER: 2000 });

  it('answers unauthenticated without a cookie or with a made-up one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/session' })).json()).toEqual({ status: 'unauthenticated' });
    const made = await t.app.inject({ method: 'GET', url: '/session', cookies: { [SESSION_COOKIE]: 'made-up' } });
    expect(made.json()).toEqual({ status: 'unauthenticated' });
  });

  it('ends the session on logout: the old cookie no longer works', async () => {
    const user = await signIn(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/logout', headers: user.headers });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login');
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
    expect(res.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE)?.value).toBe('');
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: user.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/session', headers: user.headers })).json()).toEqual({
      status: 'unauthenticated',
    });
  });

  it('keeps the readable signed-in hint in step with the session at each answer of /session', async () => {
    const user = await signIn(t);
    const signedIn = await t.app.inject({ method: 'GET', url: '/session', headers: user.headers });
    const hint = signedIn.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE);
    expect(hint?.value).toBe('1');
    expect(hint?.httpOnly).toBeFalsy();
    // A cookie's expiry is in whole seconds.
    expect(hint?.expires?.getTime()).toBe(Math.floor(Date.parse(signedIn.json().expires_at) / 1000) * 1000);
    // A hint that outlived its session is taken back; a browser that sends none gets no cookie at all.
    const stale = await t.app.inject({ method: 'GET', url: '/session', cookies: { [SIGNED_IN_HINT_COOKIE]: '1' } });
    expect(stale.json()).toEqual({ status: 'unauthenticated' });
    expect(stale.cookies.find((c) => c.name === SIGNED_IN_HINT_COOKIE)?.value).toBe('');
    expect((await t.app.inject({ method: 'GET', url: '/session' })).cookies).toEqual([]);
  });

  it('refuses an expired session', async () => {
    const user = await signIn(t);
    const { sessions } = await import('../db/schema');
    const { sha256 } = await import('../auth/crypto');
    await t.db.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, sha256(user.session)));
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: user.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/session', headers: user.headers })).json()).toEqual({
      status: 'unauthenticated',
    });
  });

  it(
    'marks the session cookie Secure over https',
    async () => {
      const t2 = await createTestApp({
        TRUST_PROXY: true,
        PUBLIC_URL: 'https://openrate.example',
        RATE_LIMIT_PER_IP: 1000,
        POW_MAX_NUMBER: 2000,
      });
      try {
        const login = await startEmailLogin(t2, uniqueEmail(), {
          host: 'openrate.example',
          'x-forwarded-proto': 'https',
          origin: 'https://openrate.example',
        });
        const res = await t2.app.inject({
          method: 'GET',
          url: `/api/login/email/${login.token}/check?code=${login.code}`,
          headers: { host: 'openrate.example', 'x-requested-with': 'openrate', 'x-forwarded-proto': 'https' },
          cookies: { [LOGIN_COOKIE]: login.device },
        });
        expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.secure).toBe(true);
      } finally {
        await t2.close();
      }
    },
    START_TIMEOUT_MS,
  );
});
