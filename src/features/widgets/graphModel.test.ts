/** @jest-environment ./test/nodeEnvironment.js */
import { type DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { type Field } from '../../contracts/datasets';
import { type Widget } from '../../contracts/reports';
import { type DateRanges, type DayRange, addDays, compareRange } from '../../engine/dates';
import { type QueryInput, buildQuery } from '../../engine/queries';
import { campaignColumns, campaignRows, campaignSchema, tableSql } from '../../engine/testing/fixtures';
import { openNodeDuckdb, rows } from '../../engine/testing/nodeDuckdb';
import {
  PERCENT_AXIS_MAX,
  barWidth,
  bucketAxis,
  dimensionGraphModel,
  graphGranularity,
  graphSettings,
  metricsGraphModel,
  plotFigure,
  tooltipRows,
} from './graphModel';
import { asColumns, campaignField } from './testing/resultColumns';

let conn: DuckDBConnection;

beforeAll(async () => {
  conn = await openNodeDuckdb();
  for (const sql of tableSql('campaigns_fixture', campaignColumns, campaignRows())) conn.query(sql);
}, START_TIMEOUT_MS);

const field = campaignField;
/** The engine's answer, as the widget receives it from engineApi. */
const engine = (input: QueryInput) => asColumns(rows(conn, buildQuery(campaignSchema, input)));
/** A hand-written query over the same table: one value per day (or bucket expression) keyed by its date text. */
const reference = (sql: string) =>
  new Map(rows(conn, sql).map((row) => [String(row.bucket), row as Record<string, number | string | null>]));

const widget = (
  chart: NonNullable<NonNullable<Widget['visualizationSettings']>['chart']>,
  extra: Partial<Widget> = {},
) => ({ id: 'w1', type: 'graph', visualizationSettings: { chart }, ...extra }) as Widget;
const ranges = (main: DayRange, compare?: DayRange): DateRanges => ({
  main: { ...main, preset: 'custom' },
  compare: compare && { ...compare, preset: 'preceding_period' },
});

describe('granularity table of spec 2 §9', () => {
  const days = (n: number): DayRange => ({ start: '2024-01-01', end: addDays('2024-01-01', n - 1) });
  const sum = [field('sent')];
  const rate = [field('sent'), field('open_rate')];
  test.each([
    ['line', undefined, sum, 70, 'day'],
    ['line', undefined, sum, 71, 'week'],
    ['line', undefined, sum, 365, 'week'],
    ['line', undefined, sum, 366, 'month'],
    ['bar', 'grouped', sum, 70, 'day'],
    ['bar', 'grouped', sum, 71, 'week'],
    ['bar', 'grouped', sum, 90, 'week'],
    ['bar', 'grouped', sum, 91, 'month'],
    ['bar', 'stacked', sum, 70, 'day'],
    ['bar', 'stacked', sum, 91, 'week'],
    ['bar', 'stacked', sum, 365, 'week'],
    ['bar', 'stacked', sum, 366, 'month'],
    // Stacked bars of a weighted average are drawn grouped, so they follow the grouped row.
    ['bar', 'stacked', rate, 91, 'month'],
  ] as const)('%s %s, %i metric(s) over %i days: %s', (chartType, groupMode, metrics, n, expected) => {
    const settings = graphSettings(widget({ chartType, groupMode }), [...metrics]);
    expect(graphGranularity(settings, days(n))).toBe(expected);
  });

  test('an explicit granularity is kept whatever the range', () => {
    expect(graphGranularity(graphSettings(widget({ granularity: 'quarter' }), sum), days(10))).toBe('quarter');
  });

  test('stacked bars become grouped when any metric is a weighted average', () => {
    expect(graphSettings(widget({ chartType: 'bar', groupMode: 'stacked' }), sum).groupMode).toBe('stacked');
    expect(graphSettings(widget({ chartType: 'bar', groupMode: 'stacked' }), rate).groupMode).toBe('grouped');
  });

  test('defaults: a line chart, auto granularity, percentage axis capped', () => {
    expect(graphSettings({ id: 'w', type: 'graph' }, sum)).toEqual({
      chartType: 'line',
      groupMode: 'grouped',
      granularity: 'auto',
      autoPercentAxis: false,
      autoScaleYAxis: true,
    });
  });
});

describe('bucket axis', () => {
  test('weeks cover the range from the week holding its first day, with the preferred first weekday', () => {
    expect(bucketAxis({ start: '2024-02-01', end: '2024-02-29' }, 'week', 1)).toEqual([
      '2024-01-29',
      '2024-02-05',
      '2024-02-12',
      '2024-02-19',
      '2024-02-26',
    ]);
    expect(bucketAxis({ start: '2024-01-15', end: '2024-07-01' }, 'quarter', 1)).toEqual([
      '2024-01-01',
      '2024-04-01',
      '2024-07-01',
    ]);
  });
});

describe('metrics graph against hand-written SQL', () => {
  const main = { start: '2024-02-01', end: '2024-02-29' };
  const compare = compareRange(main, 'preceding_period')!;
  const daily = (range: DayRange) =>
    reference(
      `SELECT strftime(send_date, '%Y-%m-%d') AS bucket, SUM(sent)::DOUBLE AS sent, SUM(open) / SUM(delivered) AS open_rate ` +
        `FROM campaigns_fixture WHERE send_date BETWEEN DATE '${range.start}' AND DATE '${range.end}' GROUP BY 1`,
    );

  test('per day, with the preceding period shifted onto the main days', () => {
    const metrics = [field('sent'), field('open_rate')];
    const settings = graphSettings(widget({}), metrics);
    const result = engine({
      kind: 'timeSeries',
      dataset: 'campaigns_fixture',
      range: main,
      compare,
      metrics: ['sent', 'open_rate'],
    });
    const model = metricsGraphModel({ result, metrics, settings, ranges: ranges(main, compare), weekStart: 1 });
    expect(model.granularity).toBe('day');
    expect(model.axis).toHaveLength(29);
    expect(model.series.map((s) => [s.name, s.period])).toEqual([
      ['sent', 'main'],
      ['open_rate', 'main'],
      ['sent (comparison)', 'compare'],
      ['open_rate (comparison)', 'compare'],
    ]);
    const [sent, openRate, sentBefore, openRateBefore] = model.series;
    const now = daily(main);
    const before = daily(compare);
    model.axis.forEach((day, i) => {
      expect(sent.values[i]).toBe(now.get(day)?.sent ?? 0);
      expect(openRate.values[i]).toBeCloseTo(Number(now.get(day)?.open_rate), 12);
      const earlier = addDays(compare.start, i);
      expect(sentBefore.buckets[i]).toBe(earlier);
      expect(sentBefore.values[i]).toBe(before.get(earlier)?.sent ?? 0);
      expect(openRateBefore.values[i]).toBeCloseTo(Number(before.get(earlier)?.open_rate), 12);
    });
  });

  test('weeks starting on Sunday, stacked bars', () => {
    const metrics = [field('sent'), field('open')];
    const settings = graphSettings(widget({ chartType: 'bar', groupMode: 'stacked', granularity: 'week' }), metrics);
    const result = engine({
      kind: 'timeSeries',
      dataset: 'campaigns_fixture',
      range: main,
      metrics: ['sent', 'open'],
      granularity: 'week',
      chart: 'bar_stacked',
      weekStart: 0,
    });
    const model = metricsGraphModel({ result, metrics, settings, ranges: ranges(main), weekStart: 0 });
    const weeks = reference(
      `SELECT strftime(send_date - CAST(dayofweek(send_date) AS INTEGER), '%Y-%m-%d') AS bucket, ` +
        `SUM(sent)::DOUBLE AS sent, SUM(open)::DOUBLE AS open FROM campaigns_fixture ` +
        `WHERE send_date BETWEEN DATE '2024-02-01' AND DATE '2024-02-29' GROUP BY 1`,
    );
    expect(model.axis).toEqual([...weeks.keys()].sort());
    model.axis.forEach((week, i) => {
      expect(model.series[0].values[i]).toBe(weeks.get(week)!.sent);
      expect(model.series[1].values[i]).toBe(weeks.get(week)!.open);
    });
    const figure = plotFigure(model, { locale: 'en_US' });
    expect(figure.layout.barmode).toBe('stack');
    expect(figure.data.map((trace) => trace.type)).toEqual(['bar', 'bar']);
  });

  test('tooltips list the 10 largest values of the hovered day, largest first', () => {
    const ids = ['sent', 'delivered', 'open', 'clicks_unique', 'revenue', 'campaigns'];
    const metrics = ids.map(field);
    const result = engine({ kind: 'timeSeries', dataset: 'campaigns_fixture', range: main, compare, metrics: ids });
    const model = metricsGraphModel({
      result,
      metrics,
      settings: graphSettings(widget({}), metrics),
      ranges: ranges(main, compare),
      weekStart: 1,
    });
    expect(model.series).toHaveLength(12);
    const index = 9;
    const day = (range: DayRange) =>
      rows(
        conn,
        `SELECT SUM(sent)::DOUBLE AS sent, SUM(delivered)::DOUBLE AS delivered, SUM(open)::DOUBLE AS open, ` +
          `SUM(clicks_unique)::DOUBLE AS clicks_unique, SUM(revenue) AS revenue, ` +
          `COUNT(DISTINCT campaign_id)::DOUBLE AS campaigns FROM campaigns_fixture WHERE send_date = DATE '${addDays(range.start, index)}'`,
      )[0];
    const all = [
      ...Object.entries(day(main)).map(([id, value]) => ({ name: id, value: Number(value) })),
      ...Object.entries(day(compare)).map(([id, value]) => ({ name: `${id} (comparison)`, value: Number(value) })),
    ].sort((a, b) => b.value - a.value);
    const shown = tooltipRows(model, index);
    expect(shown).toHaveLength(10);
    expect(shown.map((row) => row.name)).toEqual(all.slice(0, 10).map((row) => row.name));
    shown.forEach((row, i) => expect(row.value).toBeCloseTo(all[i].value, 9));
    expect(shown.find((row) => row.dashed)?.bucket).toBe(addDays(compare.start, index));
  });
});

describe('one metric per dimension', () => {
  test('the 10 largest campaigns by sent are the series, each day equal to a hand-written query', () => {
    const range = { start: '2024-01-01', end: '2024-01-21' };
    const metric = field('sent');
    const result = engine({
      kind: 'timeSeriesByDimension',
      dataset: 'campaigns_fixture',
      range,
      metric: 'sent',
      dimension: 'campaign_name',
    });
    const model = dimensionGraphModel({
      result,
      metric,
      label: (value) => String(value),
      settings: graphSettings(widget({}), [metric]),
      ranges: ranges(range),
      weekStart: 1,
    });
    const where = `send_date BETWEEN DATE '${range.start}' AND DATE '${range.end}' AND campaign_name IS NOT NULL`;
    const top = rows(
      conn,
      `SELECT campaign_name FROM campaigns_fixture WHERE ${where} GROUP BY 1 ORDER BY SUM(sent) DESC, 1 LIMIT 10`,
    ).map((row) => row.campaign_name as string);
    expect(model.series.map((s) => s.name)).toEqual(top);
    const cells = rows(
      conn,
      `SELECT campaign_name, strftime(send_date, '%Y-%m-%d') AS day, SUM(sent)::DOUBLE AS sent FROM campaigns_fixture WHERE ${where} GROUP BY 1, 2`,
    );
    for (const series of model.series) {
      model.axis.forEach((day, i) => {
        const cell = cells.find((row) => row.campaign_name === series.name && row.day === day);
        expect(series.values[i]).toBe(cell ? cell.sent : 0);
      });
    }
  });

  test('a result without the metric has no series and names the metric as missing', () => {
    const range = { start: '2024-01-01', end: '2024-01-07' };
    const model = dimensionGraphModel({
      result: { columns: ['period', 'bucket', 'value'], rowCount: 0, data: { period: [], bucket: [], value: [] } },
      metric: field('sent'),
      label: String,
      settings: graphSettings(widget({}), [field('sent')]),
      ranges: ranges(range),
      weekStart: 1,
    });
    expect(model.series).toEqual([]);
    expect(model.missing).toEqual(['sent']);
  });
});

describe('limits and axes', () => {
  const range = { start: '2024-01-01', end: '2024-01-03' };
  const many = Array.from({ length: 12 }, (_, i): Field => ({ ...field('sent'), id: `m${i}`, name: `M${i}` }));
  const manyResult = (ids: string[]) =>
    asColumns(
      ['2024-01-01', '2024-01-02', '2024-01-03'].map((bucket, day) => ({
        period: 'main',
        bucket,
        ...Object.fromEntries(ids.map((id, i) => [id, (i + 1) * (day + 1)])),
      })),
    );

  test('at most 10 series; a metric missing from the result is left out and reported', () => {
    const ids = many.map((m) => m.id).filter((id) => id !== 'm3');
    const model = metricsGraphModel({
      result: manyResult(ids),
      metrics: many,
      settings: graphSettings(widget({}), many),
      ranges: ranges(range),
      weekStart: 1,
    });
    expect(model.missing).toEqual(['m3']);
    expect(model.series.map((s) => s.id)).toEqual(['m0', 'm1', 'm2', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10']);
  });

  const rate: Field = { ...field('open_rate'), format: 'percent' };
  const rateModel = (extra: Partial<Widget>) =>
    metricsGraphModel({
      result: asColumns([{ period: 'main', bucket: '2024-01-02', open_rate: 0.42 }]),
      metrics: [rate],
      settings: graphSettings(widget({}, extra), [rate]),
      ranges: ranges(range),
      weekStart: 1,
    });

  test('a percentage axis ends at 101% unless the widget scales it automatically; SVG traces only', () => {
    const fixed = plotFigure(rateModel({}), { locale: 'nl_NL' });
    expect(fixed.layout.yaxis).toMatchObject({ tickformat: '.0%', range: [0, PERCENT_AXIS_MAX] });
    expect(fixed.layout.separators).toBe(',.');
    const auto = plotFigure(rateModel({ maxYAxisScale: 'auto' }), { locale: 'en_US' });
    expect(auto.layout.yaxis.range).toBeUndefined();
    expect(auto.layout.yaxis.tickformat).toBe('.0%');
    expect(auto.layout.separators).toBe('.,');
    // A ratio has no value on a day without rows: a gap, not a 0%.
    expect(rateModel({}).series[0].values).toEqual([null, 0.42, null]);
    for (const trace of fixed.data) expect(['scatter', 'bar']).toContain(trace.type);
  });

  test('comparisons are dashed lines, also on bar charts', () => {
    const main = { start: '2024-01-08', end: '2024-01-10' };
    const model = metricsGraphModel({
      result: asColumns([
        { period: 'main', bucket: '2024-01-08', sent: 5 },
        { period: 'compare', bucket: '2024-01-05', sent: 7 },
      ]),
      metrics: [field('sent')],
      settings: graphSettings(widget({ chartType: 'bar' }), [field('sent')]),
      ranges: ranges(main, compareRange(main, 'preceding_period')),
      weekStart: 1,
    });
    const figure = plotFigure(model, { locale: 'en_GB' });
    expect(figure.data.map((trace) => [trace.type, trace.line?.dash])).toEqual([
      ['bar', undefined],
      ['scatter', 'dash'],
    ]);
    expect(figure.data[1].y).toEqual([7, 0, 0]);
    expect(figure.layout.barmode).toBe('group');
  });

  test('bars are 20 px wide up to 30 of them, side-by-side groups keep plotly widths', () => {
    const days = (n: number) => ({ start: '2024-01-01', end: addDays('2024-01-01', n - 1) });
    const barModel = (n: number, groupMode: 'stacked' | 'grouped', metrics: Field[]) =>
      metricsGraphModel({
        result: { columns: ['period', 'bucket', ...metrics.map((m) => m.id)], rowCount: 0, data: {} },
        metrics,
        settings: graphSettings(widget({ chartType: 'bar', groupMode, granularity: 'day' }), metrics),
        ranges: ranges(days(n)),
        weekStart: 1,
      });
    const one = [field('sent')];
    const two = [field('sent'), field('open')];
    // 572 px less the 72 px of margins leave 50 px a day: a bar is 20/50 of a day.
    expect(barWidth(barModel(10, 'grouped', one), 572)).toBeCloseTo(0.4 * 86_400_000, 3);
    expect(barWidth(barModel(10, 'stacked', two), 572)).toBeCloseTo(0.4 * 86_400_000, 3);
    expect(barWidth(barModel(30, 'grouped', one), 572)).toBeDefined();
    expect(barWidth(barModel(31, 'grouped', one), 572)).toBeUndefined();
    expect(barWidth(barModel(10, 'grouped', two), 572)).toBeUndefined();
    expect(barWidth(barModel(10, 'grouped', one), undefined)).toBeUndefined();
    const figure = plotFigure(barModel(10, 'grouped', one), { locale: 'en_US', width: 572 });
    expect(figure.data[0].width).toBeCloseTo(0.4 * 86_400_000, 3);
    expect(figure.layout.width).toBe(572);
  });
});
