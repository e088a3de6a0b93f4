/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { engagementSegments, getCatalogueDataset, toDatasetSchema } from '../contracts/catalogue';
import { type DatasetSchema } from '../contracts/datasets';
import { engagementCsv, engagementCsvFileName } from './csv';
import {
  type DayRange,
  type Granularity,
  type WeekStart,
  addDays,
  bucketStart,
  compareRange,
  rangeDays,
} from './dates';
import { type QueryInput, buildQuery, pivotColumn, pivotValueLimit, pivotValuesSql } from './queries';
import {
  FIXTURE_RANGE,
  type CampaignRow,
  type ListRow,
  campaignColumns,
  campaignRows,
  campaignSchema,
  listColumns,
  listRows,
  listSchema,
  tableSql,
} from './testing/fixtures';
import { openNodeDuckdb, rows } from './testing/nodeDuckdb';

let conn: DuckDBConnection;
const data = campaignRows();
const lists = listRows();

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, data)) conn.query(sql);
  for (const sql of tableSql('lists_fixture', listColumns, lists)) conn.query(sql);
}, START_TIMEOUT_MS);

const run = (input: QueryInput, schema: DatasetSchema = campaignSchema) => rows(conn, buildQuery(schema, input));
const ds = { dataset: 'campaigns_fixture' } as const;

// Independent reference: plain TypeScript over the fixture rows.
const within = (range: DayRange) => (row: { send_date?: string; date?: string }) => {
  const day = (row.send_date ?? row.date) as string;
  return day >= range.start && day <= range.end;
};
function totals(subset: CampaignRow[]) {
  const sum = (key: 'sent' | 'open' | 'delivered') => subset.reduce((total, row) => total + row[key], 0);
  return {
    sent: sum('sent'),
    open_rate: sum('open') / sum('delivered'),
    campaigns: new Set(subset.map((row) => row.campaign_id)).size,
  };
}
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
const nameKey = (row: CampaignRow) => row.campaign_name ?? '\u0000null';

function expectSeries(
  actual: Record<string, unknown>[],
  period: string,
  range: DayRange,
  granularity: Granularity,
  weekStart: WeekStart,
) {
  const buckets = groupBy(data.filter(within(range)), (row) => bucketStart(row.send_date, granularity, weekStart));
  const got = actual.filter((row) => row.period === period);
  expect(got.map((row) => row.bucket)).toEqual([...buckets.keys()].sort());
  for (const row of got) {
    const want = totals(buckets.get(row.bucket as string)!);
    expect(row.sent).toBe(want.sent);
    expect(row.open_rate).toBeCloseTo(want.open_rate, 12);
    expect(row.campaigns).toBe(want.campaigns);
  }
}

describe('time series', () => {
  const range = { start: '2024-02-01', end: '2024-02-29' };
  test('per day with the preceding period, weighted averages as SUM/SUM', () => {
    const compare = compareRange(range, 'preceding_period')!;
    const result = run({ kind: 'timeSeries', ...ds, range, compare, metrics: ['sent', 'open_rate', 'campaigns'] });
    expectSeries(result, 'main', range, 'day', 1);
    expectSeries(result, 'compare', compare, 'day', 1);
    expect(result.filter((row) => row.period === 'compare')[0].bucket).toBe('2024-01-03');
  });

  test.each([0, 1, 3] as const)('weeks starting on weekday %i', (weekStart) => {
    const result = run({
      kind: 'timeSeries',
      ...ds,
      range,
      granularity: 'week',
      weekStart,
      metrics: ['sent', 'open_rate', 'campaigns'],
    });
    expectSeries(result, 'main', range, 'week', weekStart);
    for (const row of result) expect(new Date(`${row.bucket as string}T00:00:00Z`).getUTCDay()).toBe(weekStart);
  });

  test('auto granularity: 121 days on a line chart are weeks, on grouped bars months', () => {
    const line = run({ kind: 'timeSeries', ...ds, range: FIXTURE_RANGE, metrics: ['sent', 'open_rate', 'campaigns'] });
    expectSeries(line, 'main', FIXTURE_RANGE, 'week', 1);
    const bars = run({
      kind: 'timeSeries',
      ...ds,
      range: FIXTURE_RANGE,
      chart: 'bar_grouped',
      metrics: ['sent', 'open_rate', 'campaigns'],
    });
    expectSeries(bars, 'main', FIXTURE_RANGE, 'month', 1);
  });

  test('quarters, with a year-over-year comparison that has no data', () => {
    const compare = compareRange(FIXTURE_RANGE, 'year_over_year')!;
    const result = run({
      kind: 'timeSeries',
      ...ds,
      range: FIXTURE_RANGE,
      compare,
      granularity: 'quarter',
      metrics: ['sent', 'open_rate', 'campaigns'],
    });
    expectSeries(result, 'main', FIXTURE_RANGE, 'quarter', 1);
    expect(result.map((row) => row.bucket)).toEqual(['2023-10-01', '2024-01-01']);
  });

  test('a metric the dataset lacks is an error, whatever its name holds', () => {
    expect(() => run({ kind: 'timeSeries', ...ds, range, metrics: ['sent" FROM x; --'] })).toThrow(
      'Metric not found: "sent" FROM x; --"',
    );
    expect(() => run({ kind: 'timeSeries', ...ds, range, metrics: ['country'] })).toThrow('"country" is not a metric');
  });
});

describe('bar by dimension', () => {
  test('top 12 by the first metric plus Other, with Other recomputed from its own sums', () => {
    const range = { start: '2024-01-01', end: '2024-01-31' };
    const compare = compareRange(range, 'preceding_period')!;
    const result = run({
      kind: 'barByDimension',
      ...ds,
      range,
      compare,
      dimension: 'campaign_name',
      metrics: ['sent', 'open_rate'],
    });
    const main = groupBy(data.filter(within(range)), nameKey);
    const previous = groupBy(data.filter(within(compare)), nameKey);
    const ranked = [...main.entries()]
      .filter(([name]) => name !== '\u0000null')
      .map(([name, group]) => ({ name, ...totals(group) }))
      .sort((a, b) => b.sent - a.sent);
    const top = ranked.slice(0, 12);
    expect(result).toHaveLength(13);
    top.forEach((entry, index) => {
      expect(result[index]).toMatchObject({ value: entry.name, other: false, sent: entry.sent });
      expect(result[index].open_rate).toBeCloseTo(entry.open_rate, 12);
      expect(result[index].sent__compare).toBe(
        previous.has(entry.name) ? totals(previous.get(entry.name)!).sent : null,
      );
    });
    const rest = data.filter(within(range)).filter((row) => !top.some((entry) => entry.name === row.campaign_name));
    expect(result[12]).toMatchObject({ value: null, other: true, sent: totals(rest).sent });
    expect(result[12].open_rate).toBeCloseTo(totals(rest).open_rate, 12);
    // The names with quotes and SQL in them come back as plain values.
    expect(result.map((row) => row.value)).toEqual(expect.arrayContaining(top.map((entry) => entry.name)));
  });
});

describe('table compare and high/low', () => {
  const range = { start: '2024-03-01', end: '2024-03-31' };
  const compare = compareRange(range, 'month_over_month')!;
  test('current vs comparison period per dimension value', () => {
    const result = run({
      kind: 'tableCompare',
      ...ds,
      range,
      compare,
      dimensions: ['country'],
      metrics: ['sent', 'open_rate'],
    });
    const main = groupBy(data.filter(within(range)), (row) => row.country);
    const before = groupBy(data.filter(within(compare)), (row) => row.country);
    expect(result.map((row) => row.country).sort()).toEqual([...main.keys()].sort());
    for (const row of result) {
      const want = totals(main.get(row.country as string)!);
      const prev = totals(before.get(row.country as string)!);
      expect(row.sent).toBe(want.sent);
      expect(row.open_rate).toBeCloseTo(want.open_rate, 12);
      expect(row.sent__compare).toBe(prev.sent);
      expect(row.open_rate__compare).toBeCloseTo(prev.open_rate, 12);
    }
    expect(result.map((row) => row.sent)).toEqual([...result.map((row) => row.sent as number)].sort((a, b) => b - a));
  });

  test('nothing selected is refused with the spec message', () => {
    expect(() => run({ kind: 'tableCompare', ...ds, range, dimensions: [], metrics: [] })).toThrow(
      'Select at least 1 dimension or metric.',
    );
  });

  test('highest and lowest dimension value per metric', () => {
    const result = run({ kind: 'highLow', ...ds, range, dimension: 'campaign_name', metrics: ['open_rate', 'sent'] });
    const groups = [
      ...groupBy(
        data.filter(within(range)).filter((row) => row.campaign_name !== null),
        nameKey,
      ),
    ].map(([name, group]) => ({ name, ...totals(group) }));
    for (const [index, metric] of (['open_rate', 'sent'] as const).entries()) {
      const sorted = [...groups].sort((a, b) => b[metric] - a[metric]);
      expect(result[index].metric).toBe(metric);
      expect(result[index].high_value).toBe(sorted[0].name);
      expect(result[index].high).toBeCloseTo(sorted[0][metric], 12);
      expect(result[index].low_value).toBe(sorted.at(-1)!.name);
      expect(result[index].low).toBeCloseTo(sorted.at(-1)![metric], 12);
    }
  });
});

describe('time series per dimension', () => {
  test('the top 10 series by the metric, per bucket', () => {
    const range = { start: '2024-01-01', end: '2024-01-14' };
    const result = run({ kind: 'timeSeriesByDimension', ...ds, range, metric: 'sent', dimension: 'campaign_name' });
    const ranked = [
      ...groupBy(
        data.filter(within(range)).filter((row) => row.campaign_name !== null),
        nameKey,
      ),
    ]
      .map(([name, group]) => ({ name, sent: totals(group).sent }))
      .sort((a, b) => b.sent - a.sent)
      .slice(0, 10)
      .map((entry) => entry.name);
    expect(new Set(result.map((row) => row.value))).toEqual(new Set(ranked));
    for (const row of result) {
      const want = data.filter((r) => r.send_date === row.bucket && r.campaign_name === row.value);
      expect(row.sent).toBe(totals(want).sent);
    }
  });
});

describe('subscriber growth (gauges)', () => {
  const range = { start: '2024-01-01', end: '2024-03-31' };
  const expectedFor = (granularity: Granularity) => {
    const byListBucket = groupBy(
      lists.filter(within(range)),
      (row) => `${row.list_name}|${bucketStart(row.date, granularity, 1)}`,
    );
    return [...byListBucket.entries()].map(([key, group]) => {
      const last = group.reduce((max, row) => (row.date > max ? row.date : max), '');
      const sum = (k: keyof ListRow, subset = group) => subset.reduce((t, row) => t + (row[k] as number), 0);
      return {
        key,
        members: sum(
          'members',
          group.filter((row) => row.date === last),
        ),
        members_in: sum('members_in'),
        members_delta: sum('members_delta'),
      };
    });
  };

  test.each(['day', 'week', 'month', 'quarter'] as const)(
    'per list by %s: members on the last day of the bucket',
    (granularity) => {
      const result = run(
        {
          kind: 'subscriberGrowth',
          dataset: 'lists_fixture',
          range,
          granularity,
          metrics: ['members', 'members_in', 'members_delta'],
        },
        listSchema,
      );
      const want = expectedFor(granularity);
      expect(result).toHaveLength(want.length);
      for (const row of result) {
        const entry = want.find((w) => w.key === `${row.list as string}|${row.bucket as string}`)!;
        expect({ members: row.members, members_in: row.members_in, members_delta: row.members_delta }).toEqual({
          members: entry.members,
          members_in: entry.members_in,
          members_delta: entry.members_delta,
        });
      }
    },
  );

  test('a gauge over a period is the value on the last date, not a sum over days', () => {
    const result = run({ kind: 'funnel', dataset: 'lists_fixture', range, metrics: ['members'] }, listSchema);
    const last = lists.filter((row) => row.date === '2024-03-31');
    expect(result[0].members).toBe(last.reduce((t, row) => t + row.members, 0));
  });

  test('an aggregate filter on a gauge compares its last-day value, even when the gauge is not shown', () => {
    const lastDay = (list: string) => {
      const rowsOfList = lists.filter(within(range)).filter((row) => row.list_name === list);
      const last = rowsOfList.reduce((max, row) => (row.date > max ? row.date : max), '');
      return rowsOfList.filter((row) => row.date === last).reduce((t, row) => t + row.members, 0);
    };
    // Between the two lists' last-day members, far below either list's sum over days.
    const threshold = Math.round((lastDay('A') + lastDay('B')) / 2);
    const result = run(
      {
        kind: 'tableCompare',
        dataset: 'lists_fixture',
        range,
        dimensions: ['list_name'],
        metrics: ['members_in'],
        filters: [{ member: 'members', operator: 'gt', values: [String(threshold)], aggregate: true }],
      },
      listSchema,
    );
    const expected = ['A', 'B'].filter((list) => lastDay(list) > threshold);
    expect(expected).toHaveLength(1);
    expect(result.map((row) => row.list_name)).toEqual(expected);
  });

  test('filtered lists', () => {
    const result = run(
      { kind: 'subscriberGrowth', dataset: 'lists_fixture', range, granularity: 'month', lists: ['B'] },
      listSchema,
    );
    expect(new Set(result.map((row) => row.list))).toEqual(new Set(['B']));
  });
});

describe('targets', () => {
  const range = { start: '2024-01-01', end: '2024-01-31' };
  test('a sum: cumulative value against a linear expectation', () => {
    const result = run({ kind: 'targetProgress', ...ds, range, metric: 'sent', target: 310_000 });
    expect(result).toHaveLength(31);
    let cumulative = 0;
    result.forEach((row, index) => {
      const day = addDays(range.start, index);
      const value = data.filter((r) => r.send_date === day).reduce((t, r) => t + r.sent, 0);
      cumulative += value;
      expect(row).toEqual({ day, value, cumulative, expected: (310_000 * (index + 1)) / 31 });
    });
  });

  test('a rate: the ratio of running sums against the flat target', () => {
    const result = run({ kind: 'targetProgress', ...ds, range, metric: 'open_rate', target: 0.3 });
    result.forEach((row, index) => {
      const soFar = data.filter(within({ start: range.start, end: addDays(range.start, index) }));
      expect(row.cumulative).toBeCloseTo(totals(soFar).open_rate, 12);
      expect(row.expected).toBe(0.3);
    });
  });

  test('calculator history: preceding period and a year earlier (no data there)', () => {
    const march = { start: '2024-03-01', end: '2024-03-31' };
    const result = run({ kind: 'targetHistory', ...ds, range: march, metric: 'sent' });
    const preceding = compareRange(march, 'preceding_period')!;
    expect(preceding).toEqual({ start: '2024-01-30', end: '2024-02-29' });
    expect(result).toEqual([
      { period: 'preceding_period', sent: totals(data.filter(within(preceding))).sent, days: rangeDays(preceding) },
    ]);
  });
});

describe('distinct values and the explorer', () => {
  test('distinct values, sorted, searched, limited', () => {
    const names = [...new Set(data.map((row) => row.campaign_name).filter((n): n is string => n !== null))].sort();
    expect(run({ kind: 'distinctValues', ...ds, dimension: 'campaign_name' }).map((row) => row.value)).toEqual(names);
    expect(
      run({ kind: 'distinctValues', ...ds, dimension: 'campaign_name', search: "o'b" }).map((row) => row.value),
    ).toEqual(["O'Brien sale"]);
    expect(run({ kind: 'distinctValues', ...ds, dimension: 'campaign_name', limit: 3 })).toHaveLength(3);
    expect(() => run({ kind: 'distinctValues', ...ds, dimension: 'campaign_name', limit: 10_001 })).toThrow();
  });

  const range = { start: '2024-01-01', end: '2024-01-31' };
  test('rows grouped, sorted and paged; the total count', () => {
    const result = run({
      kind: 'explorerRows',
      ...ds,
      range,
      rowGroups: ['country', 'send_weekday'],
      metrics: ['sent'],
      sort: [{ field: 'sent', desc: true }],
      offset: 2,
      limit: 5,
    });
    const all = [...groupBy(data.filter(within(range)), (row) => `${row.country}|${row.send_weekday}`)]
      .map(([key, group]) => ({ key, sent: totals(group).sent }))
      .sort((a, b) => b.sent - a.sent);
    expect(result.map((row) => `${row.country as string}|${row.send_weekday as number}`)).toEqual(
      all.slice(2, 7).map((entry) => entry.key),
    );
    const [count] = run({
      kind: 'explorerCount',
      ...ds,
      range,
      rowGroups: ['country', 'send_weekday'],
      metrics: ['sent'],
    });
    expect(count.count).toBe(all.length);
  });

  test('a pivot: values by the first metric, cells per value and metric, within 100 columns', () => {
    expect(pivotValueLimit(1, 2)).toBe(49);
    expect(pivotValueLimit(0, 1)).toBe(100);
    const query: Extract<QueryInput, { kind: 'explorerPivot' }> = {
      kind: 'explorerPivot',
      ...ds,
      range,
      rowGroups: ['country'],
      pivot: 'campaign_name',
      metrics: ['sent', 'open_rate'],
    };
    const values = rows(conn, pivotValuesSql(campaignSchema, query)).map((row) => row.value as string);
    expect(values).toHaveLength(14);
    const result = run({ ...query, pivotValues: values });
    expect(Object.keys(result[0])).toHaveLength(1 + 14 * 2);
    for (const row of result) {
      for (const value of values) {
        const group = data.filter(within(range)).filter((r) => r.country === row.country && r.campaign_name === value);
        expect(row[pivotColumn(value, 'sent')]).toBe(group.length ? totals(group).sent : null);
      }
    }
  });
});

describe('custom fields of the data model', () => {
  const schema: DatasetSchema = {
    ...campaignSchema,
    fields: [
      ...campaignSchema.fields,
      {
        id: 'clicks_per_open',
        name: 'Clicks per open',
        category: 'Custom',
        format: 'percent',
        type: 'metric',
        agg: { type: 'custom', expression: 'clicks_unique / open' },
        features: [],
        dataSourceType: 'virtual',
      },
      {
        id: 'revenue_per_1000',
        name: 'Revenue per 1000',
        category: 'Custom',
        format: 'currency',
        type: 'metric',
        agg: { type: 'custom', expression: 'revenue * 1000 / sent' },
        features: [],
        dataSourceType: 'virtual',
      },
      {
        id: 'market',
        name: 'Market',
        category: 'Custom',
        format: 'string',
        type: 'dimension',
        features: [],
        dataSourceType: 'virtual',
        rules: [
          { field: 'country', type: 'equals', value: 'NL', result: 'Home' },
          { field: 'campaign_name', type: 'startsWith', value: 'A', result: 'Alpha abroad' },
        ],
        rules_else: 'Abroad',
      },
    ],
  };
  const range = { start: '2024-01-01', end: '2024-02-29' };
  const market = (row: CampaignRow) =>
    row.country === 'NL' ? 'Home' : (row.campaign_name ?? '').startsWith('A') ? 'Alpha abroad' : 'Abroad';

  test('custom metrics are ratios of aggregates, grouped by a rule-based dimension', () => {
    const result = run(
      { kind: 'tableCompare', ...ds, range, dimensions: ['market'], metrics: ['clicks_per_open', 'revenue_per_1000'] },
      schema,
    );
    const groups = groupBy(data.filter(within(range)), market);
    expect(result.map((row) => row.market).sort()).toEqual([...groups.keys()].sort());
    for (const row of result) {
      const group = groups.get(row.market as string)!;
      const sum = (key: 'clicks_unique' | 'open' | 'revenue' | 'sent') => group.reduce((t, r) => t + r[key], 0);
      expect(row.clicks_per_open).toBeCloseTo(sum('clicks_unique') / sum('open'), 12);
      expect(row.revenue_per_1000).toBeCloseTo((sum('revenue') * 1000) / sum('sent'), 9);
    }
  });

  test('filters on a rule-based dimension and on a custom metric as an aggregate', () => {
    const result = run(
      {
        kind: 'tableCompare',
        ...ds,
        range,
        dimensions: ['country'],
        metrics: ['sent'],
        filters: [
          { member: 'market', operator: 'notEquals', values: ['Home'] },
          { member: 'clicks_per_open', operator: 'gt', values: ['0'], aggregate: true },
        ],
      },
      schema,
    );
    const kept = data.filter(within(range)).filter((row) => market(row) !== 'Home');
    const byCountry = groupBy(kept, (row) => row.country);
    expect(result.map((row) => row.country).sort()).toEqual([...byCountry.keys()].sort());
    for (const row of result) expect(row.sent).toBe(totals(byCountry.get(row.country as string)!).sent);
    expect(() =>
      run(
        {
          kind: 'funnel',
          ...ds,
          range,
          metrics: ['sent'],
          filters: [{ member: 'clicks_per_open', operator: 'gt', values: ['0'] }],
        },
        schema,
      ),
    ).toThrow('can only be filtered as an aggregate');
  });
});

describe('engagement CSV', () => {
  const schema: DatasetSchema = {
    id: 'engagement_contacts',
    tableId: 'engagement_contacts',
    dateField: 'month',
    fields: ['month', 'contact_id', 'integration_id', 'segment_id'].map((id) => ({
      id,
      name: id,
      category: 'Contact',
      format: id === 'month' ? 'date' : 'string',
      type: 'dimension',
      features: [],
    })),
  };
  beforeAll(() => {
    const contacts = [
      { month: '2024-01-01', contact_id: 'b', integration_id: 'i1', segment_id: 'engaged' },
      { month: '2024-01-01', contact_id: 'a', integration_id: 'i1', segment_id: 'engaged' },
      { month: '2024-01-01', contact_id: '=HYPERLINK("x")', integration_id: 'i1', segment_id: 'new' },
      { month: '2024-02-01', contact_id: 'c', integration_id: 'i1', segment_id: 'new' },
      { month: '2024-01-01', contact_id: 'd', integration_id: 'i2', segment_id: 'new' },
    ];
    const columns = { month: 'DATE', contact_id: 'VARCHAR', integration_id: 'VARCHAR', segment_id: 'VARCHAR' };
    for (const sql of tableSql('engagement_contacts', columns, contacts)) conn.query(sql);
  });

  test('one segment or all, as CSV text with a file name', () => {
    const names: Record<string, string> = { engaged: 'Engaged', new: 'New' };
    const all = run({ kind: 'engagementCsv', integrationId: 'i1', month: '2024-01-01' }, schema);
    expect(engagementCsv(all as { contact_id: string; segment: string }[], (id) => names[id])).toBe(
      'contact_id,segment\r\na,Engaged\r\nb,Engaged\r\n"\'=HYPERLINK(""x"")",New\r\n',
    );
    const one = run({ kind: 'engagementCsv', integrationId: 'i1', month: '2024-01-01', segmentId: 'new' }, schema);
    expect(one).toEqual([{ contact_id: '=HYPERLINK("x")', segment: 'new' }]);
    expect(engagementCsvFileName('2024-01-01', 'Highly engaged')).toBe('engagement_2024-01-01_highly_engaged.csv');
    expect(engagementCsvFileName('2024-01-01')).toBe('engagement_2024-01-01_all_segments.csv');
  });
});

describe('engagement segment table and months', () => {
  const schema = toDatasetSchema(getCatalogueDataset('engagement_segments')!);
  const inflowIds = [
    ...engagementSegments.map((segment) => `inflow_from_${segment.id}`),
    'inflow_new',
    ...engagementSegments.map((segment) => `outflow_to_${segment.id}`),
    'outflow_gone',
  ];
  /** Seeded rows: two integrations, int-b with one month; segments written out of display order on purpose. */
  const segmentRows = ['int-a|2026-10-01', 'int-a|2026-11-01', 'int-b|2026-09-01'].flatMap((key, k) =>
    [...engagementSegments].reverse().map((segment, s) => {
      const [integration_id, date] = key.split('|');
      const size = segment.id === 'at_risk' && k === 1 ? 0 : 10 * (s + 1) + k;
      return {
        date,
        integration_id,
        integration_name: integration_id === 'int-a' ? 'Alpha' : 'Beta',
        segment_id: segment.id,
        segment_name: segment.name,
        size,
        days_since_last_click_total: size * (s + 3),
        click_total: size * 2 + s,
        send_total: size * 9 + 1,
        ...Object.fromEntries(inflowIds.map((id, f) => [id, size ? (f + s + k) % 4 : 0])),
      };
    }),
  );
  beforeAll(() => {
    const columns = Object.fromEntries(
      Object.keys(segmentRows[0]).map((id) => [
        id,
        id === 'date' ? 'DATE' : /^(integration|segment)_/.test(id) ? 'VARCHAR' : 'INTEGER',
      ]),
    );
    for (const sql of tableSql('engagement_segments', columns, segmentRows)) conn.query(sql);
  });

  test('lists each integration once with its months, oldest first', () => {
    expect(run({ kind: 'engagementMonths' }, schema)).toEqual([
      { integration_id: 'int-a', integration_name: 'Alpha', date: '2026-10-01' },
      { integration_id: 'int-a', integration_name: 'Alpha', date: '2026-11-01' },
      { integration_id: 'int-b', integration_name: 'Beta', date: '2026-09-01' },
    ]);
  });

  test('gives the segments in display order with their ratios, then a Total row, as plain arithmetic does', () => {
    const month = segmentRows.filter((row) => row.integration_id === 'int-a' && row.date === '2026-11-01');
    const total = month.reduce((sum, row) => sum + row.size, 0);
    const sumOf = (id: string) => month.reduce((sum, row) => sum + Number((row as Record<string, unknown>)[id]), 0);
    const ratio = (n: number, d: number) => (d ? n / d : null);
    const expectRow = (
      name: string,
      size: number,
      days: number,
      clicks: number,
      sends: number,
      inflow: (id: string) => number,
    ) => ({
      segment_name: name,
      size,
      share: ratio(size, total),
      days_since_last_click: ratio(days, size),
      click_frequency: ratio(clicks, size),
      click_rate: ratio(clicks, sends),
      ...Object.fromEntries(inflowIds.map((id) => [id, inflow(id)])),
    });
    const expected = [
      ...engagementSegments.map((segment) => {
        const row = month.find((candidate) => candidate.segment_id === segment.id)! as Record<string, number> &
          (typeof month)[number];
        return expectRow(
          segment.name,
          row.size,
          row.days_since_last_click_total,
          row.click_total,
          row.send_total,
          (id) => row[id],
        );
      }),
      expectRow('Total', total, sumOf('days_since_last_click_total'), sumOf('click_total'), sumOf('send_total'), sumOf),
    ];
    const actual = run({ kind: 'engagementSegmentTable', integrationId: 'int-a', month: '2026-11-01' }, schema);
    expect(actual.map((row) => row.segment_id)).toEqual([...engagementSegments.map((segment) => segment.id), null]);
    expect(actual.map(({ segment_id: _id, is_total: _total, ...row }) => row)).toEqual(
      expected.map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([key, value]) => [
            key,
            typeof value === 'number' ? expect.closeTo(value, 9) : value,
          ]),
        ),
      ),
    );
    expect(actual.at(-1)!.is_total).toBe(true);
    // A segment of 0 has no ratios; a month that does not exist has no rows (not even a Total).
    expect(actual.find((row) => row.segment_id === 'at_risk')).toMatchObject({ size: 0, click_frequency: null });
    expect(run({ kind: 'engagementSegmentTable', integrationId: 'int-b', month: '2026-11-01' }, schema)).toEqual([]);
  });
});

test('the engagement CSV in chunks adds up to the whole download, as a hand-written query orders it', () => {
  const schema = toDatasetSchema(getCatalogueDataset('engagement_contacts')!);
  const contacts = Array.from({ length: 2500 }, (_, i) => ({
    month: '2026-11-01',
    contact_id: `contact-${(i * 7919) % 2500}`,
    integration_id: i % 5 === 0 ? 'int-b' : 'int-a',
    segment_id: engagementSegments[i % 5].id,
  }));
  const columns = { month: 'DATE', contact_id: 'VARCHAR', integration_id: 'VARCHAR', segment_id: 'VARCHAR' };
  for (const sql of tableSql('engagement_contacts', columns, contacts)) conn.query(sql);
  const query = { kind: 'engagementCsv', integrationId: 'int-a', month: '2026-11-01' } as const;
  const chunks = [0, 700, 1400].map((offset) => run({ ...query, offset, limit: 700 }, schema));
  expect(chunks.map((chunk) => chunk.length)).toEqual([700, 700, 600]);
  const reference = rows(
    conn,
    `SELECT contact_id, segment_id AS segment FROM engagement_contacts
     WHERE integration_id = 'int-a' AND month = DATE '2026-11-01' ORDER BY segment_id, contact_id`,
  );
  expect(chunks.flat()).toEqual(reference);
  expect(run(query, schema)).toEqual(reference);
});
