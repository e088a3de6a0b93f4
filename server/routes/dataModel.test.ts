import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { CustomFieldGroup } from '../../src/contracts/dataModel';
import type { Field } from '../../src/contracts/datasets';
import { compileDimensionRules, compileMetricExpression, defaultSqlRenderer } from '../../src/engine/dataModel/compile';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { generateWorkspaceDatasets, workspaceDatasetDir } from '../datasets/generate';
import { addMember, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

const t = withTestApp();
let admin: SignedIn;
let member: SignedIn;
let workspaceId: number;

beforeAll(async () => {
  admin = await signIn(t);
  member = await signIn(t);
  workspaceId = (await createWorkspace(t, { adminUserId: admin.userId })).id;
  await addMember(t, workspaceId, member.userId, 'member');
}, START_TIMEOUT_MS);

const customUrl = (id = workspaceId) => `/api/workspaces/${id}/schema/custom-fields`;

const groups: CustomFieldGroup[] = [
  {
    table: 'campaign_metrics_by_send_date',
    action: 'insert_after',
    anchor: 'revenue',
    fields: [
      {
        id: 'margin_per_click',
        name: 'Margin per click',
        category: 'Conversion',
        format: 'currency',
        type: 'metric',
        features: [],
        custom: true,
        expr: 'revenue * 0.3 / clicks_unique',
      },
    ],
  },
  {
    table: 'campaign_metrics_by_send_date',
    action: 'insert_after',
    anchor: 'country',
    fields: [
      {
        id: 'region',
        name: 'Region',
        category: 'Audience',
        format: 'string',
        type: 'dimension',
        features: [],
        custom: true,
        rules: [
          { field: 'country', type: 'equals', value: 'NL', result: 'Benelux' },
          { field: 'country', type: 'equals', value: 'BE', result: 'Benelux' },
          { field: 'campaign_name', type: 'startsWith', value: 'Newsletter', result: 'Newsletters' },
        ],
        rules_else: 'Elsewhere',
      },
    ],
  },
];

describe('custom fields', () => {
  it('starts empty, and only members may read', async () => {
    const response = await t.app.inject({ url: customUrl(), headers: member.headers });
    expect([response.statusCode, response.json()]).toEqual([200, []]);
    const outsider = await signIn(t);
    expect((await t.app.inject({ url: customUrl(), headers: outsider.headers })).statusCode).toBe(404);
  });

  it('only admins may save', async () => {
    const response = await t.app.inject({ method: 'PUT', url: customUrl(), headers: member.headers, payload: groups });
    expect([response.statusCode, response.json()]).toEqual([403, { error: 'Forbidden' }]);
  });

  it('round-trips through PUT and GET', async () => {
    const put = await t.app.inject({ method: 'PUT', url: customUrl(), headers: admin.headers, payload: groups });
    expect([put.statusCode, put.json()]).toEqual([200, groups]);
    expect(put.json()).toEqual(groups);
    const get = await t.app.inject({ url: customUrl(), headers: member.headers });
    expect(get.json()).toEqual(groups);
  });

  it.each<[string, (g: CustomFieldGroup[]) => void, string]>([
    [
      'a bad expression',
      (g) => (g[0].fields[0].expr = 'revenue / (clicks_unique'),
      'Unbalanced parentheses - missing closing parenthesis',
    ],
    [
      'two divisions',
      (g) => (g[0].fields[0].expr = 'revenue / sent / open'),
      'Only one division (/) operator is allowed',
    ],
    ['a missing name', (g) => (g[0].fields[0].name = ''), 'Please provide a name'],
    ['a bad country', (g) => (g[1].fields[0].rules![0].value = 'Holland'), 'Must be a valid country'],
    ['no rules', (g) => (g[1].fields[0].rules = []), 'Must have at least one rule'],
    ['a taken id', (g) => (g[1].fields[0].id = 'country'), 'Field id must be unique'],
    // A custom field may only depend on fields before it.
    ['a rule on a later field', (g) => (g[1].action = 'insert_before'), 'Field is required'],
  ])('refuses %s with the spec message and keeps the saved list', async (_label, change, message) => {
    const changed = structuredClone(groups);
    change(changed);
    const response = await t.app.inject({ method: 'PUT', url: customUrl(), headers: admin.headers, payload: changed });
    expect([response.statusCode, response.json()]).toEqual([400, { error: message }]);
    expect((await t.app.inject({ url: customUrl(), headers: admin.headers })).json()).toEqual(groups);
  });

  it('merges the custom fields into the schema at their anchors as virtual fields', async () => {
    const schema = (
      await t.app.inject({
        url: `/api/workspaces/${workspaceId}/datasets/campaign_metrics_by_send_date?schema=true`,
        headers: member.headers,
      })
    ).json();
    const ids = schema.fields.map((f: Field) => f.id);
    expect(ids.indexOf('margin_per_click')).toBe(ids.indexOf('revenue') + 1);
    expect(ids.indexOf('region')).toBe(ids.indexOf('country') + 1);
    expect(schema.fields.find((f: Field) => f.id === 'margin_per_click')).toMatchObject({
      dataSourceType: 'virtual',
      type: 'metric',
      expr: 'revenue * 0.3 / clicks_unique',
      agg: { type: 'custom', expression: 'revenue * 0.3 / clicks_unique' },
    });
    expect(schema.fields.find((f: Field) => f.id === 'region')).toMatchObject({
      dataSourceType: 'virtual',
      rules_else: 'Elsewhere',
    });
    const tables = (
      await t.app.inject({ url: `/api/workspaces/${workspaceId}/schema/tables`, headers: member.headers })
    ).json();
    const table = tables.tables.find((tb: { id: string }) => tb.id === 'campaign_metrics_by_send_date');
    expect(table.fields.map((f: Field) => f.id)).toEqual(ids);
  });

  it('compiles the saved fields to SQL giving the numbers computed by hand', async () => {
    await generateWorkspaceDatasets(t.config.dataDir, workspaceId, { rows: 4000, seed: 5, endDate: '2026-11-21' });
    const schema = (
      await t.app.inject({
        url: `/api/workspaces/${workspaceId}/datasets/campaign_metrics_by_send_date?schema=true`,
        headers: member.headers,
      })
    ).json();
    const byId = new Map<string, Field>(schema.fields.map((f: Field) => [f.id, f]));
    const sql = defaultSqlRenderer(byId);
    const metric = compileMetricExpression(byId.get('margin_per_click')!, byId, sql);
    const dimension = compileDimensionRules(byId.get('region')!, byId, sql);

    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const file = path.join(
        workspaceDatasetDir(t.config.dataDir, workspaceId),
        'campaign_metrics_by_send_date.parquet',
      );
      const source = `read_parquet('${file}')`;
      const raw = (
        await connection.runAndReadAll(`SELECT country, campaign_name, revenue, clicks_unique FROM ${source}`)
      )
        .getRowObjectsJS()
        .map((row) => ({
          country: String(row.country),
          name: String(row.campaign_name),
          revenue: Number(row.revenue),
          clicks: Number(row.clicks_unique),
        }));
      const regionOf = (row: { country: string; name: string }) =>
        ['NL', 'BE'].includes(row.country)
          ? 'Benelux'
          : row.name.startsWith('Newsletter')
            ? 'Newsletters'
            : 'Elsewhere';
      const byHand = new Map<string, { revenue: number; clicks: number }>();
      for (const row of raw) {
        const totals = byHand.get(regionOf(row)) ?? { revenue: 0, clicks: 0 };
        totals.revenue += row.revenue;
        totals.clicks += row.clicks;
        byHand.set(regionOf(row), totals);
      }
      const computed = (
        await connection.runAndReadAll(
          `SELECT ${dimension} AS region, ${metric} AS value FROM ${source} GROUP BY 1 ORDER BY 1`,
        )
      ).getRowObjectsJS();
      expect(computed.map((row) => row.region)).toEqual([...byHand.keys()].sort());
      for (const row of computed) {
        const totals = byHand.get(String(row.region))!;
        expect(Number(row.value)).toBeCloseTo((totals.revenue * 0.3) / totals.clicks, 9);
      }
      expect([...byHand.keys()].sort()).toEqual(['Benelux', 'Elsewhere', 'Newsletters']);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }, 30_000);
});
