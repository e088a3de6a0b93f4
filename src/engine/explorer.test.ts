/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { FieldIndex } from './fields';
import { gridFilters } from './gridFilters';
import { PIVOT_VALUES_TOTAL, type QueryInput, buildQuery, pivotColumn, pivotValuesSql } from './queries';
import { type CampaignRow, campaignColumns, campaignRows, campaignSchema, tableSql } from './testing/fixtures';
import { openNodeDuckdb, rows } from './testing/nodeDuckdb';

let conn: DuckDBConnection;
const data = campaignRows();
const range = { start: '2024-01-01', end: '2024-02-29' };
const inRange = data.filter((row) => row.send_date >= range.start && row.send_date <= range.end);
const base = { dataset: 'campaigns_fixture', range } as const;

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, data)) conn.query(sql);
}, START_TIMEOUT_MS);

const run = (input: QueryInput) => rows(conn, buildQuery(campaignSchema, input));

// Independent reference: plain TypeScript over the fixture rows, grouped by a key function.
function reference(subset: CampaignRow[], key: (row: CampaignRow) => string) {
  const groups = new Map<string, CampaignRow[]>();
  for (const row of subset) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return new Map(
    [...groups].map(([name, group]) => {
      const sum = (k: 'sent' | 'open' | 'delivered') => group.reduce((total, row) => total + row[k], 0);
      return [name, { sent: sum('sent'), open_rate: sum('open') / sum('delivered') }];
    }),
  );
}
const byCountry = (rowsOut: Record<string, unknown>[]) => new Map(rowsOut.map((row) => [row.country as string, row]));

describe('explorer group levels', () => {
  test('top level and the children of one group aggregate the rows, not the level below', () => {
    const top = run({
      kind: 'explorerRows',
      ...base,
      rowGroups: ['country', 'campaign_name'],
      groupKeys: [],
      metrics: ['open_rate'],
    });
    const expected = reference(inRange, (row) => row.country);
    expect(top).toHaveLength(expected.size);
    for (const row of top) expect(row.open_rate).toBeCloseTo(expected.get(row.country as string)!.open_rate, 10);

    const children = run({
      kind: 'explorerRows',
      ...base,
      rowGroups: ['country', 'campaign_name'],
      groupKeys: ['NL'],
      metrics: ['sent', 'open_rate'],
      sort: [{ field: 'sent', desc: true }],
      limit: 1000,
    });
    const nl = reference(
      inRange.filter((row) => row.country === 'NL'),
      (row) => String(row.campaign_name),
    );
    expect(children.map((row) => String(row.campaign_name))).toEqual(
      [...nl].sort((a, b) => b[1].sent - a[1].sent).map(([name]) => name),
    );
    // The weighted average of the group is not the mean of its children's rates.
    const mean = [...nl.values()].reduce((total, group) => total + group.open_rate, 0) / nl.size;
    expect(Math.abs(mean - expected.get('NL')!.open_rate)).toBeGreaterThan(1e-6);
  });

  test('the null group is a group of its own; a level below the last group is an error', () => {
    const nulls = run({
      kind: 'explorerRows',
      ...base,
      rowGroups: ['campaign_name', 'country'],
      groupKeys: [null],
      metrics: ['sent'],
    });
    const expected = reference(
      inRange.filter((row) => row.campaign_name === null),
      (row) => row.country,
    );
    expect(new Map(nulls.map((row) => [row.country, row.sent]))).toEqual(
      new Map([...expected].map(([key, value]) => [key, value.sent])),
    );
    expect(() =>
      run({ kind: 'explorerRows', ...base, rowGroups: ['country'], groupKeys: ['NL'], metrics: [] }),
    ).toThrow('No such group level');
  });

  test('paging returns consecutive windows of the counted rows', () => {
    const query = { ...base, rowGroups: ['campaign_name', 'country'], groupKeys: [], metrics: ['sent'] };
    const [{ count }] = run({ kind: 'explorerCount', ...query });
    const pages = [0, 5, 10].flatMap((offset) => run({ kind: 'explorerRows', ...query, offset, limit: 5 }));
    const all = run({ kind: 'explorerRows', ...query, limit: 1000 });
    expect(count).toBe(all.length);
    expect(pages).toEqual(all.slice(0, 15));
  });
});

describe('the grid filter model', () => {
  const fields = new FieldIndex(campaignSchema);
  const query = (filterModel: unknown) =>
    run({ kind: 'explorerRows', ...base, rowGroups: ['country'], metrics: ['sent'], filterModel });

  test('text options filter the rows of a dimension', () => {
    const result = query({ campaign_name: { filterType: 'text', type: 'startsWith', filter: 'al' } });
    const expected = reference(
      inRange.filter((row) => row.campaign_name?.toLowerCase().startsWith('al')),
      (row) => row.country,
    );
    expect(byCountry(result).get('NL')?.sent).toBe(expected.get('NL')?.sent);
    const notEqual = query({ campaign_name: { filterType: 'text', type: 'notEqual', filter: 'Alpha' } });
    const others = reference(
      inRange.filter((row) => row.campaign_name !== 'Alpha'),
      (row) => row.country,
    );
    expect(byCountry(notEqual).get('DE')?.sent).toBe(others.get('DE')?.sent);
  });

  test('number options filter the groups by their aggregated value', () => {
    const totals = reference(inRange, (row) => row.country);
    const sorted = [...totals.values()].map((group) => group.sent).sort((a, b) => a - b);
    const cases: [string, number, number | undefined, number[]][] = [
      ['equals', sorted[1], undefined, [sorted[1]]],
      ['notEqual', sorted[1], undefined, [sorted[0], sorted[2]]],
      ['greaterThan', sorted[0], undefined, [sorted[1], sorted[2]]],
      ['greaterThanOrEqual', sorted[1], undefined, [sorted[1], sorted[2]]],
      ['lessThan', sorted[1], undefined, [sorted[0]]],
      ['lessThanOrEqual', sorted[1], undefined, [sorted[0], sorted[1]]],
      ['inRange', sorted[0] + 1, sorted[2], [sorted[1], sorted[2]]],
    ];
    for (const [type, filter, filterTo, expected] of cases) {
      const result = query({ sent: { filterType: 'number', type, filter, filterTo } });
      expect([type, result.map((row) => row.sent as number).sort((a, b) => a - b)]).toEqual([type, expected]);
    }
  });

  test('date options, set filters and blanks', () => {
    const dated = query({
      send_date: { filterType: 'date', type: 'inRange', dateFrom: '2024-01-10 00:00:00', dateTo: '2024-01-20' },
    });
    const expected = reference(
      inRange.filter((row) => row.send_date >= '2024-01-10' && row.send_date <= '2024-01-20'),
      (row) => row.country,
    );
    expect(byCountry(dated).get('GB')?.sent).toBe(expected.get('GB')?.sent);
    expect(query({ country: { filterType: 'set', values: [] } })).toEqual([]);
    expect(query({ country: { filterType: 'set', values: ['NL', 'DE'] } }).map((row) => row.country)).toEqual(
      expect.arrayContaining(['NL', 'DE']),
    );
    const blanks = query({ campaign_name: { filterType: 'text', type: 'blank' } });
    const nulls = reference(
      inRange.filter((row) => row.campaign_name === null),
      (row) => row.country,
    );
    expect(byCountry(blanks).get('NL')?.sent).toBe(nulls.get('NL')?.sent);
  });

  test('an advanced or unknown model is refused, so the grid can clear it', () => {
    const advanced = { filterType: 'join', type: 'AND', conditions: [] };
    expect(() => gridFilters({ campaign_name: advanced }, fields)).toThrow('Unsupported grid filter model');
    expect(() => gridFilters({ nope: { filterType: 'text', type: 'contains', filter: 'x' } }, fields)).toThrow(
      'Field not found',
    );
    expect(gridFilters(null, fields)).toEqual([]);
  });
});

describe('explorer pivots', () => {
  const pivotQuery: Extract<QueryInput, { kind: 'explorerPivot' }> = {
    kind: 'explorerPivot',
    ...base,
    rowGroups: ['country', 'send_weekday'],
    pivot: 'campaign_name',
    metrics: ['sent', 'open_rate', 'campaigns'],
  };

  test('cells of an expanded group, sorted by a pivot column, counted like the pivot', () => {
    const values = rows(conn, pivotValuesSql(campaignSchema, pivotQuery)).map((row) => row.value as string);
    const sortColumn = pivotColumn(values[0], 'open_rate');
    const result = run({
      ...pivotQuery,
      pivotValues: values,
      groupKeys: ['GB'],
      sort: [{ field: sortColumn, desc: false }],
      limit: 1000,
    });
    const gb = inRange.filter((row) => row.country === 'GB' && row.campaign_name !== null);
    const expected = reference(gb, (row) => `${row.send_weekday}|${row.campaign_name}`);
    for (const row of result) {
      for (const value of values) {
        const cell = expected.get(`${row.send_weekday as number}|${value}`);
        if (cell) expect(row[pivotColumn(value, 'open_rate')]).toBeCloseTo(cell.open_rate, 10);
        else expect(row[pivotColumn(value, 'open_rate')]).toBeNull();
      }
    }
    const sortValues = result.map((row) => row[sortColumn] as number | null).filter((v) => v !== null);
    expect(sortValues).toEqual([...sortValues].sort((a, b) => a - b));
    const [{ count }] = run({ ...pivotQuery, kind: 'explorerCount', pivotValues: values, groupKeys: ['GB'] });
    expect(count).toBe(result.length);
  });

  test('a sort by a pivot value no longer among the values is skipped; one by a field it never had fails', () => {
    const values = rows(conn, pivotValuesSql(campaignSchema, pivotQuery)).map((row) => row.value as string);
    const query = { ...pivotQuery, pivotValues: values, groupKeys: ['GB'], limit: 1000 };
    // A view saved sorted by a campaign that has since left the pivot's values: the rows keep their key order.
    const stale = run({ ...query, sort: [{ field: pivotColumn('Campaign gone', 'sent'), desc: true }] });
    const weekdays = stale.map((row) => row.send_weekday as number);
    expect(weekdays).toEqual([...weekdays].sort((a, b) => a - b));
    expect(stale).toEqual(run(query));
    expect(() => run({ ...query, sort: [{ field: 'not_a_column', desc: true }] })).toThrow(/Cannot sort by/);
  });

  test('the pivot keeps within 100 result columns', () => {
    const many = Array.from({ length: 200 }, (_, i) => `v${i}`);
    const sql = buildQuery(campaignSchema, { ...pivotQuery, pivotValues: many, rowGroups: ['country'] });
    // One group column and 33 values × 3 metrics.
    expect(rows(conn, `DESCRIBE ${sql}`)).toHaveLength(100);
  });

  test('pivot values are cut to the columns that fit, and the query counts all of them', () => {
    // Two row groups and two metrics leave room for 49 values; the range has a send date per day.
    const query = { ...pivotQuery, pivot: 'send_date', metrics: ['sent', 'open_rate'] };
    const found = run({ ...query, kind: 'explorerPivotValues' });
    const days = new Map<string, number>();
    for (const row of inRange) days.set(row.send_date, (days.get(row.send_date) ?? 0) + row.sent);
    expect(days.size).toBeGreaterThan(49);
    expect(found).toHaveLength(49);
    expect(found.every((row) => row[PIVOT_VALUES_TOTAL] === days.size)).toBe(true);
    // The largest by the first metric are kept.
    const largest = [...days.values()].sort((a, b) => b - a).slice(0, 49);
    expect(found.map((row) => row.sent)).toEqual(largest);
  });

  test("the grid's row filters narrow the pivot values; value filters do not", () => {
    const filterModel = {
      country: { filterType: 'set', values: ['NL'] },
      sent: { filterType: 'number', type: 'greaterThan', filter: 1e12 },
    };
    const found = run({ ...pivotQuery, kind: 'explorerPivotValues', filterModel });
    const names = new Set(inRange.filter((row) => row.country === 'NL').map((row) => row.campaign_name));
    names.delete(null);
    expect(new Set(found.map((row) => row.value))).toEqual(names);
    expect(found[0][PIVOT_VALUES_TOTAL]).toBe(names.size);
  });
});

describe('leaf rows in the grid order (levelSort, as exports read them)', () => {
  type Key = string | number | null;
  type Level = { key: (row: CampaignRow) => Key; rank: (key: Key, group: CampaignRow[]) => Key };
  const nullsLast = (a: Key, b: Key, desc: boolean) => {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    return (a < b ? -1 : 1) * (desc ? -1 : 1);
  };
  // Independent reference: each level's groups ranked by their own value over the rows, children within them.
  function gridOrder(subset: CampaignRow[], levels: Level[], desc: boolean): Key[][] {
    if (!levels.length) return [[]];
    const [level, ...rest] = levels;
    const groups = new Map<Key, CampaignRow[]>();
    for (const row of subset) groups.set(level.key(row), [...(groups.get(level.key(row)) ?? []), row]);
    return [...groups]
      .map(([key, group]) => ({ key, group, rank: level.rank(key, group) }))
      .sort((a, b) => nullsLast(a.rank, b.rank, desc) || nullsLast(a.key, b.key, false))
      .flatMap(({ key, group }) => gridOrder(group, rest, desc).map((tail) => [key, ...tail]));
  }
  const openRate = (group: CampaignRow[]) =>
    group.reduce((total, row) => total + row.open, 0) / group.reduce((total, row) => total + row.delivered, 0);
  const byOpenRate = (key: (row: CampaignRow) => Key): Level => ({ key, rank: (_, group) => openRate(group) });
  const keysOf = (result: Record<string, unknown>[], groups: string[]) =>
    result.map((row) => groups.map((group) => row[group] as Key));
  const rowsQuery: Extract<QueryInput, { kind: 'explorerRows' }> = {
    kind: 'explorerRows',
    ...base,
    rowGroups: ['campaign_name', 'country'],
    metrics: ['sent', 'open_rate'],
    levelSort: true,
    limit: 1000,
  };

  test('a flat grid sorted by a metric is the hand-written ORDER BY', () => {
    const result = run({ ...rowsQuery, rowGroups: ['campaign_name'], sort: [{ field: 'sent', desc: true }] });
    const expected = rows(
      conn,
      `SELECT campaign_name, CAST(SUM(sent) AS DOUBLE) AS sent FROM campaigns_fixture WHERE send_date BETWEEN ` +
        `DATE '${range.start}' AND DATE '${range.end}' GROUP BY 1 ORDER BY 2 DESC NULLS LAST, 1 NULLS LAST`,
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(result.map((row) => [row.campaign_name, Number(row.sent)])).toEqual(
      expected.map((row) => [row.campaign_name, row.sent]),
    );
  });

  test('two row groups sorted by a weighted average: parents by their own rate, children within each by theirs', () => {
    const result = run({ ...rowsQuery, sort: [{ field: 'open_rate', desc: true }] });
    const levels = [byOpenRate((row) => row.campaign_name), byOpenRate((row) => row.country)];
    const expected = gridOrder(inRange, levels, true);
    expect(keysOf(result, rowsQuery.rowGroups)).toEqual(expected);
    // The parents' order is not the one their children's rates would give (a mean of rates).
    const parents = [...new Set(expected.map(([name]) => name))];
    const meanOfChildren = (name: Key) => {
      const rates = result.filter((row) => row.campaign_name === name).map((row) => row.open_rate as number);
      return rates.reduce((total, rate) => total + rate, 0) / rates.length;
    };
    expect(parents).not.toEqual([...parents].sort((a, b) => meanOfChildren(b) - meanOfChildren(a)));
  });

  test('the group column sorts each level by its own dimension, the null group last', () => {
    const sort = rowsQuery.rowGroups.map((field) => ({ field, desc: true }));
    const result = run({ ...rowsQuery, sort });
    const byKey = (key: (row: CampaignRow) => Key): Level => ({ key, rank: (value) => value });
    const expected = gridOrder(inRange, [byKey((row) => row.campaign_name), byKey((row) => row.country)], true);
    expect(keysOf(result, rowsQuery.rowGroups)).toEqual(expected);
    expect(expected.at(-1)?.[0]).toBeNull();
  });

  test('a pivot cell column sorts every level by its own cell', () => {
    const pivotQuery: Extract<QueryInput, { kind: 'explorerPivot' }> = {
      kind: 'explorerPivot',
      ...base,
      rowGroups: ['country', 'send_weekday'],
      pivot: 'campaign_name',
      metrics: ['open_rate'],
    };
    const values = rows(conn, pivotValuesSql(campaignSchema, pivotQuery)).map((row) => row.value as string);
    const column = pivotColumn(values[1], 'open_rate');
    const sort = [{ field: column, desc: true }];
    const result = run({ ...pivotQuery, pivotValues: values, sort, levelSort: true, limit: 1000 });
    const cell = (key: (row: CampaignRow) => Key): Level => ({
      key,
      rank: (_, group) => {
        const inCell = group.filter((row) => row.campaign_name === values[1]);
        return inCell.length ? openRate(inCell) : null;
      },
    });
    const pivoted = inRange.filter((row) => row.campaign_name !== null);
    const expected = gridOrder(pivoted, [cell((row) => row.country), cell((row) => row.send_weekday)], true);
    expect(keysOf(result, pivotQuery.rowGroups)).toEqual(expected);
    // A sort by a column the pivot lacks is skipped, as the grid skips it.
    const unknown = { field: 'sent', desc: false };
    expect(run({ ...pivotQuery, pivotValues: values, sort: [unknown, ...sort], levelSort: true, limit: 1000 })).toEqual(
      result,
    );
    // One row group: the grid's own sorted query.
    const flat = { ...pivotQuery, rowGroups: ['country'], pivotValues: values, sort, limit: 1000 };
    expect(run({ ...flat, levelSort: true })).toEqual(run(flat));
  });

  test('a value filter hides a parent with its children, as the grid cannot expand a parent it does not show', () => {
    const sentOf = (group: CampaignRow[]) => group.reduce((total, row) => total + row.sent, 0);
    const totals = (key: (row: CampaignRow) => Key) => {
      const groups = new Map<Key, CampaignRow[]>();
      for (const row of inRange) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
      return new Map([...groups].map(([name, group]) => [name, sentOf(group)]));
    };
    const parents = totals((row) => row.campaign_name);
    const leaves = totals((row) => JSON.stringify([row.campaign_name, row.country]));
    // Below the median campaign: the larger campaigns are hidden, though many of their countries are below it too.
    const threshold = [...parents.values()].sort((a, b) => a - b)[Math.floor(parents.size / 2)];
    const filterModel = { sent: { filterType: 'number', type: 'lessThan', filter: threshold } };
    const kept = ([name, country]: Key[]) =>
      parents.get(name)! < threshold && leaves.get(JSON.stringify([name, country]))! < threshold;
    const orphans = [...leaves].filter(
      ([key, sent]) => sent < threshold && parents.get((JSON.parse(key as string) as Key[])[0])! >= threshold,
    );
    expect(orphans.length).toBeGreaterThan(0);

    const bySent = (key: (row: CampaignRow) => Key): Level => ({ key, rank: (_, group) => sentOf(group) });
    const sorted = gridOrder(inRange, [bySent((row) => row.campaign_name), bySent((row) => row.country)], true);
    const result = run({ ...rowsQuery, sort: [{ field: 'sent', desc: true }], filterModel });
    expect(keysOf(result, rowsQuery.rowGroups)).toEqual(sorted.filter(kept));
    // Unsorted, the same rows.
    const unsorted = keysOf(run({ ...rowsQuery, filterModel }), rowsQuery.rowGroups);
    expect(unsorted.map((key) => JSON.stringify(key)).sort()).toEqual(
      sorted
        .filter(kept)
        .map((key) => JSON.stringify(key))
        .sort(),
    );
  });

  test('blocks at offsets 0, k and 2k are consecutive windows of the whole order', () => {
    const query = { ...rowsQuery, sort: [{ field: 'sent', desc: false }] };
    const all = run(query);
    const k = 7;
    const blocks = [0, k, 2 * k].flatMap((offset) => run({ ...query, offset, limit: k }));
    expect(all.length).toBeGreaterThan(3 * k);
    expect(blocks).toEqual(all.slice(0, 3 * k));
  });
});
