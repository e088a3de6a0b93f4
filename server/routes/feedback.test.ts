import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { buildApp } from '../app';
import { SESSION_COOKIE } from '../auth/cookies';
import { feedback } from '../db/schema';
import { createWorkspace, signIn, TEST_ORIGIN } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

describe('POST /api/feedback', () => {
  const t = withTestApp();

  const rowsOf = (userId: number) => t.db.db.select().from(feedback).where(eq(feedback.userId, userId));
  const send = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/feedback', headers, payload });

  it('stores the message with the sender’s name and e-mail, and the workspace they were in', async () => {
    const user = await signIn(t);
    const workspace = await createWorkspace(t, { adminUserId: user.userId });
    const res = await send(user.headers, { message: '  Lovely product  ', workspaceId: workspace.id });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ok: true });
    const [row] = await rowsOf(user.userId);
    expect(row).toMatchObject({
      name: user.email,
      email: user.email,
      message: 'Lovely product',
      workspaceId: workspace.id,
    });
    expect(Date.now() - row.createdAt.getTime()).toBeLessThan(60_000);
  });

  it('accepts feedback sent outside a workspace, up to 5000 characters', async () => {
    const user = await signIn(t);
    const longest = '😀'.repeat(5000);
    expect((await send(user.headers, { message: longest })).statusCode).toBe(201);
    expect(await rowsOf(user.userId)).toEqual([expect.objectContaining({ message: longest, workspaceId: null })]);
  });

  it('answers 401 when signed out', async () => {
    const res = await send({ origin: TEST_ORIGIN, 'x-requested-with': 'openrate' }, { message: 'Hello' });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['an empty message', { message: '' }, 'Feedback cannot be empty'],
    ['a message of spaces only', { message: '   ' }, 'Feedback cannot be empty'],
    ['a message over 5000 characters', { message: 'x'.repeat(5001) }, 'Feedback cannot be longer than 5000 characters'],
    ['no message', {}, 'message'],
    ['the sender named in the body', { message: 'Hi', email: 'someone@example.com' }, 'email'],
    ['a workspace id that is not a number', { message: 'Hi', workspaceId: '1' }, 'workspaceId'],
  ])('refuses %s with 400 and stores nothing', async (_label, payload, message) => {
    const user = await signIn(t);
    const res = await send(user.headers, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('answers 404 for a workspace the sender is not a member of, and stores nothing', async () => {
    const user = await signIn(t);
    const other = await signIn(t);
    const foreign = await createWorkspace(t, { adminUserId: other.userId });
    expect((await send(user.headers, { message: 'Hi', workspaceId: foreign.id })).statusCode).toBe(404);
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('refuses calls without the API header or from another origin (CSRF) and stores nothing', async () => {
    const user = await signIn(t);
    const cookie = `${SESSION_COOKIE}=${user.session}`;
    const withoutHeader = await send({ cookie, origin: TEST_ORIGIN }, { message: 'Forged' });
    expect(withoutHeader.statusCode).toBe(403);
    const otherOrigin = await send({ ...user.headers, origin: 'https://evil.example' }, { message: 'Forged' });
    expect(otherOrigin.statusCode).toBe(403);
    expect(await rowsOf(user.userId)).toHaveLength(0);
  });

  it('logs the feedback at info for the feedback tool', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const logged = await buildApp({ config: t.config, db: t.db, logger: { level: 'info', stream } });
    try {
      const user = await signIn(t);
      const res = await logged.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: user.headers,
        payload: { message: 'Please add dark mode' },
      });
      expect(res.statusCode).toBe(201);
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 30,
          msg: 'feedback received',
          userId: user.userId,
          email: user.email,
          name: user.email,
          message: 'Please add dark mode',
        }),
      );
    } finally {
      await logged.close();
    }
  });
});
