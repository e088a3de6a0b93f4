import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { and, eq, inArray } from 'drizzle-orm';
import {
  type AlertResult,
  alertResultsResponseSchema,
  alertRuleSchema,
  newAlertRuleId,
} from '../../src/contracts/alerting';
import { addDays } from '../../src/engine/dates';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { generateWorkspaceDatasets, todayUtc, workspaceDatasetDir } from '../datasets/generate';
import { alertEvaluations, outbox } from '../db/schema';
import { AlertEvaluator } from '../services/alerting/evaluate';
import { findRuleById } from '../services/alerting/rules';
import { evaluateRuleDay } from '../services/alerting/schedule';
import { addMember, createWorkspace, signIn, type SignedIn, uniqueEmail } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

const t = withTestApp();
let admin: SignedIn;
let member: SignedIn;
let outsider: SignedIn;
let workspaceId: number;
let otherWorkspaceId: number;
let reference: DuckDBInstance;

const yesterday = () => addDays(todayUtc(), -1);
const days = () => Array.from({ length: 30 }, (_, index) => addDays(yesterday(), index - 29));

beforeAll(async () => {
  [admin, member, outsider] = [await signIn(t), await signIn(t), await signIn(t)];
  workspaceId = (await createWorkspace(t, { adminUserId: admin.userId })).id;
  await addMember(t, workspaceId, member.userId, 'member');
  otherWorkspaceId = (await createWorkspace(t, { adminUserId: outsider.userId })).id;
  // Few rows over two years: some days have no send at all, so no-data days exist in the window.
  await generateWorkspaceDatasets(t.config.dataDir, workspaceId, { rows: 3000, seed: 7, endDate: todayUtc() });
  reference = await DuckDBInstance.create(':memory:');
}, START_TIMEOUT_MS);

afterAll(async () => {
  reference?.closeSync();
}, START_TIMEOUT_MS);

const rulesUrl = (rest = '', id = workspaceId) => `/api/workspaces/${id}/alerting/rules${rest}`;
const put = (id: string, payload: object, who: SignedIn = admin, workspace = workspaceId) =>
  t.app.inject({ method: 'PUT', url: rulesUrl(`/${id}`, workspace), headers: who.headers, payload });
const preview = (payload: object) =>
  t.app.inject({ method: 'PUT', url: rulesUrl('/preview'), headers: admin.headers, payload });
const condition = (member: string, operator: string, ...values: string[]) => ({ member, operator, values });

describe('rules', () => {
  it('creates a rule with the defaults of a new alert and the caller as recipient, then updates it', async () => {
    const id = newAlertRuleId();
    const created = await put(id, { conditions: [condition('sent', 'gt', '10')] }, member);
    expect(created.statusCode).toBe(201);
    const rule = alertRuleSchema.parse(created.json().data);
    expect(rule).toMatchObject({
      id,
      workspaceId,
      title: 'New alert',
      dataset: 'campaign_metrics_by_send_date',
      dateField: 'send_date',
      duration: 1,
      enabled: true,
      recipients: [member.email],
      filters: [],
      dimension: null,
      mutedDays: [],
      webhookUrl: null,
    });
    const updated = await put(id, { title: 'Sends', conditions: [condition('sent', 'gt', '5')], recipients: [] });
    expect([updated.statusCode, updated.json().data.title, updated.json().data.recipients]).toEqual([200, 'Sends', []]);
    const list = await t.app.inject({ url: rulesUrl(), headers: member.headers });
    expect(list.json().data.map((r: { id: string; title: string }) => [r.id, r.title])).toContainEqual([id, 'Sends']);
  });

  it('keeps rules to their workspace: another workspace sees none and cannot read, save over or remove them', async () => {
    const id = newAlertRuleId();
    expect((await put(id, { conditions: [condition('sent', 'gt', '1')] })).statusCode).toBe(201);
    expect((await t.app.inject({ url: rulesUrl(), headers: outsider.headers })).statusCode).toBe(404);
    const theirs = await t.app.inject({ url: rulesUrl('', otherWorkspaceId), headers: outsider.headers });
    expect(theirs.json()).toEqual({ data: [] });
    expect((await put(id, { conditions: [condition('sent', 'gt', '1')] }, outsider, otherWorkspaceId)).statusCode).toBe(
      404,
    );
    const removeForeign = await t.app.inject({
      method: 'DELETE',
      url: rulesUrl(`/${id}`, otherWorkspaceId),
      headers: outsider.headers,
    });
    expect(removeForeign.statusCode).toBe(404);
    const results = await t.app.inject({
      url: rulesUrl(`/${id}/results`, otherWorkspaceId),
      headers: outsider.headers,
    });
    expect(results.statusCode).toBe(404);
  });

  it('removes a rule', async () => {
    const id = newAlertRuleId();
    await put(id, { conditions: [condition('sent', 'gt', '1')] });
    const removed = await t.app.inject({ method: 'DELETE', url: rulesUrl(`/${id}`), headers: member.headers });
    expect([removed.statusCode, removed.json()]).toEqual([200, { ok: true }]);
    const again = await t.app.inject({ method: 'DELETE', url: rulesUrl(`/${id}`), headers: member.headers });
    expect(again.statusCode).toBe(404);
  });

  it.each([
    ['no title', { title: '  ', conditions: [condition('sent', 'gt', '1')] }, 'Please provide a title'],
    ['no condition', { conditions: [] }, 'Add at least one condition'],
    [
      'a condition without operator',
      { conditions: [{ member: 'sent', values: ['1'] }] },
      'Every filter and condition needs a field and an operator',
    ],
    ['an empty value', { conditions: [condition('sent', 'gt', '')] }, 'Every filter and condition needs a value'],
    [
      'duration 0',
      { duration: 0, conditions: [condition('sent', 'gt', '1')] },
      'Duration must be a number of days from 1 to 365',
    ],
    [
      'duration 366',
      { duration: 366, conditions: [condition('sent', 'gt', '1')] },
      'Duration must be a number of days from 1 to 365',
    ],
    [
      'a bad recipient',
      { recipients: ['a@b.nl', 'nope'], conditions: [condition('sent', 'gt', '1')] },
      'Please ensure every entry is a valid e-mail address.',
    ],
    [
      'a bad webhook URL',
      { webhookUrl: 'ftp://x.nl', conditions: [condition('sent', 'gt', '1')] },
      'Please provide a valid webhook URL',
    ],
    [
      'a dataset not for alerts',
      { dataset: 'ecommerce', conditions: [condition('sent', 'gt', '1')] },
      'This dataset cannot be used for alerts',
    ],
    [
      'an unknown condition field',
      { conditions: [condition('nope', 'gt', '1')] },
      'The field "nope" does not exist in this dataset',
    ],
    [
      'an unknown filter field',
      { filters: [condition('nope', 'set')], conditions: [condition('sent', 'gt', '1')] },
      'The field "nope" does not exist in this dataset',
    ],
    [
      'an unknown dimension',
      { dimension: 'nope', conditions: [condition('sent', 'gt', '1')] },
      'The field "nope" does not exist in this dataset',
    ],
    [
      'a condition on a dimension',
      { conditions: [condition('country', 'equals', 'NL')] },
      'The condition on "country" needs a metric',
    ],
    [
      'a dataset the workspace lacks',
      { dataset: 'list_members', dateField: 'date', conditions: [condition('members', 'gt', '1')] },
      'This dataset is not available in this workspace',
    ],
    ['a number that is not one', { conditions: [condition('sent', 'gt', 'many')] }, 'Invalid number "many"'],
    ['a field the body may not set', { id: 'x', conditions: [condition('sent', 'gt', '1')] }, 'id'],
  ])('refuses %s with 400 and saves nothing', async (_label, payload, message) => {
    const id = newAlertRuleId();
    const res = await put(id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
    expect((await t.app.inject({ url: rulesUrl(`/${id}/results`), headers: admin.headers })).statusCode).toBe(404);
  });

  it('accepts set and notSet filters without values and custom fields of the workspace', async () => {
    const res = await put(newAlertRuleId(), {
      filters: [condition('country', 'set')],
      conditions: [condition('sent', 'gte', '1')],
      dimension: 'campaign_type',
    });
    expect(res.statusCode).toBe(201);
  });
});

/** Metric values per day and group, aggregated over the window by hand-written SQL, not the engine's. */
async function referenceRows(rule: {
  duration: number;
  dimension?: string;
  where?: string;
}): Promise<{ day: string; group: string | null; sent: number | null; open_rate: number | null }[]> {
  const file = path.join(workspaceDatasetDir(t.config.dataDir, workspaceId), 'campaign_metrics_by_send_date.parquet');
  const connection = await reference.connect();
  try {
    const list = days()
      .map((day) => `DATE '${day}'`)
      .join(', ');
    const reader = await connection.runAndReadAll(
      `SELECT strftime(d.day, '%Y-%m-%d') AS day, ${rule.dimension ? `CAST(r.${rule.dimension} AS VARCHAR)` : 'NULL'} AS grp,
         sum(r.sent)::DOUBLE AS sent, (sum(r.open) / NULLIF(sum(r.delivered), 0))::DOUBLE AS open_rate
       FROM unnest([${list}]) d(day) JOIN read_parquet('${file}') r
         ON CAST(r.send_date AS DATE) BETWEEN d.day - ${rule.duration - 1} AND d.day
       ${rule.where ? `WHERE ${rule.where}` : ''}
       GROUP BY 1, 2`,
    );
    return reader.getRowObjectsJS().map((row) => ({
      day: String(row.day),
      group: row.grp === null ? null : String(row.grp),
      sent: row.sent === null ? null : Number(row.sent),
      open_rate: row.open_rate === null ? null : Number(row.open_rate),
    }));
  } finally {
    connection.closeSync();
  }
}

type Test = (value: number, peers: number[]) => boolean;
const band = (peers: number[], k: number) => {
  const mean = peers.reduce((a, b) => a + b, 0) / peers.length;
  const sd = Math.sqrt(peers.reduce((a, b) => a + (b - mean) ** 2, 0) / peers.length);
  return { high: mean + k * sd, low: mean - k * sd };
};

/** Each day's expected result: true when some group passes every test, false when groups exist, null without. */
function expected(
  rows: Awaited<ReturnType<typeof referenceRows>>,
  tests: { metric: 'sent' | 'open_rate'; test: Test }[],
  peersAcross: 'day' | 'window',
): (boolean | null)[] {
  return days().map((day) => {
    const groups = rows.filter((row) => row.day === day);
    if (groups.length === 0) return null;
    const outcomes = groups.map((group) =>
      tests.every(({ metric, test }) => {
        const value = group[metric];
        const peers = (peersAcross === 'day' ? groups : rows).map((row) => row[metric]).filter((v) => v !== null);
        return value !== null && test(value, peers as number[]);
      }),
    );
    return outcomes.some(Boolean);
  });
}

async function previewResults(payload: object): Promise<AlertResult[]> {
  const res = await preview(payload);
  expect(res.statusCode).toBe(200);
  return alertResultsResponseSchema.parse(res.json()).data.results;
}

describe('evaluation against hand-written SQL', () => {
  it('covers the last 30 days ending yesterday, each a window of `duration` days', async () => {
    const results = await previewResults({ duration: 7, conditions: [condition('sent', 'gt', '0')] });
    expect(results.map((r) => r.rangeEnd)).toEqual(days());
    expect(results[0].rangeStart).toBe(addDays(days()[0], -6));
  });

  it.each([
    ['gt', 1, ['0'], (v: number, x: number) => v > x],
    ['gte', 7, ['0'], (v: number, x: number) => v >= x],
    ['lt', 1, ['0'], (v: number, x: number) => v < x],
    ['lte', 7, ['0'], (v: number, x: number) => v <= x],
  ] as const)('%s on a total, duration %i, at the median of the window', async (operator, duration, _v, test) => {
    const rows = await referenceRows({ duration });
    const values = rows.map((row) => row.sent as number).sort((a, b) => a - b);
    const threshold = values[Math.floor(values.length / 2)];
    const results = await previewResults({ duration, conditions: [condition('sent', operator, String(threshold))] });
    const want = expected(rows, [{ metric: 'sent', test: (v) => test(v, threshold) }], 'day');
    expect(results.map((r) => r.result)).toEqual(want);
    expect(want).toContain(true);
    expect(want).toContain(false);
  });

  it('marks days without data as unknown (null), and filters rows first', async () => {
    const where = "r.campaign_type = 'promotional' AND r.country = 'NL'";
    const rows = await referenceRows({ duration: 1, where });
    const results = await previewResults({
      filters: [condition('campaign_type', 'equals', 'promotional'), condition('country', 'equals', 'NL')],
      conditions: [condition('sent', 'gte', '1')],
    });
    const want = expected(rows, [{ metric: 'sent', test: (v) => v >= 1 }], 'day');
    expect(results.map((r) => r.result)).toEqual(want);
    expect(want).toContain(null);
  });

  it('equals, notEquals and inRange on a grouped ratio, duration 7, naming the groups and their values', async () => {
    const rows = await referenceRows({ duration: 7, dimension: 'campaign_type' });
    const some = rows.find((row) => row.sent !== null)!;
    const cases: [string, string[], Test, 'sent' | 'open_rate'][] = [
      ['equals', [String(some.sent)], (v) => v === some.sent, 'sent'],
      ['notEquals', [String(some.sent)], (v) => v !== some.sent, 'sent'],
      ['inRange', ['0.2', '0.3'], (v) => v >= 0.2 && v <= 0.3, 'open_rate'],
    ];
    for (const [operator, values, test, metric] of cases) {
      const results = await previewResults({
        duration: 7,
        dimension: 'campaign_type',
        conditions: [condition(metric, operator, ...values)],
      });
      expect(results.map((r) => r.result)).toEqual(expected(rows, [{ metric, test }], 'day'));
    }
    const results = await previewResults({
      duration: 7,
      dimension: 'campaign_type',
      conditions: [condition('sent', 'notEquals', String(some.sent))],
    });
    const day = results.find((r) => r.rangeEnd === some.day)!;
    const group = day.details.results.find((row) => row.group === some.group)!;
    expect(day.details).toMatchObject({ dimension: 'campaign_type', metrics: ['sent'] });
    expect(group.values.sent).toBeCloseTo(some.sent!, 6);
    expect(day.details.total).toBe(rows.filter((row) => row.day === some.day).length);
  });

  it('outliers: grouped against the day’s other groups, a total against the 30 days', async () => {
    const grouped = await referenceRows({ duration: 1, dimension: 'list_name' });
    const byGroup = await previewResults({
      dimension: 'list_name',
      conditions: [condition('sent', 'outlierHigh', '-1.0')],
    });
    expect(byGroup.map((r) => r.result)).toEqual(
      expected(grouped, [{ metric: 'sent', test: (v, peers) => v > band(peers, 1).high }], 'day'),
    );
    const totals = await referenceRows({ duration: 1 });
    const whole = await previewResults({ conditions: [condition('sent', 'outlier', '-1.5')] });
    const want = expected(
      totals,
      [{ metric: 'sent', test: (v, peers) => v > band(peers, 1.5).high || v < band(peers, 1.5).low }],
      'window',
    );
    expect(whole.map((r) => r.result)).toEqual(want);
    expect(want).toContain(true);
    const low = await previewResults({ conditions: [condition('sent', 'outlierLow', '0')] });
    expect(low.map((r) => r.result)).toEqual(
      expected(totals, [{ metric: 'sent', test: (v, peers) => v < band(peers, 0).low }], 'window'),
    );
  });

  it('needs every condition to hold for the same group', async () => {
    const rows = await referenceRows({ duration: 7, dimension: 'country' });
    const results = await previewResults({
      duration: 7,
      dimension: 'country',
      conditions: [condition('sent', 'gt', '100'), condition('open_rate', 'lt', '0.25')],
    });
    const want = expected(
      rows,
      [
        { metric: 'sent', test: (v) => v > 100 },
        { metric: 'open_rate', test: (v) => v < 0.25 },
      ],
      'day',
    );
    expect(results.map((r) => r.result)).toEqual(want);
  });
});

describe('daily evaluation, violations and e-mail', () => {
  const evaluate = (day: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspaceId}/alerting/evaluate`,
      headers: admin.headers,
      payload: { day },
    });
  const weekdayName = (day: string) =>
    ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][
      new Date(`${day}T00:00:00Z`).getUTCDay()
    ];

  it('opens a violation on a true day and mails the recipients once, never on a muted weekday; false closes it', async () => {
    const rules = await t.app.inject({ url: rulesUrl(), headers: admin.headers });
    for (const rule of rules.json().data as { id: string }[]) {
      await t.app.inject({ method: 'DELETE', url: rulesUrl(`/${rule.id}`), headers: admin.headers });
    }
    // Two consecutive 7-day windows with sends, so the first opens and the second (with the condition turned false) closes.
    const withData = new Set((await referenceRows({ duration: 7 })).map((row) => row.day));
    const day = days().find((d) => withData.has(d) && withData.has(addDays(d, 1)))!;
    const loud = newAlertRuleId();
    const ops = uniqueEmail('ops');
    const muted = newAlertRuleId();
    const base = {
      duration: 7,
      conditions: [condition('sent', 'gte', '0')],
      recipients: [ops],
      message: 'Look now',
    };
    await put(loud, { ...base, title: 'Sends happened' });
    await put(muted, { ...base, title: 'Muted sends', mutedDays: [weekdayName(day)] });
    const first = await evaluate(day);
    expect(first.json().data).toEqual({ day, evaluated: 2, opened: 2, closed: 0 });
    // The same day again: each rule-day is evaluated once.
    expect((await evaluate(day)).json().data).toEqual({ day, evaluated: 0, opened: 0, closed: 0 });
    const evaluations = await t.db.db
      .select()
      .from(alertEvaluations)
      .where(and(eq(alertEvaluations.day, day), inArray(alertEvaluations.ruleId, [loud, muted])));
    expect(evaluations).toHaveLength(2);

    const violations = await t.app.inject({
      url: `/api/workspaces/${workspaceId}/alerting/violations`,
      headers: member.headers,
    });
    expect(violations.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ruleId: loud, status: 'open', openedOn: day, closedOn: null }),
      ]),
    );
    const mails = await t.db.db.select().from(outbox).where(eq(outbox.to, ops));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Alert: Sends happened');
    expect(mails[0].text).toContain(`was triggered on ${day}`);
    expect(mails[0].text).toContain('Look now');
    expect(mails[0].text).toMatch(/- All: sent \d+/);
    expect(mails[0].link).toBe(`http://localhost/workspaces/${workspaceId}/alerting/${loud}`);

    // Turning false the next day closes the violation.
    await put(loud, { ...base, title: 'Sends happened', conditions: [condition('sent', 'lt', '0')] });
    const next = addDays(day, 1);
    expect((await evaluate(next)).json().data).toMatchObject({ closed: 1 });
    const after = await t.app.inject({
      url: `/api/workspaces/${workspaceId}/alerting/violations`,
      headers: admin.headers,
    });
    expect(after.json().data).toEqual(
      expect.arrayContaining([expect.objectContaining({ ruleId: loud, status: 'closed', closedOn: next })]),
    );
  });

  it('reminds the recipients each later day the violation stays open, never on a muted weekday', async () => {
    const rules = await t.app.inject({ url: rulesUrl(), headers: admin.headers });
    for (const rule of rules.json().data as { id: string }[]) {
      await t.app.inject({ method: 'DELETE', url: rulesUrl(`/${rule.id}`), headers: admin.headers });
    }
    // Four consecutive days whose 7-day windows have sends: the rule "sent >= 0" holds on each of them.
    const withData = new Set((await referenceRows({ duration: 7 })).map((row) => row.day));
    const day = days().find((d) => [0, 1, 2, 3].every((offset) => withData.has(addDays(d, offset))))!;
    const [second, third, fourth] = [1, 2, 3].map((offset) => addDays(day, offset));
    const id = newAlertRuleId();
    const ops = uniqueEmail('ops');
    await put(id, {
      title: 'Still sending',
      duration: 7,
      conditions: [condition('sent', 'gte', '0')],
      recipients: [ops],
      mutedDays: [weekdayName(third)],
    });
    for (const each of [day, second, third, fourth]) await evaluate(each);
    // Evaluated again (another process, a retry): no second reminder for the same day.
    await evaluate(second);

    const mails = await t.db.db.select().from(outbox).where(eq(outbox.to, ops)).orderBy(outbox.id);
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Alert: Still sending',
      'Alert still open: Still sending',
      'Alert still open: Still sending',
    ]);
    expect(mails[1].text).toContain(`is still triggered on ${second} (open since ${day})`);
    expect(mails[2].text).toContain(`is still triggered on ${fourth} (open since ${day})`);
    expect(mails[2].text).toMatch(/- All: sent \d+/);
    expect(mails[2].link).toBe(`http://localhost/workspaces/${workspaceId}/alerting/${id}`);
    const violations = await t.app.inject({
      url: `/api/workspaces/${workspaceId}/alerting/violations`,
      headers: admin.headers,
    });
    expect(violations.json().data.filter((violation: { ruleId: string }) => violation.ruleId === id)).toEqual([
      expect.objectContaining({ status: 'open', openedOn: day }),
    ]);
  });

  it('skips a rule removed while the engine evaluated it, rather than failing on its missing row', async () => {
    const id = newAlertRuleId();
    await put(id, { title: 'Removed meanwhile', conditions: [condition('sent', 'gte', '0')] });
    // The job read the rule, then the engine ran while an admin removed it.
    const rule = (await findRuleById(t.db.db, id))!;
    const removed = await t.app.inject({ method: 'DELETE', url: rulesUrl(`/${id}`), headers: admin.headers });
    expect(removed.statusCode).toBe(200);
    const evaluator = new AlertEvaluator(t.db.db, t.config.dataDir);
    try {
      expect(await evaluateRuleDay(t.app, evaluator, rule, yesterday())).toBe('rule removed');
    } finally {
      await evaluator.close();
    }
    expect(await t.db.db.select().from(alertEvaluations).where(eq(alertEvaluations.ruleId, id))).toEqual([]);
  });
});
