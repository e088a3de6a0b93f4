/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { type Filter } from './filters';
import { buildQuery } from './queries';
import {
  FIXTURE_RANGE,
  type CampaignRow,
  campaignColumns,
  campaignRows,
  campaignSchema,
  tableSql,
} from './testing/fixtures';
import { openNodeDuckdb, rows } from './testing/nodeDuckdb';

let conn: DuckDBConnection;
const data = campaignRows();

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, data)) conn.query(sql);
}, START_TIMEOUT_MS);

/** Totals of the funnel query (sent and a weighted open rate) over the whole fixture with these filters. */
function totals(filters: Filter[]) {
  const sql = buildQuery(campaignSchema, {
    kind: 'funnel',
    dataset: 'campaigns_fixture',
    range: FIXTURE_RANGE,
    filters,
    metrics: ['sent', 'open_rate'],
  });
  // No matching row at all means no period row, which the widgets show as no data.
  const [row = { sent: null, open_rate: null }] = rows(conn, sql);
  return { sent: row.sent as number | null, openRate: row.open_rate as number | null };
}

function expected(keep: (row: CampaignRow) => boolean) {
  const kept = data.filter(keep);
  const sum = (key: 'sent' | 'open' | 'delivered') => kept.reduce((total, row) => total + row[key], 0);
  return { sent: kept.length ? sum('sent') : null, openRate: kept.length ? sum('open') / sum('delivered') : null };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const stddevPop = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(mean(values.map((v) => (v - m) ** 2)));
};
const sentValues = data.map((row) => row.sent);
const band = (k: number) => ({
  high: mean(sentValues) + k * stddevPop(sentValues),
  low: mean(sentValues) - k * stddevPop(sentValues),
});
const ratio = (row: CampaignRow) => row.open / row.delivered;

const rowCases: [string, Filter[], (row: CampaignRow) => boolean][] = [
  ['equals', [{ member: 'campaign_name', operator: 'equals', values: ['Alpha'] }], (r) => r.campaign_name === 'Alpha'],
  [
    'equals with several values',
    [{ member: 'campaign_name', operator: 'equals', values: ['Alpha', 'Beta'] }],
    (r) => r.campaign_name === 'Alpha' || r.campaign_name === 'Beta',
  ],
  [
    'notEquals keeps empty names',
    [{ member: 'campaign_name', operator: 'notEquals', values: ['Alpha'] }],
    (r) => r.campaign_name !== 'Alpha',
  ],
  [
    'contains, case-insensitive',
    [{ member: 'campaign_name', operator: 'contains', values: ['ET'] }],
    (r) => (r.campaign_name ?? '').toLowerCase().includes('et'),
  ],
  [
    'notContains',
    [{ member: 'campaign_name', operator: 'notContains', values: ['et'] }],
    (r) => !(r.campaign_name ?? '').toLowerCase().includes('et'),
  ],
  [
    'startsWith',
    [{ member: 'campaign_name', operator: 'startsWith', values: ['e'] }],
    (r) => (r.campaign_name ?? '').toLowerCase().startsWith('e'),
  ],
  [
    'endsWith',
    [{ member: 'campaign_name', operator: 'endsWith', values: ['TA'] }],
    (r) => (r.campaign_name ?? '').toLowerCase().endsWith('ta'),
  ],
  ['set', [{ member: 'campaign_name', operator: 'set', values: [] }], (r) => r.campaign_name !== null],
  ['notSet', [{ member: 'campaign_name', operator: 'notSet' }], (r) => r.campaign_name === null],
  ['gt on a metric', [{ member: 'sent', operator: 'gt', values: ['800'] }], (r) => r.sent > 800],
  ['gte with a decimal comma', [{ member: 'sent', operator: 'gte', values: ['800,0'] }], (r) => r.sent >= 800],
  ['lt', [{ member: 'sent', operator: 'lt', values: ['300'] }], (r) => r.sent < 300],
  ['lte', [{ member: 'sent', operator: 'lte', values: ['300'] }], (r) => r.sent <= 300],
  ['inRange', [{ member: 'sent', operator: 'inRange', values: ['300', '500'] }], (r) => r.sent >= 300 && r.sent <= 500],
  [
    'a weighted average on rows is the row ratio',
    [{ member: 'open_rate', operator: 'gt', values: ['0.4'] }],
    (r) => ratio(r) > 0.4,
  ],
  [
    'a weekday dimension compared as a number',
    [{ member: 'send_weekday', operator: 'lt', values: ['2'] }],
    (r) => r.send_weekday < 2,
  ],
  [
    'inDateRange',
    [{ member: 'send_date', operator: 'inDateRange', values: ['2024-01-10', '2024-01-20'] }],
    (r) => r.send_date >= '2024-01-10' && r.send_date <= '2024-01-20',
  ],
  [
    'notInDateRange',
    [{ member: 'send_date', operator: 'notInDateRange', values: ['2024-01-10', '2024-01-20'] }],
    (r) => r.send_date < '2024-01-10' || r.send_date > '2024-01-20',
  ],
  [
    'beforeDate',
    [{ member: 'send_date', operator: 'beforeDate', values: ['2024-01-10'] }],
    (r) => r.send_date < '2024-01-10',
  ],
  [
    'afterDate',
    [{ member: 'send_date', operator: 'afterDate', values: ['2024-03-10'] }],
    (r) => r.send_date > '2024-03-10',
  ],
  ['country UK is GB', [{ member: 'country', operator: 'equals', values: ['UK'] }], (r) => r.country === 'GB'],
  [
    'outlierHigh, default sensitivity',
    [{ member: 'sent', operator: 'outlierHigh', values: [] }],
    (r) => r.sent > band(2).high,
  ],
  [
    'outlierLow at sensitivity -0.1',
    [{ member: 'sent', operator: 'outlierLow', values: ['-0.1'] }],
    (r) => r.sent < band(0.1).low,
  ],
  [
    'outlier at sensitivity -0.25',
    [{ member: 'sent', operator: 'outlier', values: ['-0.25'] }],
    (r) => r.sent > band(0.25).high || r.sent < band(0.25).low,
  ],
  [
    'filters in a list are all applied',
    [
      { member: 'country', operator: 'equals', values: ['NL'] },
      { member: 'sent', operator: 'gt', values: ['500'] },
    ],
    (r) => r.country === 'NL' && r.sent > 500,
  ],
  [
    'nested or inside and',
    [
      {
        and: [
          { member: 'country', operator: 'notEquals', values: ['DE'] },
          {
            or: [
              { member: 'campaign_name', operator: 'equals', values: ['Alpha'] },
              {
                and: [
                  { member: 'sent', operator: 'gt', values: ['900'] },
                  { member: 'send_weekday', operator: 'equals', values: ['1'] },
                ],
              },
            ],
          },
        ],
      },
    ],
    (r) => r.country !== 'DE' && (r.campaign_name === 'Alpha' || (r.sent > 900 && r.send_weekday === 1)),
  ],
  [
    'a filter on a field the dataset lacks is dropped',
    [{ member: 'no_such_field', operator: 'equals', values: ['x'] }],
    () => true,
  ],
  ['a filter without values is dropped', [{ member: 'campaign_name', operator: 'equals', values: [] }], () => true],
  [
    'a quote in a value is a value',
    [{ member: 'campaign_name', operator: 'equals', values: ["O'Brien sale"] }],
    (r) => r.campaign_name === "O'Brien sale",
  ],
  [
    'an injection attempt in a value matches only that literal name',
    [{ member: 'campaign_name', operator: 'equals', values: ['Drop"; DROP TABLE campaigns_fixture; --'] }],
    (r) => r.campaign_name === 'Drop"; DROP TABLE campaigns_fixture; --',
  ],
  [
    'an injection attempt that closes the string matches nothing',
    [{ member: 'campaign_name', operator: 'contains', values: ["x') OR 1=1 --"] }],
    () => false,
  ],
];

describe('row filters', () => {
  test.each(rowCases)('%s', (name, filters, keep) => {
    const actual = totals(filters);
    const want = expected(keep);
    if (!name.startsWith('an injection attempt that closes')) expect(want.sent).toBeGreaterThan(0);
    if (want.sent === null) {
      expect(actual.sent).toBeNull();
    } else {
      expect(actual.sent).toBe(want.sent);
      expect(actual.openRate).toBeCloseTo(want.openRate as number, 12);
    }
  });

  test('the injection attempts left the table intact', () => {
    expect(rows(conn, 'SELECT COUNT(*) AS n FROM campaigns_fixture')[0].n).toBe(data.length);
  });

  test('an outlier filter finds the planted outlier', () => {
    expect(expected((r) => r.sent > band(2).high).sent).toBeGreaterThanOrEqual(250_000);
  });
});

describe('aggregate filters', () => {
  function campaignsWith(filters: Filter[]): string[] {
    const sql = buildQuery(campaignSchema, {
      kind: 'tableCompare',
      dataset: 'campaigns_fixture',
      range: FIXTURE_RANGE,
      filters,
      dimensions: ['campaign_id'],
      metrics: ['sent'],
    });
    return rows(conn, sql)
      .map((row) => row.campaign_id as string)
      .sort();
  }
  const perCampaign = new Map<string, { sent: number; open: number; delivered: number }>();
  for (const row of data) {
    const entry = perCampaign.get(row.campaign_id) ?? { sent: 0, open: 0, delivered: 0 };
    entry.sent += row.sent;
    entry.open += row.open;
    entry.delivered += row.delivered;
    perCampaign.set(row.campaign_id, entry);
  }
  const where = (keep: (c: { sent: number; open: number; delivered: number }) => boolean) =>
    [...perCampaign]
      .filter(([, c]) => keep(c))
      .map(([id]) => id)
      .sort();

  test('gt on the aggregated sum filters groups, not rows', () => {
    const threshold = 40_000;
    expect(campaignsWith([{ member: 'sent', operator: 'gt', values: [String(threshold)], aggregate: true }])).toEqual(
      where((c) => c.sent > threshold),
    );
  });

  test('a weighted average is filtered on SUM(open)/SUM(delivered) of the group', () => {
    const rates = [...perCampaign.values()].map((c) => c.open / c.delivered).sort();
    const median = rates[Math.floor(rates.length / 2)];
    expect(
      campaignsWith([{ member: 'open_rate', operator: 'gte', values: [String(median)], aggregate: true }]),
    ).toEqual(where((c) => c.open / c.delivered >= median));
  });

  test('aggregate outliers compare each group with all groups', () => {
    const sums = [...perCampaign.values()].map((c) => c.sent);
    const high = mean(sums) + 1 * stddevPop(sums);
    expect(campaignsWith([{ member: 'sent', operator: 'outlierHigh', values: ['-1'], aggregate: true }])).toEqual(
      where((c) => c.sent > high),
    );
  });

  test('aggregate and row filters combine', () => {
    const result = campaignsWith([
      { member: 'sent', operator: 'gt', values: ['40000'], aggregate: true },
      { member: 'campaign_id', operator: 'notEquals', values: ['c99'] },
    ]);
    expect(result).toEqual(where((c) => c.sent > 40_000).filter((id) => id !== 'c99'));
  });
});

describe('bad filters', () => {
  test('an unsupported operator throws', () => {
    expect(() => totals([{ member: 'sent', operator: 'like', values: ['1'] }])).toThrow(
      'Unsupported filter operator "like"',
    );
  });
  test('a number operator with text throws a clear error', () => {
    expect(() => totals([{ member: 'sent', operator: 'gt', values: ['1; DROP TABLE x'] }])).toThrow(
      'Invalid number "1; DROP TABLE x"',
    );
  });
  test('a date operator with a bad date throws', () => {
    expect(() => totals([{ member: 'send_date', operator: 'beforeDate', values: ["2024-01-01' OR 1=1"] }])).toThrow(
      'Invalid date',
    );
  });
  test('an outlier sensitivity outside -4..0 throws', () => {
    expect(() => totals([{ member: 'sent', operator: 'outlier', values: ['-5'] }])).toThrow(
      'Invalid outlier sensitivity',
    );
  });
  test('an or group mixing row and aggregate filters throws', () => {
    expect(() =>
      totals([
        {
          or: [
            { member: 'sent', operator: 'gt', values: ['1'], aggregate: true },
            { member: 'country', operator: 'equals', values: ['NL'] },
          ],
        },
      ]),
    ).toThrow('cannot mix row and aggregate filters');
  });
});
