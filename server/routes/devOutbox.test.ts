import { outboxResponseSchema } from '../../src/contracts/auth';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { loadConfig } from '../config';
import { startEmailLogin, uniqueEmail } from '../testing/fixtures';
import { createTestApp, withTestApp } from '../testing/testApp';

describe('development outbox', () => {
  const t = withTestApp({ POW_MAX_NUMBER: 2000 });

  it('lists the mail kept locally, newest first, for one recipient', async () => {
    const email = uniqueEmail();
    const first = await startEmailLogin(t, email);
    const second = await startEmailLogin(t, email);
    await startEmailLogin(t, uniqueEmail());
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/dev/outbox?to=${encodeURIComponent(email.toUpperCase())}`,
    });
    const { data } = outboxResponseSchema.parse(res.json());
    expect(data.map((m) => m.code)).toEqual([second.code, first.code]);
    expect(data[0]).toMatchObject({ to: email, subject: 'Your Openrate sign-in link', link: second.link });
  });

  it(
    'does not exist when NODE_ENV is unset (production)',
    async () => {
      const { NODE_ENV } = loadConfig({ PUBLIC_URL: 'http://localhost' });
      const unset = await createTestApp({ NODE_ENV });
      try {
        const res = await unset.app.inject({ method: 'GET', url: '/api/dev/outbox' });
        expect(res.statusCode).toBe(404);
      } finally {
        await unset.close();
      }
    },
    START_TIMEOUT_MS,
  );

  it(
    'does not exist in production',
    async () => {
      const prod = await createTestApp({ NODE_ENV: 'production' });
      try {
        const res = await prod.app.inject({ method: 'GET', url: '/api/dev/outbox' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'Not found' });
      } finally {
        await prod.close();
      }
    },
    START_TIMEOUT_MS,
  );
});
