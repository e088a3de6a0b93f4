import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { type Table, tableFromIPC } from 'apache-arrow';
import { getCatalogueDataset } from '../../src/contracts/catalogue';
import { PUBLIC_LINK_WIDENED, type Report } from '../../src/contracts/reports';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { generateWorkspaceDatasets, workspaceDatasetDir } from '../datasets/generate';
import { addMember, apiCaller, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

const t = withTestApp();
let owner: SignedIn;
let editor: SignedIn;
let workspaceId: number;
let duckdb: DuckDBInstance;

const DATASET = 'campaign_metrics_by_send_date';

beforeAll(async () => {
  owner = await signIn(t);
  editor = await signIn(t);
  workspaceId = (await createWorkspace(t, { adminUserId: owner.userId })).id;
  await addMember(t, workspaceId, editor.userId, 'member');
  await generateWorkspaceDatasets(t.config.dataDir, workspaceId, { rows: 4000, seed: 5, endDate: '2026-11-21' });
  duckdb = await DuckDBInstance.create(':memory:', { threads: '1' });
}, START_TIMEOUT_MS);

afterAll(async () => {
  duckdb?.closeSync();
}, START_TIMEOUT_MS);

const call = apiCaller(t);

const globalFilter = { member: 'country', operator: 'notEquals', values: ['NL'] };
const typeFilter = { member: 'campaign_type', operator: 'equals', values: ['promotion'] };
const sentFilter = { member: 'sent', operator: 'gt', values: ['400'] };

/** A table of open rate by campaign type for promotions, a graph of revenue for larger sends, and a text. */
const baseConfig = () => ({
  title: 'Public',
  filters: [globalFilter],
  widgets: [
    {
      id: 'w1',
      type: 'table',
      dataset: DATASET,
      metrics: ['open_rate'],
      dimensions: ['campaign_type'],
      filters: [typeFilter],
    },
    { id: 'w2', type: 'graph', dataset: DATASET, metrics: ['revenue'], filters: [sentFilter] },
    { id: 'w3', type: 'rich_text', content: '<p>Hello</p>' },
  ],
});
type Config = ReturnType<typeof baseConfig>;

async function publicReport(config: unknown = baseConfig()): Promise<Report> {
  const created = await call(owner, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, {
    title: 'Public',
    config,
  });
  expect(created.statusCode).toBe(201);
  const report = created.json().data as Report;
  const shared = await call(owner, 'PUT', `/workspaces/${workspaceId}/permissions`, {
    accessLevel: 'read',
    subjectType: 'public',
    objectId: report.id,
    objectType: 'dashboard',
  });
  expect(shared.statusCode).toBe(200);
  return report;
}

async function grantEdit(report: Report, objectType = 'dashboard') {
  const granted = await call(owner, 'PUT', `/workspaces/${workspaceId}/permissions`, {
    accessLevel: 'read_write',
    subjectType: 'user',
    subjectId: editor.userId,
    objectId: report.id,
    objectType,
  });
  expect(granted.statusCode).toBe(200);
}

async function save(who: SignedIn, report: Report, config: unknown, type = 'dashboard') {
  const current = await call(owner, 'GET', `/workspaces/${workspaceId}/reports/${type}/${report.id}`);
  return call(who, 'PUT', `/workspaces/${workspaceId}/reports/${type}/${report.id}`, {
    config,
    version: current.json().data.version,
  });
}

async function publicTable(reportId: number) {
  const response = await call(null, 'GET', `/reports/${reportId}/datasets/${DATASET}`, undefined, {
    'accept-encoding': 'gzip',
  });
  expect(response.statusCode).toBe(200);
  return { response, table: tableFromIPC(zlib.gunzipSync(response.rawPayload)) };
}

/** The rows the report shows, by an independent hand-written query over the workspace's Parquet file. */
const COLUMNS = ['campaign_type', 'country', 'sent', 'open', 'delivered', 'revenue'];

async function expectedRows(where: string, columns = COLUMNS, workspace = workspaceId): Promise<string[]> {
  const parquet = path.join(workspaceDatasetDir(t.config.dataDir, workspace), `${DATASET}.parquet`);
  const connection = await duckdb.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT ${columns.join(', ')} FROM read_parquet($path) WHERE ${where}`,
      { path: parquet },
    );
    return reader.getRowObjectsJS().map((row) => JSON.stringify(Object.values(row).map(String)));
  } finally {
    connection.closeSync();
  }
}

const servedRows = (table: Table, columns = COLUMNS) =>
  table.toArray().map((row: Record<string, unknown>) => JSON.stringify(columns.map((column) => String(row[column]))));

describe('a public dataset file', () => {
  it('holds only the rows that pass the saved filters and the columns the widgets use', async () => {
    const report = await publicReport();
    const { table } = await publicTable(report.id);
    // The date field, the shown fields, a ratio's parts (open_rate) and the filter fields; nothing else.
    expect(table.schema.fields.map((field) => field.name)).toEqual([
      'send_date',
      'campaign_type',
      'country',
      'sent',
      'delivered',
      'open',
      'revenue',
    ]);
    const expected = await expectedRows(
      `(country IS NULL OR country <> 'NL') AND (campaign_type = 'promotion' OR sent > 400)`,
    );
    expect(expected.length).toBeGreaterThan(100);
    expect(servedRows(table)).toEqual(expected);
    const all = await expectedRows('TRUE');
    expect(expected.length).toBeLessThan(all.length);

    // The schema answer names the same fields, computed ones included; hidden ones (campaign ids) are not there.
    const schema = await call(null, 'GET', `/reports/${report.id}/datasets/${DATASET}?schema=true`);
    expect(schema.statusCode).toBe(200);
    expect(schema.json().fields.map((field: { id: string }) => field.id)).toEqual(
      getCatalogueDataset(DATASET)!
        .fields.map((field) => field.id)
        .filter((id) =>
          ['send_date', 'campaign_type', 'country', 'sent', 'delivered', 'open', 'revenue', 'open_rate'].includes(id),
        ),
    );
    // No web view of any campaign: the widgets show neither ids nor links.
    expect((await call(null, 'GET', `/reports/${report.id}/datasets/campaigns/cmp-1`)).statusCode).toBe(404);
  });

  it('answers 404 for a dataset no widget uses', async () => {
    const report = await publicReport();
    for (const url of [
      `/reports/${report.id}/datasets/campaign_metrics_by_event_date`,
      `/reports/${report.id}/datasets/campaign_metrics_by_event_date?schema=true`,
    ]) {
      expect([url, (await call(null, 'GET', url)).statusCode]).toEqual([url, 404]);
    }
    expect((await call(null, 'GET', `/reports/${report.id}/datasets`)).json()).toEqual({
      datasets: [{ id: DATASET, title: 'Campaigns by send date' }],
    });
  });

  it('never serves the engagement tables, even for a widget on them in a workspace with the flag', async () => {
    const flagged = (await createWorkspace(t, { adminUserId: owner.userId, features: ['engagement'] })).id;
    await generateWorkspaceDatasets(t.config.dataDir, flagged, { rows: 4000, seed: 5, endDate: '2026-11-21' });
    const widget = { id: 'w1', type: 'table', dataset: 'engagement_segments', metrics: ['size'], dimensions: [] };
    const created = await call(owner, 'POST', `/workspaces/${flagged}/reports/dashboard`, {
      title: 'Engagement',
      config: { title: 'Engagement', filters: [], widgets: [widget] },
    });
    expect(created.statusCode).toBe(201);
    const reportId = created.json().data.id;
    const shared = await call(owner, 'PUT', `/workspaces/${flagged}/permissions`, {
      accessLevel: 'read',
      subjectType: 'public',
      objectId: reportId,
      objectType: 'dashboard',
    });
    expect(shared.statusCode).toBe(200);
    expect((await call(null, 'GET', `/reports/${reportId}/datasets`)).json()).toEqual({ datasets: [] });
    for (const id of ['engagement_segments', 'engagement_contacts']) {
      expect((await call(null, 'GET', `/reports/${reportId}/datasets/${id}`)).statusCode).toBe(404);
      expect((await call(null, 'GET', `/reports/${reportId}/datasets/${id}?schema=true`)).statusCode).toBe(404);
    }
  });

  it('is built once per report version and rebuilt from the new config after a save', async () => {
    const report = await publicReport();
    const first = await publicTable(report.id);
    const again = await publicTable(report.id);
    expect(again.response.headers.etag).toBe(first.response.headers.etag);
    const revalidated = await call(null, 'GET', `/reports/${report.id}/datasets/${DATASET}`, undefined, {
      'if-none-match': first.response.headers.etag,
    });
    expect(revalidated.statusCode).toBe(304);

    // The owner narrows the table to promotions and drops the graph: the link serves the new, smaller file at once.
    const narrowed: Config = { ...baseConfig(), widgets: [baseConfig().widgets[0]] };
    expect((await save(owner, report, narrowed)).statusCode).toBe(200);
    const after = await publicTable(report.id);
    expect(after.response.headers.etag).not.toBe(first.response.headers.etag);
    const narrowColumns = ['send_date', 'campaign_type', 'country', 'delivered', 'open'];
    expect(after.table.schema.fields.map((field) => field.name)).toEqual(narrowColumns);
    expect(servedRows(after.table, narrowColumns.slice(1))).toEqual(
      await expectedRows(
        `(country IS NULL OR country <> 'NL') AND campaign_type = 'promotion'`,
        narrowColumns.slice(1),
      ),
    );
    // Only the current build is kept on disk.
    const builds = fs.readdirSync(path.join(t.config.dataDir, 'public', String(report.id), DATASET));
    expect(builds).toHaveLength(1);
  });

  it('is rebuilt when the workspace data change, for two requests at once, and keeps only the current build', async () => {
    const report = await publicReport();
    const before = await publicTable(report.id);
    await generateWorkspaceDatasets(t.config.dataDir, workspaceId, { rows: 4000, seed: 6, endDate: '2026-11-21' });
    const [one, two] = await Promise.all([publicTable(report.id), publicTable(report.id)]);
    expect(one.response.headers.etag).toBe(two.response.headers.etag);
    expect(one.response.headers.etag).not.toBe(before.response.headers.etag);
    expect(servedRows(one.table)).toEqual(
      await expectedRows(`(country IS NULL OR country <> 'NL') AND (campaign_type = 'promotion' OR sent > 400)`),
    );
    const builds = fs.readdirSync(path.join(t.config.dataDir, 'public', String(report.id), DATASET));
    expect(builds).toHaveLength(1);
  });

  it('caches briefly in public and never in private', async () => {
    const report = await publicReport();
    const file = await publicTable(report.id);
    expect(file.response.headers['cache-control']).toBe('public, max-age=60');
    expect(file.response.headers.etag).toMatch(/^"[0-9a-f]{20}"$/);
    const schema = await call(null, 'GET', `/reports/${report.id}/datasets/${DATASET}?schema=true`);
    expect(schema.headers['cache-control']).toBe('public, max-age=60');
    const unchanged = await call(null, 'GET', `/reports/${report.id}/datasets/${DATASET}?schema=true`, undefined, {
      'if-none-match': schema.headers.etag,
    });
    expect(unchanged.statusCode).toBe(304);

    for (const rest of ['', `/${DATASET}?schema=true`, '/campaigns/cmp-1']) {
      const response = await call(owner, 'GET', `/workspaces/${workspaceId}/datasets${rest}`);
      expect([rest, response.statusCode, response.headers['cache-control']]).toEqual([rest, 200, 'private, no-store']);
    }
    // The member's file keeps its ETag revalidation: the browser's cache must ask before reusing it.
    const own = await call(owner, 'GET', `/workspaces/${workspaceId}/datasets/${DATASET}`);
    expect(own.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
  });
});

describe('saving a public report without share right', () => {
  it('refuses what would widen the link and accepts what keeps or narrows it', async () => {
    const report = await publicReport();
    await grantEdit(report);
    const refused = async (config: unknown) => {
      const response = await save(editor, report, config);
      expect([response.statusCode, response.json()]).toEqual([403, { error: PUBLIC_LINK_WIDENED }]);
    };
    const base = baseConfig();
    // A removed global filter, a removed widget filter, a widget on another dataset, a field more.
    await refused({ ...base, filters: [] });
    await refused({ ...base, widgets: [{ ...base.widgets[0], filters: [] }, base.widgets[1]] });
    await refused({
      ...base,
      widgets: [
        ...base.widgets,
        { id: 'w4', type: 'graph', dataset: 'campaign_metrics_by_event_date', metrics: ['sent'] },
      ],
    });
    await refused({ ...base, widgets: [{ ...base.widgets[0], metrics: ['open_rate', 'clicks'] }, base.widgets[1]] });
    // Nothing was written.
    const { table } = await publicTable(report.id);
    expect(servedRows(table)).toEqual(
      await expectedRows(`(country IS NULL OR country <> 'NL') AND (campaign_type = 'promotion' OR sent > 400)`),
    );

    // A filter more, a widget less, or the same data in another layout are the editor's to save.
    const narrower = { ...base, filters: [globalFilter, { member: 'sent', operator: 'gt', values: ['10'] }] };
    expect((await save(editor, report, narrower)).statusCode).toBe(200);
    expect((await save(editor, report, { ...narrower, widgets: [base.widgets[0], base.widgets[2]] })).statusCode).toBe(
      200,
    );
    // The owner holds share right and may widen it.
    expect((await save(owner, report, { ...base, filters: [] })).statusCode).toBe(200);
  });

  it('does not limit editors of a report that has no public link', async () => {
    const created = await call(owner, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, {
      title: 'Private',
      config: baseConfig(),
    });
    const report = created.json().data as Report;
    await grantEdit(report);
    expect((await save(editor, report, { ...baseConfig(), filters: [] })).statusCode).toBe(200);
  });
});

describe("an explorer view's public link", () => {
  /** Open rate and sends by campaign type for DE and FR, sends hidden, groups of more than 1000 in revenue. */
  const viewConfig = (patch: Record<string, unknown> = {}) => ({
    dataset: DATASET,
    valueColumns: ['open_rate', 'sent'],
    columns: [{ colId: 'campaign_type', rowGroup: true }, { colId: 'sent', hide: true }, { colId: 'subject_line' }],
    filterModel: {
      country: { filterType: 'set', values: ['DE', 'FR'] },
      revenue: { filterType: 'number', type: 'greaterThan', filter: 1000 },
    },
    ...patch,
  });

  async function publicView(config: unknown = viewConfig(), workspace = workspaceId) {
    const created = await call(owner, 'POST', `/workspaces/${workspace}/reports/explorer_view`, {
      title: 'View',
      config,
    });
    expect(created.statusCode).toBe(201);
    const report = created.json().data as Report;
    const shared = await call(owner, 'PUT', `/workspaces/${workspace}/permissions`, {
      accessLevel: 'read',
      subjectType: 'public',
      objectId: report.id,
      objectType: 'explorer_view',
    });
    expect(shared.statusCode).toBe(200);
    return report;
  }

  const VIEW_COLUMNS = ['campaign_type', 'country', 'delivered', 'open', 'revenue'];

  it('serves its dataset with only the fields the grid shows or filters by and the rows its filters keep', async () => {
    const report = await publicView();
    expect((await call(null, 'GET', `/reports/${report.id}/datasets`)).json()).toEqual({
      datasets: [{ id: DATASET, title: 'Campaigns by send date' }],
    });
    const { table } = await publicTable(report.id);
    // No hidden sends, no subject lines the grid does not draw; the revenue filter picks groups, not rows.
    expect(table.schema.fields.map((field) => field.name)).toEqual(['send_date', ...VIEW_COLUMNS]);
    const expected = await expectedRows(`country IN ('DE', 'FR')`, VIEW_COLUMNS);
    expect(expected.length).toBeGreaterThan(100);
    expect(servedRows(table, VIEW_COLUMNS)).toEqual(expected);

    const schema = await call(null, 'GET', `/reports/${report.id}/datasets/${DATASET}?schema=true`);
    expect(schema.json().fields.map((field: { id: string }) => field.id)).toEqual(
      getCatalogueDataset(DATASET)!
        .fields.map((field) => field.id)
        .filter((id) => ['send_date', ...VIEW_COLUMNS, 'open_rate'].includes(id)),
    );
    for (const url of [
      `/reports/${report.id}/datasets/campaign_metrics_by_event_date`,
      `/reports/${report.id}/datasets/campaigns/cmp-1`,
    ]) {
      expect([url, (await call(null, 'GET', url)).statusCode]).toEqual([url, 404]);
    }
  });

  it('serves no rows for a filter model the grid cannot read, and nothing once the link is off', async () => {
    const broken = await publicView(viewConfig({ filterModel: { country: { filterType: 'regex', filter: 'x' } } }));
    const { table } = await publicTable(broken.id);
    expect(table.numRows).toBe(0);

    const report = await publicView();
    const off = await call(owner, 'PUT', `/workspaces/${workspaceId}/permissions`, {
      accessLevel: 'none',
      subjectType: 'public',
      objectId: report.id,
      objectType: 'explorer_view',
    });
    expect(off.statusCode).toBe(200);
    expect((await call(null, 'GET', `/reports/${report.id}/datasets/${DATASET}`)).statusCode).toBe(404);
    // Another workspace's view is not found through this workspace, and its link serves its own workspace's rows.
    const other = (await createWorkspace(t, { adminUserId: owner.userId })).id;
    await generateWorkspaceDatasets(t.config.dataDir, other, { rows: 1000, seed: 9, endDate: '2026-11-21' });
    const elsewhere = await publicView(viewConfig(), other);
    const url = `/workspaces/${workspaceId}/reports/explorer_view/${elsewhere.id}`;
    expect((await call(owner, 'GET', url)).statusCode).toBe(404);
    const served = servedRows((await publicTable(elsewhere.id)).table, VIEW_COLUMNS);
    expect(served).toEqual(await expectedRows(`country IN ('DE', 'FR')`, VIEW_COLUMNS, other));
    expect(served).not.toEqual(await expectedRows(`country IN ('DE', 'FR')`, VIEW_COLUMNS));
  });

  it("refuses an editor's save that shows a column more or drops a filter, and accepts one that narrows", async () => {
    const report = await publicView();
    await grantEdit(report, 'explorer_view');
    const saveView = (who: SignedIn, config: unknown) => save(who, report, config, 'explorer_view');
    const refused = async (config: unknown) => {
      const response = await saveView(editor, config);
      expect([response.statusCode, response.json()]).toEqual([403, { error: PUBLIC_LINK_WIDENED }]);
    };
    await refused(viewConfig({ valueColumns: ['open_rate', 'sent', 'clicks'] }));
    await refused(viewConfig({ columns: [{ colId: 'campaign_type', rowGroup: true }] }));
    await refused(viewConfig({ filterModel: null }));
    await refused(viewConfig({ dataset: 'campaign_metrics_by_event_date' }));
    const narrower = viewConfig({
      filterModel: { ...viewConfig().filterModel, campaign_type: { filterType: 'set', values: ['promotion'] } },
    });
    expect((await saveView(editor, narrower)).statusCode).toBe(200);
    const { table } = await publicTable(report.id);
    expect(servedRows(table, VIEW_COLUMNS)).toEqual(
      await expectedRows(`country IN ('DE', 'FR') AND campaign_type = 'promotion'`, VIEW_COLUMNS),
    );
    expect((await saveView(owner, viewConfig({ filterModel: null }))).statusCode).toBe(200);
  });
});
