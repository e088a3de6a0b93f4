/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../../../test/timeouts';
import { buildQuery } from '../../../engine/queries';
import { campaignColumns, campaignRows, campaignSchema, tableSql } from '../../../engine/testing/fixtures';
import { openNodeDuckdb, rows } from '../../../engine/testing/nodeDuckdb';
import { type ProgressPoint, targetNumbers } from './targetProgress';

let conn: DuckDBConnection;

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, campaignRows())) conn.query(sql);
}, START_TIMEOUT_MS);

const target = { dateStart: '2024-02-01', dateEnd: '2024-02-29', target: 150_000 };
const filters = [{ member: 'country', operator: 'equals', values: ['NL'] }];
const sent = campaignSchema.fields.find((field) => field.id === 'sent')!;

/** The card's cumulative sends and expectation on each day, written by hand rather than by the engine. */
const independentSql = `
  WITH days AS (
    SELECT CAST(d AS DATE) AS day, row_number() OVER (ORDER BY d) AS n
    FROM generate_series(DATE '2024-02-01', DATE '2024-02-29', INTERVAL 1 DAY) AS t(d)
  ),
  sends AS (
    SELECT CAST(send_date AS DATE) AS day, SUM(sent) AS sent
    FROM campaigns_fixture
    WHERE country = 'NL' AND CAST(send_date AS DATE) BETWEEN DATE '2024-02-01' AND DATE '2024-02-29'
    GROUP BY 1
  )
  SELECT strftime(days.day, '%Y-%m-%d') AS day,
    CAST(SUM(COALESCE(sends.sent, 0)) OVER (ORDER BY days.day) AS DOUBLE) AS cumulative,
    CAST(150000.0 * days.n / 29 AS DOUBLE) AS expected
  FROM days LEFT JOIN sends ON sends.day = days.day
  ORDER BY days.day`;

describe('target card numbers', () => {
  const engine = () =>
    rows(
      conn,
      buildQuery(campaignSchema, {
        kind: 'targetProgress',
        dataset: 'campaigns_fixture',
        metric: 'sent',
        range: { start: target.dateStart, end: target.dateEnd },
        target: target.target,
        filters,
      }),
    ) as unknown as ProgressPoint[];

  test('the engine series is the hand-written cumulative series', () => {
    const expected = rows(conn, independentSql);
    expect(expected).toHaveLength(29);
    const series = engine();
    expect(series.map(({ day, cumulative }) => ({ day, cumulative }))).toEqual(
      expected.map(({ day, cumulative }) => ({ day, cumulative })),
    );
    series.forEach((point, index) => expect(point.expected).toBeCloseTo(expected[index].expected as number, 9));
  });

  test.each(['2024-02-01', '2024-02-15', '2024-02-29', '2024-03-20'])('on %s', (today) => {
    const byDay = new Map(rows(conn, independentSql).map((row) => [row.day, row]));
    const day = today > target.dateEnd ? target.dateEnd : today;
    const row = byDay.get(day)!;
    const numbers = targetNumbers(target, sent, engine(), today);
    const current = row.cumulative as number;
    expect(numbers.current).toBe(current);
    expect(numbers.expected).toBeCloseTo(row.expected as number, 9);
    expect(numbers.percent).toBeCloseTo(current / 150_000, 12);
    const behind = current < (row.expected as number) || (today > target.dateEnd && current < target.target);
    expect(numbers.status).toBe(behind ? 'error' : 'success');
  });
});
