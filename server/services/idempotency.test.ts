import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { IDEMPOTENCY_HEADER } from '../../src/contracts/common';
import { OWN_VERSION_CONFLICT, VERSION_CONFLICT } from '../../src/contracts/reports';
import { annotations, customFields, feedback, idempotencyKeys, memberships, reports } from '../db/schema';
import { addMember, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';
import { IDEMPOTENCY_KEY_REUSED, INVALID_IDEMPOTENCY_KEY, REPLAYED_HEADER } from './idempotency';

const t = withTestApp();

type Method = 'POST' | 'PUT';
const newKey = () => randomBytes(16).toString('hex');

function call(who: SignedIn, method: Method, url: string, payload: unknown, key?: string) {
  return t.app.inject({
    method,
    url: `/api${url}`,
    headers: { ...who.headers, ...(key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key }) },
    payload: payload as object,
  });
}

const dashboard = (title: string) => ({
  title,
  widgets: [{ id: 'w1', type: 'rich_text', content: `<p>${title}</p>` }],
});

async function rows(table: typeof reports | typeof annotations | typeof feedback | typeof memberships, where: unknown) {
  const [row] = await t.db.db
    .select({ n: count() })
    .from(table)
    .where(where as never);
  return Number(row.n);
}

interface Setup {
  user: SignedIn;
  workspaceId: number;
  reportId: number;
}

async function setup(): Promise<Setup> {
  const user = await signIn(t);
  const { id: workspaceId } = await createWorkspace(t, { adminUserId: user.userId });
  const created = await call(user, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, {
    title: 'Sales',
    config: dashboard('Sales'),
  });
  return { user, workspaceId, reportId: created.json().data.id };
}

/** Every create and 'save as new' call of the product, and how many objects of its kind the user has. */
const creates: {
  call: string;
  method: Method;
  url(s: Setup): string;
  body: unknown;
  made(s: Setup): Promise<number>;
}[] = [
  {
    call: 'create a workspace',
    method: 'POST',
    url: () => '/workspaces',
    body: { name: 'Acme' },
    made: (s) => rows(memberships, eq(memberships.userId, s.user.userId)),
  },
  {
    call: 'create a report',
    method: 'POST',
    url: (s) => `/workspaces/${s.workspaceId}/reports/dashboard`,
    body: { title: 'Q1', config: dashboard('Q1') },
    made: (s) => rows(reports, eq(reports.workspaceId, s.workspaceId)),
  },
  {
    call: 'duplicate a report',
    method: 'POST',
    url: (s) => `/workspaces/${s.workspaceId}/reports/dashboard/${s.reportId}/duplicate`,
    body: {},
    made: (s) => rows(reports, eq(reports.workspaceId, s.workspaceId)),
  },
  {
    call: 'save a report as a new view',
    method: 'PUT',
    url: (s) => `/workspaces/${s.workspaceId}/reports/dashboard/${s.reportId}`,
    body: { config: dashboard('Mine'), version: 1, saveAsNewView: true },
    made: (s) => rows(reports, eq(reports.workspaceId, s.workspaceId)),
  },
  {
    call: 'add an annotation',
    method: 'POST',
    url: (s) => `/workspaces/${s.workspaceId}/annotations`,
    body: { message: 'Launch', date_start: '2026-02-01', date_end: '2026-02-02' },
    made: (s) => rows(annotations, eq(annotations.workspaceId, s.workspaceId)),
  },
  {
    call: 'send feedback',
    method: 'POST',
    url: () => '/feedback',
    body: { message: 'Lovely' },
    made: (s) => rows(feedback, eq(feedback.userId, s.user.userId)),
  },
];

describe.each(creates.map((create) => [create.call, create] as const))('%s', (_name, create) => {
  it('answers a retry with the same key with the first result, and makes one object', async () => {
    const s = await setup();
    const before = await create.made(s);
    const key = newKey();
    const first = await call(s.user, create.method, create.url(s), create.body, key);
    expect(first.statusCode).toBeLessThan(300);
    const retry = await call(s.user, create.method, create.url(s), create.body, key);
    expect(retry.statusCode).toBe(first.statusCode);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers[REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(await create.made(s)).toBe(before + 1);
  });

  it('makes one object when the same call arrives several times at once', async () => {
    const s = await setup();
    const before = await create.made(s);
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(s.user, create.method, create.url(s), create.body, key)),
    );
    const bodies = answers.map((res) => res.json());
    expect(answers.every((res) => res.statusCode === answers[0].statusCode && res.statusCode < 300)).toBe(true);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(await create.made(s)).toBe(before + 1);
  });

  it('makes a new object for a new user action (another key, or none)', async () => {
    const s = await setup();
    const before = await create.made(s);
    await call(s.user, create.method, create.url(s), create.body, newKey());
    await call(s.user, create.method, create.url(s), create.body, newKey());
    await call(s.user, create.method, create.url(s), create.body);
    expect(await create.made(s)).toBe(before + 3);
  });
});

describe('Idempotency-Key', () => {
  it('refuses the same key on another call with 422 and writes nothing', async () => {
    const s = await setup();
    const key = newKey();
    const url = `/workspaces/${s.workspaceId}/annotations`;
    await call(s.user, 'POST', url, { message: 'One', date_start: '2026-02-01', date_end: '2026-02-01' }, key);
    const other = await call(
      s.user,
      'POST',
      url,
      { message: 'Two', date_start: '2026-02-01', date_end: '2026-02-01' },
      key,
    );
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: IDEMPOTENCY_KEY_REUSED });
    expect(await rows(annotations, eq(annotations.workspaceId, s.workspaceId))).toBe(1);
  });

  it('keeps nothing for a refused call, so its corrected retry goes through', async () => {
    const s = await setup();
    const key = newKey();
    const url = `/workspaces/${s.workspaceId}/annotations`;
    const refused = await call(
      s.user,
      'POST',
      url,
      { message: ' ', date_start: '2026-02-01', date_end: '2026-02-01' },
      key,
    );
    expect(refused.statusCode).toBe(400);
    const stored = await t.db.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, s.user.userId));
    expect(stored).toEqual([]);
    const fixed = await call(
      s.user,
      'POST',
      url,
      { message: 'Ok', date_start: '2026-02-01', date_end: '2026-02-01' },
      key,
    );
    expect(fixed.statusCode).toBe(201);
  });

  it("is the user's own: another user's same key makes their own object", async () => {
    const s = await setup();
    const other = await signIn(t);
    await addMember(t, s.workspaceId, other.userId, 'member');
    const key = newKey();
    const url = `/workspaces/${s.workspaceId}/annotations`;
    const body = { message: 'Same', date_start: '2026-02-01', date_end: '2026-02-01' };
    const mine = await call(s.user, 'POST', url, body, key);
    const theirs = await call(other, 'POST', url, body, key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().data.id).not.toBe(mine.json().data.id);
    expect(theirs.json().data.created_by_id).toBe(other.userId);
  });

  it.each(['short', 'x'.repeat(129), 'spaces are not allowed here', 'ключ-ключ-ключ-ключ'])(
    'refuses the malformed key %j with 400',
    async (key) => {
      const s = await setup();
      const body = { message: 'Launch', date_start: '2026-02-01', date_end: '2026-02-01' };
      const res = await call(s.user, 'POST', `/workspaces/${s.workspaceId}/annotations`, body, key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: INVALID_IDEMPOTENCY_KEY });
    },
  );
});

describe('saving a report', () => {
  const url = (s: Setup) => `/workspaces/${s.workspaceId}/reports/dashboard/${s.reportId}`;

  it('answers a retried save that went through with its result, not a conflict with itself', async () => {
    const s = await setup();
    const key = newKey();
    const body = { config: dashboard('Sales v2'), version: 1 };
    const first = await call(s.user, 'PUT', url(s), body, key);
    expect(first.statusCode).toBe(200);
    const retry = await call(s.user, 'PUT', url(s), body, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    const [row] = await t.db.db.select({ version: reports.version }).from(reports).where(eq(reports.id, s.reportId));
    expect(row.version).toBe(2);
  });

  it("says 'You' when the newer version is the user's own, and 'Another user' only for someone else", async () => {
    const s = await setup();
    await call(s.user, 'PUT', url(s), { config: dashboard('Tab one'), version: 1 }, newKey());
    const own = await call(s.user, 'PUT', url(s), { config: dashboard('Tab two'), version: 1 }, newKey());
    expect(own.statusCode).toBe(409);
    expect(own.json()).toMatchObject({ error: OWN_VERSION_CONFLICT, version: 2, modifiedBy: { id: s.user.userId } });

    const alice = await signIn(t);
    await addMember(t, s.workspaceId, alice.userId, 'member');
    await call(s.user, 'PUT', '/workspaces/' + s.workspaceId + '/permissions', {
      accessLevel: 'read_write',
      subjectType: 'user',
      subjectId: alice.userId,
      objectId: s.reportId,
      objectType: 'dashboard',
    });
    const stale = await call(alice, 'PUT', url(s), { config: dashboard('Alice'), version: 1 }, newKey());
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: VERSION_CONFLICT, modifiedBy: { id: s.user.userId } });
  });
});

describe('saving custom fields', () => {
  it('answers a retried save with its first result', async () => {
    const s = await setup();
    const key = newKey();
    const url = `/workspaces/${s.workspaceId}/schema/custom-fields`;
    const first = await call(s.user, 'PUT', url, [], key);
    expect(first.statusCode).toBe(200);
    const retry = await call(s.user, 'PUT', url, [], key);
    expect(retry.headers[REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await t.db.db.select().from(customFields).where(eq(customFields.workspaceId, s.workspaceId))).toHaveLength(
      1,
    );
  });
});
