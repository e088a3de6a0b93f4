/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { buildQuery, pivotColumn } from '../../engine/queries';
import {
  type CampaignRow,
  campaignColumns,
  campaignRows,
  campaignSchema,
  tableSql,
} from '../../engine/testing/fixtures';
import { openNodeDuckdb, rows } from '../../engine/testing/nodeDuckdb';
import { type GridLayout } from './explorerEdits';
import { type ExportInput, exportBlocks, exportQueries } from './useExplorerExport';
import { GROUP_COLUMN } from './useGridSource';

let conn: DuckDBConnection;
const data = campaignRows();
const range = { start: '2024-01-01', end: '2024-02-29' };
const inRange = data.filter((row) => row.send_date >= range.start && row.send_date <= range.end);

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, data)) conn.query(sql);
}, START_TIMEOUT_MS);

const scope = { workspaceId: 1, version: 'v1', dataset: 'campaigns_fixture', range, filters: [] };
const exportInput = (layout: GridLayout, pivotValues: string[] = [], filterModel: unknown = null): ExportInput => ({
  schema: campaignSchema,
  scope,
  layout,
  filterModel,
  values: [],
  pivotValues,
  locale: 'en_US',
  title: 'export',
});
const exported = (layout: GridLayout, pivotValues: string[] = []) => {
  const input: ExportInput = {
    schema: campaignSchema,
    scope,
    layout,
    filterModel: null,
    values: [],
    pivotValues,
    locale: 'en_US',
    title: 'export',
  };
  return rows(conn, buildQuery(campaignSchema, exportQueries(input).block(0).query));
};
type Key = string | number | null;
const descNullsLast = (a: Key, b: Key) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? 1 : -1);

describe('the export follows the grid sort', () => {
  test('the group column sorts every level by its own dimension, descending with the null group last', () => {
    const layout = { rowGroups: ['campaign_name', 'country'], pivot: null, metrics: ['sent'], sort: [] };
    const result = exported({ ...layout, sort: [{ field: GROUP_COLUMN, desc: true }] });
    const pairs = new Map(inRange.map((row) => [`${row.campaign_name}|${row.country}`, row]));
    const expected = [...pairs.values()]
      .map((row: CampaignRow) => [row.campaign_name, row.country] as Key[])
      .sort((a, b) => descNullsLast(a[0], b[0]) || descNullsLast(a[1], b[1]));
    expect(result.map((row) => [row.campaign_name, row.country])).toEqual(expected);
  });

  test('a pivot cell column sorts the parents by their own cell, not only the leaves', () => {
    const values = ['Alpha', 'Beta'];
    const column = pivotColumn('Alpha', 'sent');
    const layout = { rowGroups: ['country', 'send_weekday'], pivot: 'campaign_name', metrics: ['sent'] };
    const result = exported({ ...layout, sort: [{ field: column, desc: true }] }, values);
    const alphaSent = (country: string) =>
      inRange.filter((row) => row.country === country && row.campaign_name === 'Alpha').reduce((t, r) => t + r.sent, 0);
    const countries = [...new Set(result.map((row) => row.country as string))];
    expect(countries).toEqual([...countries].sort((a, b) => alphaSent(b) - alphaSent(a)));
    expect(countries).toHaveLength(3);
  });
});

describe('an export of more than one block', () => {
  /** Every row of the export as the app reads it: block after block of `blockRows`, each asked for at its offset. */
  async function blockByBlock(input: ExportInput, blockRows: number) {
    const queries = exportQueries(input, blockRows);
    const offsets: number[] = [];
    const written: Record<string, unknown>[] = [];
    const blocks = exportBlocks(
      async (offset) => rows(conn, buildQuery(campaignSchema, queries.block(offset).query)),
      (answer) => answer.length,
      blockRows,
    );
    for await (const block of blocks) {
      offsets.push(block.offset);
      written.push(...block.answer);
    }
    return { offsets, written };
  }
  const inOneBlock = (input: ExportInput) =>
    rows(conn, buildQuery(campaignSchema, exportQueries(input, 100_000).block(0).query));
  const keyOf = (row: Record<string, unknown>) => `${String(row.send_date)}|${String(row.campaign_name)}`;

  // Sorted by a dimension with many equal values: blocks read apart must still meet without a row twice or lost.
  const layout: GridLayout = {
    rowGroups: ['country', 'send_date', 'campaign_name'],
    pivot: null,
    metrics: ['sent', 'open'],
    sort: [{ field: 'country', desc: true }],
  };

  test('blocks of 7 rows, read one after another, give the rows of one block, in its order', async () => {
    const input = exportInput(layout);
    const whole = inOneBlock(input);
    const pairs = new Set(inRange.map((row) => `${row.send_date}|${row.campaign_name}`));
    expect(whole).toHaveLength(pairs.size);
    expect(whole.length).toBeGreaterThan(70);
    const { offsets, written } = await blockByBlock(input, 7);
    expect(written).toEqual(whole);
    expect(new Set(written.map(keyOf)).size).toBe(written.length);
    expect(offsets).toEqual(Array.from({ length: Math.floor(whole.length / 7) + 1 }, (_, index) => index * 7));
  });

  test('a row count that is a multiple of the block ends with an empty block, and nothing is written twice', async () => {
    const input = exportInput(layout);
    const total = inOneBlock(input).length;
    const divisor = [5, 4, 3, 2].find((n) => total % n === 0) ?? 1;
    const { offsets, written } = await blockByBlock(input, total / divisor);
    expect(written).toEqual(inOneBlock(input));
    expect(offsets).toHaveLength(divisor + 1);
  });

  test('pivoted and filtered by a value, the blocks still add up to the one block', async () => {
    const pivoted: GridLayout = { ...layout, rowGroups: ['country', 'send_date'], pivot: 'campaign_name' };
    const filterModel = { sent: { filterType: 'number', type: 'greaterThan', filter: 600 } };
    const input = exportInput(pivoted, ['Alpha', 'Beta'], filterModel);
    const whole = inOneBlock(input);
    expect(whole.length).toBeGreaterThan(20);
    const { written } = await blockByBlock(input, 6);
    expect(written).toEqual(whole);
  });
});
