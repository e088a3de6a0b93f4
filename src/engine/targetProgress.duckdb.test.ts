/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { type DatasetSchema } from '../contracts/datasets';
import { buildQuery } from './queries';
import { campaignColumns, campaignRows, campaignSchema, metric, tableSql } from './testing/fixtures';
import { openNodeDuckdb, rows } from './testing/nodeDuckdb';

/** The fixture's dataset with data-model custom metrics: a ratio, a ratio over a distinct count, and a sum. */
const schema: DatasetSchema = {
  ...campaignSchema,
  fields: [
    ...campaignSchema.fields,
    // Both spellings of a custom metric: an `expr`, or an agg of type custom.
    { ...metric('click_to_open'), agg: undefined, expr: 'clicks_unique / open' },
    metric('revenue_per_campaign', { type: 'custom', expression: 'revenue / campaigns' }),
    metric('net_revenue', { type: 'custom', expression: 'revenue - sent * 0.01' }),
  ],
};

let conn: DuckDBConnection;

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, campaignRows())) conn.query(sql);
}, START_TIMEOUT_MS);

const range = { start: '2024-02-01', end: '2024-02-29' };
const filters = [{ member: 'country', operator: 'equals', values: ['NL'] }];

/**
 * Each metric's value to date on every day of February, written by hand rather than by the engine: all NL rows from
 * the first of the month to that day, aggregated at once (a range join, not running sums).
 */
const toDateSql = `
  WITH days AS (
    SELECT CAST(d AS DATE) AS day FROM generate_series(DATE '2024-02-01', DATE '2024-02-29', INTERVAL 1 DAY) AS t(d)
  ),
  nl AS (SELECT *, CAST(send_date AS DATE) AS sent_on FROM campaigns_fixture WHERE country = 'NL')
  SELECT strftime(days.day, '%Y-%m-%d') AS day,
    CAST(COUNT(DISTINCT nl.campaign_id) AS DOUBLE) AS campaigns,
    CAST(SUM(nl.clicks_unique) / NULLIF(SUM(nl.open), 0) AS DOUBLE) AS click_to_open,
    CAST(SUM(nl.revenue) / NULLIF(COUNT(DISTINCT nl.campaign_id), 0) AS DOUBLE) AS revenue_per_campaign,
    CAST(COALESCE(SUM(nl.revenue), 0) - COALESCE(SUM(nl.sent), 0) * 0.01 AS DOUBLE) AS net_revenue
  FROM days LEFT JOIN nl ON nl.sent_on BETWEEN DATE '2024-02-01' AND days.day
  GROUP BY days.day ORDER BY days.day`;

/** The same metrics on each day alone. */
const dailySql = `
  SELECT strftime(CAST(send_date AS DATE), '%Y-%m-%d') AS day,
    CAST(COUNT(DISTINCT campaign_id) AS DOUBLE) AS campaigns,
    CAST(SUM(clicks_unique) / NULLIF(SUM(open), 0) AS DOUBLE) AS click_to_open,
    CAST(SUM(revenue) / NULLIF(COUNT(DISTINCT campaign_id), 0) AS DOUBLE) AS revenue_per_campaign,
    CAST(SUM(revenue) - SUM(sent) * 0.01 AS DOUBLE) AS net_revenue
  FROM campaigns_fixture
  WHERE country = 'NL' AND CAST(send_date AS DATE) BETWEEN DATE '2024-02-01' AND DATE '2024-02-29'
  GROUP BY 1`;

const progress = (metricId: string, target: number) =>
  rows(
    conn,
    buildQuery(schema, {
      kind: 'targetProgress',
      dataset: 'campaigns_fixture',
      metric: metricId,
      range,
      target,
      filters,
    }),
  );

describe('target progress of distinct counts and custom metrics', () => {
  test.each([
    ['a distinct count', 'campaigns', 30, true],
    ['a custom ratio', 'click_to_open', 0.2, false],
    ['a custom ratio over a distinct count', 'revenue_per_campaign', 500, false],
    ['a custom sum', 'net_revenue', 20_000, true],
  ])('%s: the value to date on every day, the day alone, and the expectation', (_name, id, target, additive) => {
    const toDate = rows(conn, toDateSql);
    const daily = new Map(rows(conn, dailySql).map((row) => [row.day, row[id]]));
    expect(toDate).toHaveLength(29);
    // Not a constant series: the running value really moves over the month.
    expect(new Set(toDate.map((row) => row[id])).size).toBeGreaterThan(3);
    const series = progress(id, target);
    expect(series.map((point) => point.day)).toEqual(toDate.map((row) => row.day));
    series.forEach((point, index) => {
      const expected = toDate[index][id] as number | null;
      if (expected === null) expect(point.cumulative).toBeNull();
      else expect(point.cumulative).toBeCloseTo(expected, 9);
      const day = daily.get(point.day) ?? null;
      if (day === null) expect(point.value).toBeNull();
      else expect(point.value).toBeCloseTo(day as number, 9);
      // Counts and sums are paced linearly to the target; ratios are expected at the target all along.
      expect(point.expected).toBeCloseTo(additive ? (target * (index + 1)) / 29 : target, 9);
    });
  });

  test('a distinct count filtered on a snapshot metric (its last day flagged over the first-day groups)', () => {
    const gauged: DatasetSchema = {
      ...schema,
      fields: schema.fields.map((field) => (field.id === 'delivered' ? { ...field, features: ['gauge'] } : field)),
    };
    // Every row delivers something, so the filter keeps every row and the counts are the unfiltered ones.
    const withGauge = [...filters, { member: 'delivered', operator: 'gt', values: ['0'] }];
    const query = {
      kind: 'targetProgress' as const,
      dataset: 'campaigns_fixture',
      metric: 'campaigns',
      range,
      target: 30,
    };
    const series = rows(conn, buildQuery(gauged, { ...query, filters: withGauge }));
    expect(series.map((point) => point.cumulative)).toEqual(rows(conn, toDateSql).map((row) => row.campaigns));
  });

  test('the calculator compares the preceding period of a distinct count and a custom ratio', () => {
    const march = { start: '2024-03-01', end: '2024-03-31' };
    const preceding = `CAST(send_date AS DATE) BETWEEN DATE '2024-01-30' AND DATE '2024-02-29' AND country = 'NL'`;
    const [independent] = rows(
      conn,
      `SELECT CAST(COUNT(DISTINCT campaign_id) AS DOUBLE) AS campaigns,
        CAST(SUM(revenue) / NULLIF(COUNT(DISTINCT campaign_id), 0) AS DOUBLE) AS revenue_per_campaign
       FROM campaigns_fixture WHERE ${preceding}`,
    );
    for (const id of ['campaigns', 'revenue_per_campaign']) {
      const history = rows(
        conn,
        buildQuery(schema, { kind: 'targetHistory', dataset: 'campaigns_fixture', metric: id, range: march, filters }),
      );
      const row = history.find((candidate) => candidate.period === 'preceding_period');
      expect(row?.[id]).toBeCloseTo(independent[id] as number, 9);
    }
  });
});
