/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../../../test/timeouts';
import { type DayRange } from '../../../engine/dates';
import { buildQuery } from '../../../engine/queries';
import { listColumns, listRows, listSchema, tableSql } from '../../../engine/testing/fixtures';
import { openNodeDuckdb, rows } from '../../../engine/testing/nodeDuckdb';
import { type Cell, type ResultColumns } from '../../../store/engineApi';
import { bucketAxis } from '../graphModel';
import { subscriberGranularity, subscriberGrowthModel } from './subscriberGrowthModel';

let conn: DuckDBConnection;

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('lists_fixture', listColumns, listRows())) conn.query(sql);
}, START_TIMEOUT_MS);

function engine(range: DayRange, lists: string[]): ResultColumns {
  const objects = rows(
    conn,
    buildQuery(listSchema, { kind: 'subscriberGrowth', dataset: 'lists_fixture', range, lists, granularity: 'auto' }),
  );
  const columns = objects.length ? Object.keys(objects[0]) : [];
  const data: Record<string, Cell[]> = {};
  for (const name of columns) data[name] = objects.map((row) => row[name] as Cell);
  return { columns, rowCount: objects.length, data };
}

/** The tab summary written independently: members on each list's last day in the range, the rest summed. */
function summaries(range: DayRange) {
  const within = `date BETWEEN DATE '${range.start}' AND DATE '${range.end}'`;
  return rows(
    conn,
    `WITH last AS (SELECT list_name, max(date) AS day FROM lists_fixture WHERE ${within} GROUP BY 1) ` +
      `SELECT l.list_name, ` +
      `SUM(l.members) FILTER (WHERE l.date = last.day)::DOUBLE AS members, ` +
      `SUM(l.members_in)::DOUBLE AS "in", SUM(l.members_out)::DOUBLE AS "out", SUM(l.members_delta)::DOUBLE AS delta ` +
      `FROM lists_fixture l JOIN last USING (list_name) WHERE ${within} GROUP BY 1`,
  );
}

describe('subscriber growth against hand-written SQL', () => {
  test.each([
    // List B skips every fifth day: 2024-02-04 is one of them, so its members come from the day before.
    { start: '2024-01-06', end: '2024-02-04' },
    { start: '2024-01-01', end: '2024-03-31' },
  ])('summary per list from %o', (range) => {
    const model = subscriberGrowthModel({ result: engine(range, ['B', 'A']), lists: ['B', 'A'], range, weekStart: 1 });
    expect(model.lists.map((list) => list.list)).toEqual(['B', 'A']);
    for (const want of summaries(range)) {
      const list = model.lists.find((entry) => entry.list === want.list_name)!;
      expect(list.summary).toEqual({ members: want.members, in: want.in, out: want.out, delta: want.delta });
    }
  });

  test('the members chart: one point per bucket, each the last day of that bucket', () => {
    const range = { start: '2024-01-01', end: '2024-03-31' };
    expect(subscriberGranularity(range)).toBe('week');
    const model = subscriberGrowthModel({ result: engine(range, ['A']), lists: ['A'], range, weekStart: 1 });
    expect(model.axis).toEqual(bucketAxis(range, 'week', 1));
    const weekly = rows(
      conn,
      `WITH w AS (SELECT *, strftime(date - CAST((dayofweek(date) + 6) % 7 AS INTEGER), '%Y-%m-%d') AS week ` +
        `FROM lists_fixture WHERE list_name = 'A' AND date BETWEEN DATE '2024-01-01' AND DATE '2024-03-31') ` +
        `SELECT week, SUM(members) FILTER (WHERE date = (SELECT max(date) FROM w w2 WHERE w2.week = w.week))::DOUBLE AS members ` +
        `FROM w GROUP BY week ORDER BY week`,
    );
    expect(model.lists[0].members).toEqual(weekly.map((row) => row.members));
  });

  test('a chosen list without data in the range still has its tab, with no members', () => {
    const range = { start: '2024-01-01', end: '2024-01-10' };
    const model = subscriberGrowthModel({ result: engine(range, ['A', 'C']), lists: ['A', 'C'], range, weekStart: 1 });
    expect(model.lists[1]).toEqual({
      list: 'C',
      summary: { members: null, in: 0, out: 0, delta: 0 },
      members: model.axis.map(() => null),
    });
  });
});
