/** @jest-environment node */
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
import { type ExportInput, exportQueries } from './useExplorerExport';
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
