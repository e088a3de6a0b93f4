import { and, eq } from 'drizzle-orm';
import { addMember, createWorkspace, signIn, uniqueEmail } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';
import type { DatabaseHandle } from './client';
import { ReadCache } from './readCache';
import { memberships } from './schema';

describe('ReadCache', () => {
  const handleAt = (generation: { value: number }) =>
    ({ generation: () => generation.value }) as unknown as DatabaseHandle;

  it('answers from memory while nothing was written, and reads again after a write', async () => {
    const generation = { value: 0 };
    const cache = new ReadCache<number>(handleAt(generation));
    let reads = 0;
    const load = async () => ++reads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    generation.value++;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('never keeps a read that a write overlapped', async () => {
    const generation = { value: 0 };
    const cache = new ReadCache<string>(handleAt(generation));
    // The write starts (and ends) while the read is under way: its answer may predate the write.
    const stale = await cache.get('k', async () => {
      generation.value += 2;
      return 'before the write';
    });
    expect(stale).toBe('before the write');
    expect(await cache.get('k', async () => 'after the write')).toBe('after the write');
  });

  it('reads every time on PostgreSQL, where other processes write too', async () => {
    const cache = new ReadCache<number>({} as DatabaseHandle);
    let reads = 0;
    await cache.get('k', async () => ++reads);
    await cache.get('k', async () => ++reads);
    expect(reads).toBe(2);
  });
});

describe('answers remembered between writes stay exact', () => {
  const t = withTestApp();

  const list = (workspaceId: number, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/workspaces/${workspaceId}/reports`, headers });

  it('refuses a session at once after logout', async () => {
    const me = await signIn(t);
    const { id } = await createWorkspace(t, { adminUserId: me.userId });
    expect((await list(id, me.headers)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/logout', headers: me.headers })).statusCode).toBe(302);
    expect((await list(id, me.headers)).statusCode).toBe(401);
  });

  it('refuses a member at once after the membership is removed', async () => {
    const admin = await signIn(t);
    const member = await signIn(t, uniqueEmail('member'));
    const { id } = await createWorkspace(t, { adminUserId: admin.userId });
    await addMember(t, id, member.userId, 'member');
    expect((await list(id, member.headers)).statusCode).toBe(200);
    await t.db.db
      .delete(memberships)
      .where(and(eq(memberships.workspaceId, id), eq(memberships.userId, member.userId)));
    expect((await list(id, member.headers)).statusCode).toBe(404);
  });

  it('lists a report at once after it was created', async () => {
    const me = await signIn(t);
    const { id } = await createWorkspace(t, { adminUserId: me.userId });
    expect((await list(id, me.headers)).json()).toEqual({ data: [] });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${id}/reports/dashboard`,
      headers: me.headers,
      payload: { title: 'Weekly' },
    });
    expect(created.statusCode).toBe(201);
    const titles = (await list(id, me.headers)).json().data.map((report: { title: string }) => report.title);
    expect(titles).toEqual(['Weekly']);
  });
});
