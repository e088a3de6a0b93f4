import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { catalogue } from '../../src/contracts/catalogue';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import {
  ensureWorkspaceDatasets,
  generateWorkspaceDatasets,
  readManifest,
  todayUtc,
  workspaceDatasetDir,
  type WorkspaceManifest,
} from './generate';

const params = { rows: 40_000, seed: 7, endDate: '2026-11-21' };
let dataDir: string;
let manifest: WorkspaceManifest;
let instance: DuckDBInstance;
let connection: DuckDBConnection;

async function rowsOf(sql: string): Promise<Record<string, unknown>[]> {
  return (await connection.runAndReadAll(sql)).getRowObjectsJS();
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-datasets-'));
  manifest = await generateWorkspaceDatasets(dataDir, 42, params);
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  const dir = workspaceDatasetDir(dataDir, 42);
  for (const dataset of catalogue) {
    await connection.run(
      `CREATE VIEW ${dataset.id} AS SELECT * FROM read_parquet('${path.join(dir, `${dataset.id}.parquet`)}')`,
    );
  }
  await connection.run(
    `CREATE VIEW engagement_segments_in_file_order AS
     SELECT * FROM read_parquet('${path.join(dir, 'engagement_segments.parquet')}', file_row_number = true)`,
  );
}, START_TIMEOUT_MS);

afterAll(() => {
  connection?.closeSync();
  instance?.closeSync();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** DuckDB column type each catalogue format is stored as. */
const storedType: Record<string, string> = {
  date: 'DATE',
  string: 'VARCHAR',
  country: 'VARCHAR',
  url: 'VARCHAR',
  boolean: 'BOOLEAN',
  weekday: 'INTEGER',
  month: 'INTEGER',
  number_text: 'INTEGER',
  number: 'INTEGER',
  currency: 'DOUBLE',
};

describe('generated files', () => {
  it('writes every catalogue dataset with a manifest versioning Parquet and Arrow together', () => {
    expect(readManifest(workspaceDatasetDir(dataDir, 42))).toEqual(manifest);
    for (const dataset of catalogue) {
      const entry = manifest.datasets[dataset.id];
      expect(entry.rows).toBeGreaterThan(0);
      expect(entry.version).toMatch(/^[0-9a-f]{20}$/);
      for (const suffix of ['.parquet', '.arrow', '.arrow.gz']) {
        expect(fs.existsSync(path.join(workspaceDatasetDir(dataDir, 42), `${dataset.id}${suffix}`))).toBe(true);
      }
    }
    // The largest file has the requested size, within the share of event days after the end date.
    expect(manifest.datasets.campaign_metrics_by_event_date.rows).toBeGreaterThan(params.rows * 0.98);
    expect(manifest.datasets.campaign_metrics_by_event_date.rows).toBeLessThanOrEqual(params.rows);
    // Independent noise per attribute: ecommerce lines rarely share a cell with the same customer.
    expect(manifest.datasets.ecommerce.rows).toBeGreaterThan((params.rows / 10) * 0.9);
    expect(fs.readdirSync(path.join(dataDir, 'datasets'))).toEqual(['42']);
  });

  it('stores exactly the catalogue fields that are not computed, with the type of their format', async () => {
    for (const dataset of catalogue) {
      const columns = await rowsOf(`DESCRIBE ${dataset.id}`);
      const stored = dataset.fields.filter(
        (field) => field.type === 'dimension' || field.agg?.type === 'sum' || field.agg?.type === 'max',
      );
      expect(columns.map((c) => c.column_name).sort()).toEqual(stored.map((f) => f.id).sort());
      for (const field of stored) {
        const column = columns.find((c) => c.column_name === field.id);
        expect(`${dataset.id}.${field.id}:${column?.column_type}`).toBe(
          `${dataset.id}.${field.id}:${storedType[field.format]}`,
        );
      }
    }
  });

  it('has no missing values in any column', async () => {
    for (const dataset of catalogue) {
      const columns = await rowsOf(`DESCRIBE ${dataset.id}`);
      const nulls = columns.map((c) => `count(*) FILTER (WHERE "${String(c.column_name)}" IS NULL)`).join(' + ');
      expect(await rowsOf(`SELECT (${nulls})::INTEGER AS n FROM ${dataset.id}`)).toEqual([{ n: 0 }]);
    }
  });

  it('is deterministic for a seed and differs for another seed', async () => {
    const again = await generateWorkspaceDatasets(dataDir, 43, params);
    const other = await generateWorkspaceDatasets(dataDir, 44, { ...params, seed: 8 });
    for (const dataset of catalogue) {
      expect(again.datasets[dataset.id].version).toBe(manifest.datasets[dataset.id].version);
    }
    expect(other.datasets.campaign_metrics_by_send_date.version).not.toBe(
      manifest.datasets.campaign_metrics_by_send_date.version,
    );
  }, 60_000);
});

describe('demo data on first need', () => {
  it('serves older demo files while fresh ones reaching today are generated', async () => {
    const old = await generateWorkspaceDatasets(dataDir, 50, {
      rows: 2000,
      seed: 1,
      endDate: '2026-01-01',
      auto: true,
    });
    expect(await ensureWorkspaceDatasets(dataDir, 50)).toEqual(old);
    const deadline = Date.now() + 50_000;
    while (readManifest(workspaceDatasetDir(dataDir, 50))?.params.endDate !== todayUtc() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(readManifest(workspaceDatasetDir(dataDir, 50))?.params).toMatchObject({ endDate: todayUtc(), auto: true });
  }, 60_000);

  it('leaves files made on purpose (npm run datasets) as they are', async () => {
    const made = await generateWorkspaceDatasets(dataDir, 51, { rows: 2000, seed: 1, endDate: '2026-01-01' });
    expect(await ensureWorkspaceDatasets(dataDir, 51)).toEqual(made);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readManifest(workspaceDatasetDir(dataDir, 51))).toEqual(made);
  });
});

/** Each invariant is a query returning the violating rows; none may come back. */
const invariants: Record<string, string> = {
  'send: delivered = sent - bounces ≤ sent, sent_unique ≤ sent': `SELECT * FROM campaign_metrics_by_send_date
    WHERE delivered <> sent - bounces OR delivered > sent OR sent_unique > sent OR sent < 1`,
  'send: hard + soft = bounces': `SELECT * FROM campaign_metrics_by_send_date WHERE hard_bounces + soft_bounces <> bounces OR soft_bounces < 0`,
  'send: open ≤ delivered, opens ≥ open': `SELECT * FROM campaign_metrics_by_send_date WHERE open > delivered OR opens < open`,
  'send: clicks_unique ≤ open, clicks ≥ clicks_unique': `SELECT * FROM campaign_metrics_by_send_date
    WHERE clicks_unique > open OR clicks < clicks_unique`,
  'send: sessions ≤ clicks, transactions ≤ sessions, revenue ≥ 0 and 0 without transactions': `SELECT * FROM campaign_metrics_by_send_date
    WHERE sessions > clicks OR transactions > sessions OR revenue < 0 OR (transactions = 0 AND revenue <> 0)`,
  'send: unsubscribes and complaints ≤ delivered': `SELECT * FROM campaign_metrics_by_send_date
    WHERE unsubscribes > delivered OR complaints > delivered`,
  'send: one row per campaign and country': `SELECT campaign_id, country FROM campaign_metrics_by_send_date GROUP BY ALL HAVING count(*) > 1`,
  'send: weekday, month and hour follow the send date': `SELECT * FROM campaign_metrics_by_send_date
    WHERE send_weekday <> dayofweek(send_date) OR send_month <> month(send_date) OR send_hour NOT BETWEEN 0 AND 23`,
  'send: campaign attributes are the same on every row of a campaign': `SELECT campaign_id FROM campaign_metrics_by_send_date GROUP BY campaign_id
    HAVING count(DISTINCT (send_date, campaign_name, subject_line, campaign_type, list_name, integration_name, is_ab_test)) > 1`,
  'send: campaign types and countries from the catalogue': `SELECT * FROM campaign_metrics_by_send_date
    WHERE campaign_type NOT IN ('newsletter', 'promotion', 'automation', 'transactional') OR NOT regexp_matches(country, '^[A-Z]{2}$')`,
  'send: no data after the end date': `SELECT * FROM campaign_metrics_by_send_date WHERE send_date > DATE '2026-11-21'`,
  'send: fewer sends at weekends than on weekdays': `SELECT 1 FROM (
      SELECT avg(sent) FILTER (WHERE dayofweek(send_date) IN (0, 6)) AS weekend,
        avg(sent) FILTER (WHERE dayofweek(send_date) NOT IN (0, 6)) AS weekday
      FROM (SELECT send_date, sum(sent) AS sent FROM campaign_metrics_by_send_date GROUP BY 1))
    WHERE weekend > weekday * 0.7`,
  'send: November is the busiest month': `SELECT 1 FROM (
      SELECT month(send_date) AS m, sum(sent) / count(DISTINCT send_date) AS per_day FROM campaign_metrics_by_send_date GROUP BY 1)
    QUALIFY max(per_day) OVER () <> (max(per_day) FILTER (WHERE m = 11) OVER ()) LIMIT 1`,
  'send: volume grows year on year': `SELECT 1 FROM (
      SELECT sum(sent) FILTER (WHERE send_date > DATE '2025-11-21') AS recent,
        sum(sent) FILTER (WHERE send_date <= DATE '2025-11-21') AS earlier FROM campaign_metrics_by_send_date)
    WHERE recent <= earlier`,
  'send: a few real outliers (open-to-click above 50%, or bounce rate above 10%)': `SELECT 1 FROM (
      SELECT count(*) FILTER (WHERE clicks_unique > 0.5 * open AND open > 50) AS click_outliers,
        count(*) FILTER (WHERE bounces > 0.1 * sent AND sent > 50) AS bounce_outliers, count(*) AS n
      FROM campaign_metrics_by_send_date)
    WHERE click_outliers = 0 OR bounce_outliers = 0 OR click_outliers + bounce_outliers > n * 0.02`,
  'event: the days after a send add up to the send row': `SELECT s.campaign_id, s.country FROM campaign_metrics_by_send_date s
    JOIN (SELECT campaign_id, country, sum(sent) AS sent, sum(delivered) AS delivered, sum(open) AS open, sum(opens) AS opens,
            sum(clicks_unique) AS clicks_unique, sum(clicks) AS clicks, sum(transactions) AS transactions,
            round(sum(revenue), 2) AS revenue, count(*) AS days, min(event_date) AS first_day
          FROM campaign_metrics_by_event_date GROUP BY ALL) e USING (campaign_id, country)
    WHERE s.send_date <= DATE '2026-11-17' AND (e.sent <> s.sent OR e.delivered <> s.delivered OR e.open <> s.open
      OR e.opens <> s.opens OR e.clicks_unique <> s.clicks_unique OR e.clicks <> s.clicks OR e.transactions <> s.transactions
      OR e.revenue <> round(s.revenue, 2) OR e.days <> 4 OR e.first_day <> s.send_date)`,
  'event: send-side counts only on the send day; most engagement on days 0-2': `SELECT 1 FROM (
      SELECT count(*) FILTER (WHERE event_date <> send_date AND (sent > 0 OR delivered > 0 OR bounces > 0)) AS misplaced,
        sum(open) FILTER (WHERE event_date - send_date <= 2) / sum(open) AS early
      FROM campaign_metrics_by_event_date)
    WHERE misplaced > 0 OR early < 0.9`,
  'list_members: the gauge moves by members_delta = members_in - members_out': `SELECT * FROM (
      SELECT *, members - lag(members) OVER (PARTITION BY list_id ORDER BY date) AS moved FROM list_members)
    WHERE moved IS NOT NULL AND moved <> members_delta OR members_delta <> members_in - members_out OR members < 0`,
  'list_members: one row per list and day': `SELECT list_id, date FROM list_members GROUP BY ALL HAVING count(*) > 1`,
  'ga4: users ≤ sessions, new ≤ users, engaged and transactions ≤ sessions': `SELECT * FROM ga4
    WHERE total_users > sessions OR new_users > total_users OR engaged_sessions > sessions OR transactions > sessions`,
  'ga4: one row per day and dimension combination': `SELECT date, session_source, session_medium, session_campaign, device_category, country
    FROM ga4 GROUP BY ALL HAVING count(*) > 1`,
  'ecommerce: items ≥ orders ≥ 1, revenue > 0, one row per customer and cell': `SELECT * FROM ecommerce
    WHERE items < orders OR orders < 1 OR revenue <= 0 OR customer_type NOT IN ('new', 'returning')`,
  'ecommerce: keys unique': `SELECT order_date, channel, product_category, country, customer_type, customer_id FROM ecommerce
    GROUP BY ALL HAVING count(*) > 1`,
  'forms: submissions ≤ views': `SELECT * FROM forms WHERE submissions > views`,
  'squeezely: conversions ≤ clicks ≤ impressions': `SELECT * FROM squeezely WHERE clicks > impressions OR conversions > clicks`,
  'bloomreach: clicks ≤ delivered, open ≤ delivered ≤ sent': `SELECT * FROM bloomreach
    WHERE delivered > sent OR open > delivered OR clicks_unique > delivered OR transactions > clicks_unique
      OR channel NOT IN ('email', 'sms', 'push')`,
  'workspaces: funnel order kept after scaling': `SELECT * FROM workspaces
    WHERE delivered > sent OR open > delivered OR clicks_unique > open OR sessions > clicks OR transactions > sessions`,
  'mailchimp_archive: before the main history; clicks ≤ open ≤ sent': `SELECT * FROM mailchimp_archive
    WHERE send_date >= DATE '2026-11-21' - 729 OR open > sent OR clicks_unique > open`,
  'website_metrics_ga_api: bounces, transactions ≤ sessions ≤ pageviews': `SELECT * FROM website_metrics_ga_api
    WHERE bounces > sessions OR transactions > sessions OR pageviews < sessions`,
  'engagement: five segments in order for every integration and month': `SELECT date, integration_id FROM engagement_segments_in_file_order
    GROUP BY ALL HAVING string_agg(segment_id, ',' ORDER BY file_row_number) <> 'new,highly_engaged,engaged,at_risk,inactive'`,
  'engagement: segment sizes equal the contacts assigned': `SELECT * FROM engagement_segments s
    FULL JOIN (SELECT month AS date, integration_id, segment_id, count(*) AS n FROM engagement_contacts GROUP BY ALL) c
      USING (date, integration_id, segment_id)
    WHERE coalesce(s.size, 0) <> coalesce(c.n, 0)`,
  'engagement: inflows add up to the size and outflows to the previous size after the first month': `SELECT * FROM (
      SELECT *, lag(size) OVER (PARTITION BY integration_id, segment_id ORDER BY date) AS previous_size,
        min(date) OVER () AS first_month FROM engagement_segments)
    WHERE date > first_month AND (inflow_from_new + inflow_from_highly_engaged + inflow_from_engaged + inflow_from_at_risk
        + inflow_from_inactive + inflow_new <> size
      OR outflow_to_new + outflow_to_highly_engaged + outflow_to_engaged + outflow_to_at_risk + outflow_to_inactive
        + outflow_gone <> previous_size)`,
  'engagement: new contacts come from nowhere; clicks ≤ sends': `SELECT * FROM engagement_segments
    WHERE (segment_id = 'new' AND inflow_new <> size AND date > (SELECT min(date) FROM engagement_segments)) OR click_total > send_total OR outflow_to_new <> 0`,
  'engagement: two integrations whose latest months differ': `SELECT 1 FROM (
      SELECT count(DISTINCT integration_id) AS integrations, count(DISTINCT latest) AS latest_months
      FROM (SELECT integration_id, max(date) OVER (PARTITION BY integration_id) AS latest FROM engagement_segments))
    WHERE integrations < 2 OR latest_months < 2`,
  "engagement: sends per contact and month, and clicks per send, of the campaign datasets' order": `SELECT * FROM (
      SELECT sum(send_total) / sum(size) AS sends, sum(click_total) / sum(send_total) AS click_share
      FROM engagement_segments)
    WHERE sends NOT BETWEEN 2 AND 30 OR click_share NOT BETWEEN 0.005 AND 0.5`,
  'engagement: most members of an engaged-to-inactive segment stay there, yet some move': `SELECT * FROM (
      SELECT segment_id, sum(CASE segment_id WHEN 'highly_engaged' THEN outflow_to_highly_engaged
          WHEN 'engaged' THEN outflow_to_engaged WHEN 'at_risk' THEN outflow_to_at_risk ELSE outflow_to_inactive END)
        / sum(outflow_to_new + outflow_to_highly_engaged + outflow_to_engaged + outflow_to_at_risk + outflow_to_inactive
          + outflow_gone) AS stay
      FROM engagement_segments WHERE segment_id <> 'new' GROUP BY segment_id)
    WHERE stay NOT BETWEEN 0.3 AND 0.95`,
  'engagement: one segment per contact and month': `SELECT contact_id, month FROM engagement_contacts GROUP BY ALL HAVING count(*) > 1`,
};

describe('invariants of the generated data', () => {
  it.each(Object.entries(invariants))('%s', async (_name, sql) => {
    expect(await rowsOf(`SELECT * FROM (${sql}) LIMIT 3`)).toEqual([]);
  });
});
