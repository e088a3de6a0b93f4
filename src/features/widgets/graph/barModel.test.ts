/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../../../test/timeouts';
import { type Widget } from '../../../contracts/reports';
import { type DayRange } from '../../../engine/dates';
import { formatField } from '../../../engine/format';
import { BAR_TOP_N, buildQuery } from '../../../engine/queries';
import { campaignColumns, campaignRows, campaignSchema, tableSql } from '../../../engine/testing/fixtures';
import { openNodeDuckdb, rows } from '../../../engine/testing/nodeDuckdb';
import { type Cell, type ResultColumns } from '../../../store/engineApi';
import { BAR_WIDTH_PX, PERCENT_AXIS_MAX, PLOT_MARGIN, graphSettings } from '../graphModel';
import { asColumns, campaignField } from '../testing/resultColumns';
import { OTHER_LABEL, barCategoryWidth, barFigure, barGraphModel } from './barModel';

let conn: DuckDBConnection;

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, campaignRows())) conn.query(sql);
}, START_TIMEOUT_MS);

const RANGE: DayRange = { start: '2024-01-01', end: '2024-01-31' };
const field = campaignField;
const bars = (dimension: string, metrics: string[]) =>
  asColumns(
    rows(
      conn,
      buildQuery(campaignSchema, {
        kind: 'barByDimension',
        dataset: campaignSchema.id,
        range: RANGE,
        dimension,
        metrics,
      }),
    ),
  );
const settings = (chart: NonNullable<NonNullable<Widget['visualizationSettings']>['chart']>, extra = {}) =>
  graphSettings({ id: 'w1', type: 'graph', visualizationSettings: { chart }, ...extra } as Widget, []);
const label = (value: Cell) => (value === null ? '(none)' : `#${String(value)}`);

test('the 12 largest values by the first metric, largest first, then Other last with the rest summed', () => {
  const model = barGraphModel({
    result: bars('campaign_name', ['sent']),
    metrics: [field('sent')],
    settings: settings({ chartType: 'bar' }),
    label,
  });
  // Written apart from the engine: each name's sends, the 12 largest (ties by name) and the rest together.
  const totals = rows(
    conn,
    `SELECT campaign_name AS name, SUM(sent)::DOUBLE AS sent FROM campaigns_fixture ` +
      `WHERE send_date BETWEEN DATE '${RANGE.start}' AND DATE '${RANGE.end}' GROUP BY 1`,
  ) as { name: string | null; sent: number }[];
  const top = totals
    .filter((row) => row.name !== null)
    .sort((a, b) => b.sent - a.sent || (a.name! < b.name! ? -1 : 1))
    .slice(0, BAR_TOP_N);
  const rest = totals.filter((row) => !top.includes(row)).reduce((sum, row) => sum + row.sent, 0);
  expect(model.categories).toEqual([...top.map((row) => `#${row.name}`), OTHER_LABEL]);
  expect(model.series).toHaveLength(1);
  expect(model.series[0].values).toEqual([...top.map((row) => row.sent), rest]);
  expect(model.percentAxis).toBe(false);
});

test('Other stays last even when it is the largest bar', () => {
  const result: ResultColumns = {
    columns: ['value', 'other', 'sent'],
    rowCount: 3,
    data: { value: [null, 'NL', 'GB'], other: [true, false, false], sent: [900, 20, 10] },
  };
  const model = barGraphModel({ result, metrics: [field('sent')], settings: settings({ chartType: 'bar' }), label });
  expect(model.categories).toEqual(['#NL', '#GB', OTHER_LABEL]);
  expect(model.series[0].values).toEqual([20, 10, 900]);
});

test('a dimension with fewer than 12 values has no Other bar, and labels come from the label function', () => {
  const model = barGraphModel({
    result: bars('country', ['sent']),
    metrics: [field('sent')],
    settings: settings({ chartType: 'bar' }),
    label: (value) => formatField(value, field('country'), 'en_GB'),
  });
  expect(model.categories).toHaveLength(3);
  expect(model.categories).not.toContain(OTHER_LABEL);
  expect(model.categories.every((name) => name.length > 0)).toBe(true);
});

test('a percentage metric gets a percentage axis up to 101%, or a fitted one when the widget scales it', () => {
  const percent = { ...field('open_rate'), format: 'percent' as const };
  const result = bars('campaign_name', ['open_rate']);
  const fixed = barFigure(
    barGraphModel({ result, metrics: [percent], settings: settings({ chartType: 'bar' }), label }),
    { locale: 'nl_NL' },
  );
  expect(fixed.layout.yaxis).toMatchObject({ tickformat: '.0%', range: [0, PERCENT_AXIS_MAX], rangemode: 'tozero' });
  expect(fixed.layout.xaxis.type).toBe('category');
  expect(fixed.layout.height).toBe(300);
  // The hover text uses the workspace locale: Dutch decimals take a comma.
  expect(fixed.data[0].hovertext[0]).toMatch(/^open_rate: \d+,\d+\s?%$/);
  const auto = barFigure(
    barGraphModel({
      result,
      metrics: [percent],
      settings: settings({ chartType: 'bar' }, { maxYAxisScale: 'auto' }),
      label,
    }),
    { locale: 'nl_NL' },
  );
  expect(auto.layout.yaxis).toMatchObject({ tickformat: '.0%' });
  expect(auto.layout.yaxis.range).toBeUndefined();
});

test('bars are 20 px wide up to 30 bars, plotly sizes them beyond', () => {
  const model = (n: number) =>
    barGraphModel({
      result: {
        columns: ['value', 'other', 'sent'],
        rowCount: n,
        data: {
          value: Array.from({ length: n }, (_, i) => `v${i}`),
          other: Array.from({ length: n }, () => false),
          sent: Array.from({ length: n }, (_, i) => n - i),
        },
      },
      metrics: [field('sent')],
      settings: settings({ chartType: 'bar' }),
      label,
    });
  // Wide enough that 30 bars of 20 px stay under 80% of their slot.
  const chartWidth = 1200;
  const plotWidth = chartWidth - PLOT_MARGIN.l - PLOT_MARGIN.r;
  // In category units a bar spans width × (plot width / bars) px.
  expect(barCategoryWidth(model(13), chartWidth)! * (plotWidth / 13)).toBeCloseTo(BAR_WIDTH_PX, 9);
  expect(barCategoryWidth(model(30), chartWidth)! * (plotWidth / 30)).toBeCloseTo(BAR_WIDTH_PX, 9);
  expect(barCategoryWidth(model(31), chartWidth)).toBeUndefined();
  expect(barFigure(model(31), { locale: 'en_US', width: chartWidth }).data[0].width).toBeUndefined();
  expect(barCategoryWidth(model(13), undefined)).toBeUndefined();
});
