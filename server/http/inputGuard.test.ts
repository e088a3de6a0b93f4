import { randomInt } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../auth/csrf';
import {
  annotations,
  auditLog,
  customFields,
  feedback,
  invitations,
  loginTokens,
  memberships,
  outbox,
  reportingSubscriptions,
  reportPermissions,
  reports,
  sessions,
  users,
  workspaces,
} from '../db/schema';
import { createWorkspace, signIn, TEST_ORIGIN, type SignedIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';
import {
  checkInput,
  DEFAULT_BODY_LIMIT,
  DOCUMENT_BODY_LIMIT,
  INVALID_UNICODE,
  INVALID_URL,
  MAX_JSON_DEPTH,
  NUL_IN_TEXT,
  TOO_DEEP,
} from './inputGuard';

/** Beyond a PostgreSQL integer column, within JavaScript's safe integers. */
const OUT_OF_RANGE_ID = 99_999_999_999;
/** Stands for the bad text in a body; replaced by raw bytes for the invalid UTF-8 case. */
const MARK = '\u2603MARK\u2603';

interface Ctx {
  user: SignedIn;
  staff: SignedIn;
  workspaceId: number;
  reportId: number;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One route per family: where a text goes, and the same family's call with an id or a date it cannot store. */
interface Family {
  family: string;
  method: Method;
  url(c: Ctx, text: string): string;
  /** The body with `text` (or any value) in a text field; absent for calls without a body. */
  body?(value: unknown, c: Ctx): unknown;
  signedInAs?: 'staff' | 'nobody';
  bodyLimit?: number;
  outOfRangeId?(c: Ctx): { method: Method; url: string; body?: unknown };
  impossibleDate?(c: Ctx): { method: Method; url: string; body?: unknown };
}

const families: Family[] = [
  {
    family: 'login',
    method: 'POST',
    url: () => '/api/login/email/start',
    body: (value) => ({ email: value, token: 'x' }),
    signedInAs: 'nobody',
    bodyLimit: 16 * 1024,
  },
  {
    family: 'me',
    method: 'PATCH',
    url: () => '/api/me',
    body: (value) => ({ name: value }),
    outOfRangeId: () => ({
      method: 'POST',
      url: '/api/reporting-subscriptions',
      body: { payload: { type: 'weeklySummary', workspaceId: OUT_OF_RANGE_ID } },
    }),
  },
  {
    family: 'workspaces',
    method: 'POST',
    url: () => '/api/workspaces',
    body: (value) => ({ name: value }),
    outOfRangeId: () => ({
      method: 'POST',
      url: '/api/workspaces',
      body: { name: 'Acme', license_id: OUT_OF_RANGE_ID },
    }),
  },
  {
    family: 'members',
    method: 'POST',
    url: (c) => `/api/workspaces/${c.workspaceId}/members`,
    body: (value) => ({ email: value, role: 'member' }),
    outOfRangeId: (c) => ({
      method: 'DELETE',
      url: `/api/workspaces/${c.workspaceId}/members`,
      body: { member_id: OUT_OF_RANGE_ID },
    }),
  },
  {
    family: 'annotations',
    method: 'POST',
    url: (c) => `/api/workspaces/${c.workspaceId}/annotations`,
    body: (value) => ({ message: value, date_start: '2026-02-01', date_end: '2026-02-02' }),
    outOfRangeId: (c) => ({
      method: 'POST',
      url: `/api/workspaces/${c.workspaceId}/annotations`,
      body: { id: OUT_OF_RANGE_ID, message: 'Launch', date_start: '2026-02-01', date_end: '2026-02-02' },
    }),
    impossibleDate: (c) => ({
      method: 'POST',
      url: `/api/workspaces/${c.workspaceId}/annotations`,
      body: { message: 'Launch', date_start: '2026-02-30', date_end: '2026-03-02' },
    }),
  },
  {
    family: 'feedback',
    method: 'POST',
    url: () => '/api/feedback',
    body: (value) => ({ message: value }),
    outOfRangeId: () => ({
      method: 'POST',
      url: '/api/feedback',
      body: { message: 'Hi', workspaceId: OUT_OF_RANGE_ID },
    }),
  },
  {
    family: 'reports',
    method: 'POST',
    url: (c) => `/api/workspaces/${c.workspaceId}/reports/dashboard`,
    body: (value) => ({
      title: 'Q1',
      config: { title: 'Q1', widgets: [{ id: 'w1', type: 'rich_text', content: value }] },
    }),
    bodyLimit: DOCUMENT_BODY_LIMIT,
    outOfRangeId: (c) => ({
      method: 'PUT',
      url: `/api/workspaces/${c.workspaceId}/reports/dashboard/${c.reportId}`,
      body: { config: { widgets: [] }, version: OUT_OF_RANGE_ID },
    }),
    impossibleDate: (c) => ({
      method: 'POST',
      url: `/api/workspaces/${c.workspaceId}/reports/dashboard`,
      body: {
        title: 'Q1',
        config: { dateRanges: { main: { start: '2026-02-30', end: '2026-03-02', preset: 'custom' } } },
      },
    }),
  },
  {
    family: 'data model',
    method: 'PUT',
    url: (c) => `/api/workspaces/${c.workspaceId}/schema/custom-fields`,
    body: (value) => [
      { table: 'campaign_metrics_by_send_date', action: 'insert_after', anchor: 'x', fields: [{ name: value }] },
    ],
    bodyLimit: DOCUMENT_BODY_LIMIT,
    outOfRangeId: () => ({ method: 'PUT', url: `/api/workspaces/${OUT_OF_RANGE_ID}/schema/custom-fields`, body: [] }),
  },
  {
    family: 'datasets',
    method: 'GET',
    url: (c, text) => `/api/workspaces/${c.workspaceId}/datasets/campaigns/${encodeURIComponent(text)}`,
    outOfRangeId: () => ({ method: 'GET', url: `/api/workspaces/${OUT_OF_RANGE_ID}/datasets` }),
  },
  {
    family: 'admin',
    method: 'POST',
    url: () => '/api/admin/impersonate',
    body: (value) => ({ userId: value }),
    signedInAs: 'staff',
    outOfRangeId: () => ({ method: 'POST', url: '/api/admin/impersonate', body: { userId: OUT_OF_RANGE_ID } }),
  },
];

/** `levels` arrays inside each other around a string. */
const nested = (levels: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe('bad input is a 4xx with a clear message and writes nothing', () => {
  const t = withTestApp();
  let c: Ctx;
  beforeAll(async () => {
    const user = await signIn(t);
    const staff = await signIn(t, `staff-${randomInt(1e9)}@${t.config.STAFF_EMAIL_DOMAIN}`);
    const workspace = await createWorkspace(t, { adminUserId: user.userId });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspace.id}/reports/dashboard`,
      headers: user.headers,
      payload: { title: 'Existing' },
    });
    c = { user, staff, workspaceId: workspace.id, reportId: created.json().data.id };
  }, START_TIMEOUT_MS);

  /** Row counts of every table a route may write, and the user's own profile: equal before and after a refusal. */
  async function written() {
    const db = t.db.db;
    const tables = {
      users,
      sessions,
      loginTokens,
      outbox,
      auditLog,
      workspaces,
      memberships,
      invitations,
      annotations,
      feedback,
      reports,
      reportPermissions,
      customFields,
      reportingSubscriptions,
    };
    const counts: Record<string, number> = {};
    for (const [name, table] of Object.entries(tables)) {
      const [row] = await db.select({ n: count() }).from(table);
      counts[name] = Number(row.n);
    }
    const [profile] = await db.select({ name: users.name }).from(users).where(eq(users.id, c.user.userId));
    return { counts, profile };
  }

  function send(
    family: Family,
    method: Method,
    url: string,
    payload?: string | Buffer,
  ): Promise<{ status: number; error: string }> {
    const who = family.signedInAs === 'nobody' ? undefined : family.signedInAs === 'staff' ? c.staff : c.user;
    const options: InjectOptions = {
      method,
      url,
      headers: {
        ...(who ? who.headers : { origin: TEST_ORIGIN, [CSRF_HEADER]: CSRF_HEADER_VALUE }),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      // Each call its own client address, so sign-in rate limits play no part.
      remoteAddress: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
      ...(payload === undefined ? {} : { payload }),
    };
    return t.app.inject(options).then((res) => ({ status: res.statusCode, error: res.json().error as string }));
  }

  /** The family's call with `value` where its text goes (in the path for calls without a body). */
  function withValue(family: Family, value: unknown) {
    if (family.body) return send(family, family.method, family.url(c, 'x'), JSON.stringify(family.body(value, c)));
    return send(family, family.method, family.url(c, String(value)));
  }

  interface Kind {
    kind: string;
    applies(family: Family): boolean;
    call(family: Family): Promise<{ status: number; error: string }>;
    status: number;
    message?: string | ((family: Family) => string);
  }

  const kinds: Kind[] = [
    {
      kind: 'a NUL character',
      applies: () => true,
      call: (family) => withValue(family, 'Acme\u0000Corp'),
      status: 400,
      message: NUL_IN_TEXT,
    },
    {
      kind: 'a lone UTF-16 surrogate',
      // A URL cannot carry one: its percent-encoding is the invalid UTF-8 case below.
      applies: (family) => family.body !== undefined,
      call: (family) => withValue(family, 'Acme\ud800Corp'),
      status: 400,
      message: INVALID_UNICODE,
    },
    {
      kind: 'bytes that are not UTF-8 (an encoded surrogate)',
      applies: () => true,
      call: (family) => {
        if (!family.body) return send(family, family.method, family.url(c, 'x').replace(/x$/, '%ED%A0%80'));
        const [before, after] = JSON.stringify(family.body(MARK, c)).split(MARK);
        const bytes = Buffer.concat([Buffer.from(before), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(after)]);
        return send(family, family.method, family.url(c, 'x'), bytes);
      },
      status: 400,
      // In a body the bytes are refused as text; in a path as an address.
      message: (family) => (family.body ? INVALID_UNICODE : INVALID_URL),
    },
    {
      kind: 'JSON nested deeper than 64 levels',
      applies: (family) => family.body !== undefined,
      call: (family) => withValue(family, nested(MAX_JSON_DEPTH + 1)),
      status: 400,
      message: TOO_DEEP,
    },
    {
      kind: 'a body larger than the route takes',
      applies: (family) => family.body !== undefined,
      call: (family) => withValue(family, 'x'.repeat(family.bodyLimit ?? DEFAULT_BODY_LIMIT)),
      status: 413,
    },
    {
      kind: 'an id outside the integer range',
      applies: (family) => family.outOfRangeId !== undefined,
      call: (family) => {
        const { method, url, body } = family.outOfRangeId!(c);
        return send(family, method, url, body === undefined ? undefined : JSON.stringify(body));
      },
      status: 400,
    },
    {
      kind: 'an impossible date (2026-02-30)',
      applies: (family) => family.impossibleDate !== undefined,
      call: (family) => {
        const { method, url, body } = family.impossibleDate!(c);
        return send(family, method, url, JSON.stringify(body));
      },
      status: 400,
    },
  ];

  const cases = families.flatMap((family) =>
    kinds.filter((kind) => kind.applies(family)).map((kind) => [family.family, kind.kind, family, kind] as const),
  );

  it.each(cases)('%s: refuses %s', async (_family, _kind, family, kind) => {
    const before = await written();
    const res = await kind.call(family);
    expect(res.status).toBe(kind.status);
    expect(typeof res.error).toBe('string');
    if (kind.message) expect(res.error).toBe(typeof kind.message === 'string' ? kind.message : kind.message(family));
    expect(await written()).toEqual(before);
  });

  it('still takes what a person may type: accents, emoji, other scripts', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: c.user.headers,
      payload: { name: 'Zoë 😀 山田 ﬁ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe('Zoë 😀 山田 ﬁ');
  });

  it('takes JSON nested exactly 64 levels deep', () => {
    expect(() => checkInput(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => checkInput(nested(MAX_JSON_DEPTH + 1))).toThrow(TOO_DEEP);
  });
});
