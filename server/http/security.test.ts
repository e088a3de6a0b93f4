import { eq } from 'drizzle-orm';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../auth/csrf';
import { outbox } from '../db/schema';
import { startEmailLogin, uniqueEmail } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

describe('Host check and mailed links', () => {
  // Reached on its public address, and (ALLOWED_HOSTS) on an internal name behind the load balancer.
  const t = withTestApp({
    PUBLIC_URL: 'https://openrate.example',
    ALLOWED_HOSTS: ['internal.example:8443'],
    POW_MAX_NUMBER: 2000,
    RATE_LIMIT_PER_IP: 1000,
  });

  it.each(['openrate.example', 'OPENRATE.example:443', 'internal.example:8443'])(
    'serves requests for its own host %s',
    async (host) => {
      const res = await t.app.inject({ method: 'GET', url: '/api/login/challenge', headers: { host } });
      expect(res.statusCode).toBe(200);
    },
  );

  it.each(['attacker.example', 'openrate.example.attacker.example', 'internal.example', 'localhost', '127.0.0.1:8080'])(
    'refuses a request for another host (%s) before any route: DNS rebinding',
    async (host) => {
      for (const url of ['/api/me', '/api/login/challenge', '/', '/api/no-such-thing', '/session']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { host } });
        expect(res.statusCode).toBe(421);
        expect(res.json()).toEqual({ error: 'Misdirected request' });
        expect(res.headers['content-security-policy']).toBeDefined();
      }
    },
  );

  it('refuses a state-changing call for another host too, and sends no mail', async () => {
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/email/start',
      headers: { host: 'attacker.example', origin: 'http://attacker.example', [CSRF_HEADER]: CSRF_HEADER_VALUE },
      payload: { email, token: 'x' },
    });
    expect(res.statusCode).toBe(421);
    expect(await t.db.db.select().from(outbox).where(eq(outbox.to, email))).toEqual([]);
  });

  it('keeps the health check open to load balancers that call it by address', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { host: '10.0.0.7:8080' } });
    expect(res.statusCode).toBe(200);
  });

  it('builds the sign-in link from PUBLIC_URL, never from the Host the request named', async () => {
    const login = await startEmailLogin(t, uniqueEmail(), {
      host: 'internal.example:8443',
      origin: 'http://internal.example:8443',
    });
    expect(login.link).toBe(`https://openrate.example/login/email/${login.token}?code=${login.code}`);
  });
});

describe('the local default', () => {
  const t = withTestApp({ PUBLIC_URL: 'http://127.0.0.1:8080' });

  it('also accepts localhost and 127.0.0.1 on its port, and nothing else', async () => {
    for (const host of ['127.0.0.1:8080', 'localhost:8080', '[::1]:8080']) {
      expect((await t.app.inject({ method: 'GET', url: '/session', headers: { host } })).statusCode).toBe(200);
    }
    for (const host of ['localhost', 'localhost:8081', '127.0.0.1', 'rebind.attacker.example:8080']) {
      expect((await t.app.inject({ method: 'GET', url: '/session', headers: { host } })).statusCode).toBe(421);
    }
  });
});
