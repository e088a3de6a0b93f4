import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { loginOptionsResponseSchema } from '../../src/contracts/auth';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { OIDC_COOKIE, SESSION_COOKIE } from '../auth/cookies';
import { newTotpSecret } from '../auth/totp';
import { users } from '../db/schema';
import { signIn, uniqueEmail } from '../testing/fixtures';
import { createTestApp, withTestApp, type TestApp } from '../testing/testApp';

const CLIENT_ID = 'openrate-test-client';

/** A local OpenID provider: discovery, keys, and a token endpoint that answers codes the test registers. */
async function startMockProvider() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, Record<string, unknown>>();
  const server = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      return send(200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
      });
    }
    if (req.url === '/jwks') return send(200, { keys: [jwk] });
    if (req.url === '/token' && req.method === 'POST') {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', async () => {
        const form = new URLSearchParams(raw);
        const claims = codes.get(form.get('code') ?? '');
        if (!claims || form.get('client_secret') !== 'test-secret') return send(400, { error: 'invalid_grant' });
        codes.delete(form.get('code') ?? '');
        const { issuer = base, audience = CLIENT_ID, ...rest } = claims as { issuer?: string; audience?: string };
        const idToken = await new SignJWT(rest)
          .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
          .setIssuer(issuer)
          .setAudience(audience)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
        send(200, { id_token: idToken, access_token: 'x', token_type: 'Bearer' });
      });
      return;
    }
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, codes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('Google sign-in', () => {
  let t: TestApp;
  let idp: Awaited<ReturnType<typeof startMockProvider>>;
  beforeAll(async () => {
    idp = await startMockProvider();
    t = await createTestApp({
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: 'test-secret',
      GOOGLE_ISSUER: idp.issuer,
    });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await t?.close();
    await idp.close();
  }, START_TIMEOUT_MS);

  /** Starts the flow, lets the "provider" issue a code with these claims, and returns the callback's answer. */
  async function flow(claims: (nonce: string) => Record<string, unknown>, tamper: { state?: string } = {}) {
    const start = await t.app.inject({ method: 'GET', url: '/api/login/google' });
    expect(start.statusCode).toBe(302);
    const location = new URL(start.headers.location as string);
    expect(location.origin + location.pathname).toBe(`${idp.issuer}/authorize`);
    expect(location.searchParams.get('client_id')).toBe(CLIENT_ID);
    const cookie = start.cookies.find((c) => c.name === OIDC_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    const code = `code-${Math.random()}`;
    idp.codes.set(code, claims(location.searchParams.get('nonce')!));
    const state = tamper.state ?? location.searchParams.get('state')!;
    return t.app.inject({
      method: 'GET',
      url: `/api/login/google/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
      cookies: { [OIDC_COOKIE]: cookie.value },
    });
  }

  const claimsFor =
    (email: string, sub: string, extra: Record<string, unknown> = {}) =>
    (nonce: string) => ({
      sub,
      email,
      email_verified: true,
      nonce,
      name: 'Gina Google',
      ...extra,
    });

  it('tells the welcome page that Google sign-in is offered', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/login/options' });
    expect(res.statusCode).toBe(200);
    expect(loginOptionsResponseSchema.parse(res.json())).toEqual({ google: true });
  });

  it('creates an account on first sign-in and links the Google subject', async () => {
    const email = uniqueEmail();
    const sub = `sub-${Math.random()}`;
    const res = await flow(claimsFor(email, sub));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    const session = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const me = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: session } });
    expect(me.json()).toMatchObject({ email, name: 'Gina Google' });
    const [row] = await t.db.db.select().from(users).where(eq(users.email, email));
    expect(row.googleSubject).toBe(sub);
  });

  it('matches an existing account by verified e-mail, then by subject even after an e-mail change at Google', async () => {
    const existing = await signIn(t);
    const sub = `sub-${Math.random()}`;
    const first = await flow(claimsFor(existing.email, sub));
    expect(first.headers.location).toBe('/');
    const again = await flow(claimsFor(uniqueEmail(), sub));
    const session = again.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const me = await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: session } });
    expect(me.json().memberId).toBe(existing.userId);
  });

  it('asks for the second factor when MFA is on', async () => {
    const email = uniqueEmail();
    await t.db.db.insert(users).values({ email, name: 'M', mfaSecret: newTotpSecret() });
    const res = await flow(claimsFor(email, `sub-${Math.random()}`));
    expect(res.headers.location).toBe('/login/mfa');
    const session = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me', cookies: { [SESSION_COOKIE]: session } })).statusCode,
    ).toBe(401);
  });

  it.each([
    ['an unverified e-mail', (email: string, sub: string) => claimsFor(email, sub, { email_verified: false })],
    ['a wrong nonce', (email: string, sub: string) => (nonce: string) => claimsFor(email, sub)(`${nonce}x`)],
    ['another audience', (email: string, sub: string) => claimsFor(email, sub, { audience: 'someone-else' })],
    ['another issuer', (email: string, sub: string) => claimsFor(email, sub, { issuer: 'https://evil.example' })],
  ])('refuses %s and creates no account', async (_label, claims) => {
    const email = uniqueEmail();
    const res = await flow(claims(email, `sub-${Math.random()}`));
    expect(res.headers.location).toBe('/login/error?error=unknown');
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect(await t.db.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('refuses a callback whose state does not match the browser cookie', async () => {
    const email = uniqueEmail();
    const res = await flow(claimsFor(email, `sub-${Math.random()}`), { state: 'forged' });
    expect(res.headers.location).toBe('/login/error?error=unknown');
    expect(await t.db.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});

describe('Google sign-in when not configured', () => {
  const t = withTestApp({ GOOGLE_CLIENT_ID: undefined, GOOGLE_CLIENT_SECRET: undefined });

  it('sends the browser to the error page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/login/google' });
    expect(res.headers.location).toBe('/login/error?error=unknown');
  });

  it('tells the welcome page that Google sign-in is not offered', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/login/options' });
    expect(res.statusCode).toBe(200);
    expect(loginOptionsResponseSchema.parse(res.json())).toEqual({ google: false });
  });
});
