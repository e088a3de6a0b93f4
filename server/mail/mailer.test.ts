import { randomInt } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { outbox } from '../db/schema';
import { solvedToken, TEST_ORIGIN, uniqueEmail } from '../testing/fixtures';
import { createTestApp } from '../testing/testApp';

/** Just enough of an SMTP server to receive one message and keep its text. */
async function startSmtpServer() {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data: string | null = null;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\r\n')) {
        if (data !== null) {
          if (line === '.') {
            messages.push(data);
            data = null;
            socket.write('250 OK queued\r\n');
          } else {
            data += `${line}\n`;
          }
          continue;
        }
        if (!line) continue;
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('mail over SMTP', () => {
  it(
    'sends the sign-in message to the SMTP server instead of the outbox',
    async () => {
      const smtp = await startSmtpServer();
      const t = await createTestApp({ SMTP_URL: smtp.url, POW_MAX_NUMBER: 2000 });
      try {
        const email = uniqueEmail();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/login/email/start',
          // A client address of its own: on a shared PostgreSQL database, other suites' sign-ins from the
          // default address count against the same per-address limit for the whole window.
          remoteAddress: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
          headers: { origin: TEST_ORIGIN, 'x-requested-with': 'openrate' },
          payload: { email, token: await solvedToken(t) },
        });
        expect(res.statusCode).toBe(200);
        expect(smtp.messages).toHaveLength(1);
        expect(smtp.messages[0]).toContain(`To: ${email}`);
        expect(smtp.messages[0]).toContain('Subject: Your Openrate sign-in link');
        expect(await t.db.db.select().from(outbox).where(eq(outbox.to, email))).toHaveLength(0);
      } finally {
        await t.close();
        await smtp.close();
      }
      // The app (its database) starts inside the test.
    },
    START_TIMEOUT_MS,
  );
});
