import { type Locale } from '../../contracts/common';
import { type Field } from '../../contracts/datasets';
import { type Widget } from '../../contracts/reports';
import {
  type ChartKind,
  type DateRanges,
  type DayRange,
  type Granularity,
  type GranularitySetting,
  type WeekStart,
  addDays,
  addMonths,
  bucketStart,
  resolveGranularity,
} from '../../engine/dates';
import { isAdditive } from '../../engine/fields';
import { numberSeparators } from '../../engine/format';
import { SERIES_TOP_N } from '../../engine/queries';
import { type Cell, type ResultColumns } from '../../store/engineApi';
import { seriesColor } from '../charts/palettes';

/** Chart sizes and limits of spec 2 §9. */
export const GRAPH_HEIGHT = 300;
export const MAX_SERIES = SERIES_TOP_N;
export const TOOLTIP_TOP_N = 10;
/** The top of a percentage axis unless the widget scales it automatically: a 100% line stays in view. */
export const PERCENT_AXIS_MAX = 1.01;
/** Bars are 20 px wide unless there are more than 30 of them in a row. */
export const BAR_WIDTH_PX = 20;
export const BAR_WIDTH_MAX_BARS = 30;

export interface GraphSettings {
  chartType: 'line' | 'bar';
  groupMode: 'stacked' | 'grouped';
  granularity: GranularitySetting;
  /** maxYAxisScale 'auto': a percentage axis fits its data instead of ending at 101%. */
  autoPercentAxis: boolean;
  /** chart.autoScaleYAxis: false keeps zero on the axis. @default true */
  autoScaleYAxis: boolean;
}

export const isWeightedAverage = (field: Field) => field.agg?.type === 'weighted_avg';

/**
 * A graph widget's chart settings with their defaults. Stacking ratios adds up rates that cannot be
 * added, so stacked bars turn grouped as soon as any metric is a weighted average (spec 2 §4).
 */
export function graphSettings(widget: Widget, metrics: Field[]): GraphSettings {
  const chart = widget.visualizationSettings?.chart;
  const wantsStacked = chart?.groupMode === 'stacked';
  return {
    chartType: chart?.chartType ?? 'line',
    groupMode: wantsStacked && !metrics.some(isWeightedAverage) ? 'stacked' : 'grouped',
    granularity: chart?.granularity ?? 'auto',
    autoPercentAxis: widget.maxYAxisScale === 'auto',
    autoScaleYAxis: chart?.autoScaleYAxis ?? true,
  };
}

/** The kind of chart the auto granularity table distinguishes. */
export function chartKind(settings: Pick<GraphSettings, 'chartType' | 'groupMode'>): ChartKind {
  if (settings.chartType === 'line') return 'line';
  return settings.groupMode === 'stacked' ? 'bar_stacked' : 'bar_grouped';
}

export function graphGranularity(settings: GraphSettings, range: DayRange): Granularity {
  return resolveGranularity(settings.granularity, range, chartKind(settings));
}

/** The first day of every bucket touching `range`, in order: the chart's x axis, gaps included. */
export function bucketAxis(range: DayRange, granularity: Granularity, weekStart: WeekStart): string[] {
  const axis: string[] = [];
  for (let bucket = bucketStart(range.start, granularity, weekStart); bucket <= range.end;) {
    axis.push(bucket);
    switch (granularity) {
      case 'day':
        bucket = addDays(bucket, 1);
        break;
      case 'week':
        bucket = addDays(bucket, 7);
        break;
      case 'month':
        bucket = addMonths(bucket, 1);
        break;
      case 'quarter':
        bucket = addMonths(bucket, 3);
        break;
    }
  }
  return axis;
}

export interface GraphSeries {
  id: string;
  name: string;
  metric: Field;
  period: 'main' | 'compare';
  /** One value per bucket of the main axis; null where the metric has no value. */
  values: (number | null)[];
  /** The bucket each value belongs to: the main axis, or for a comparison its own (earlier) days. */
  buckets: string[];
  color: string;
  /** A comparison shares its main series' legend entry: toggling one toggles both. */
  group: string;
}

export interface GraphModel {
  /** The main range's buckets: the x axis every series is drawn on. */
  axis: string[];
  granularity: Granularity;
  series: GraphSeries[];
  settings: GraphSettings;
  /** Every metric on the chart is a percentage: the y axis shows percentages. */
  percentAxis: boolean;
  /** Metrics whose data the result lacks: their series are left out (and reported by the widget). */
  missing: string[];
}

export interface GraphInput {
  result: ResultColumns;
  settings: GraphSettings;
  ranges: DateRanges;
  weekStart: WeekStart;
}

const toNumber = (cell: Cell | undefined): number | null =>
  typeof cell === 'number' && Number.isFinite(cell) ? cell : null;

/** The values of rows keyed by bucket, laid out on an axis; sums are 0 on a day without rows, ratios missing. */
function valuesOnAxis(byBucket: Map<string, number | null>, axis: string[], metric: Field): (number | null)[] {
  const empty = isAdditive(metric) ? 0 : null;
  return axis.map((bucket) => (byBucket.has(bucket) ? (byBucket.get(bucket) ?? null) : empty));
}

function column(result: ResultColumns, name: string): Cell[] {
  return result.data[name] ?? [];
}

/**
 * A graph of metrics over time (a timeSeries result: period, bucket and a column per metric): a series per
 * metric, at most 10, and with a comparison range a dashed series per metric, shifted onto the main
 * axis bucket by bucket.
 */
export function metricsGraphModel({ metrics, ...input }: GraphInput & { metrics: Field[] }): GraphModel {
  const { result, settings, ranges, weekStart } = input;
  const granularity = graphGranularity(settings, ranges.main);
  const axis = bucketAxis(ranges.main, granularity, weekStart);
  const compareAxis = ranges.compare ? bucketAxis(ranges.compare, granularity, weekStart).slice(0, axis.length) : [];
  const periods = column(result, 'period');
  const buckets = column(result, 'bucket');
  const missing = metrics.filter((metric) => !result.columns.includes(metric.id)).map((metric) => metric.id);
  const shown = metrics.filter((metric) => !missing.includes(metric.id)).slice(0, MAX_SERIES);

  const byBucket = (metric: Field, period: string) => {
    const values = new Map<string, number | null>();
    const cells = column(result, metric.id);
    for (let row = 0; row < result.rowCount; row++) {
      if (periods[row] === period) values.set(String(buckets[row]), toNumber(cells[row]));
    }
    return values;
  };

  const series: GraphSeries[] = [];
  shown.forEach((metric, index) => {
    series.push({
      id: metric.id,
      name: metric.name,
      metric,
      period: 'main',
      values: valuesOnAxis(byBucket(metric, 'main'), axis, metric),
      buckets: axis,
      color: seriesColor(index),
      group: metric.id,
    });
  });
  if (ranges.compare) {
    shown.forEach((metric, index) => {
      const values = valuesOnAxis(byBucket(metric, 'compare'), compareAxis, metric);
      series.push({
        id: `${metric.id}__compare`,
        name: `${metric.name} (comparison)`,
        metric,
        period: 'compare',
        values: axis.map((_, i) => values[i] ?? null),
        buckets: compareAxis,
        color: seriesColor(index),
        group: metric.id,
      });
    });
  }
  return {
    axis,
    granularity,
    series,
    settings,
    percentAxis: shown.length > 0 && shown.every((metric) => metric.format === 'percent'),
    missing,
  };
}

/**
 * A graph of one metric split by a dimension (a timeSeriesByDimension result: period, bucket, value and the
 * metric's column): a series per dimension value, the 10 largest over the main range first.
 */
export function dimensionGraphModel({
  metric,
  label,
  ...input
}: GraphInput & { metric: Field; label: (value: Cell) => string }): GraphModel {
  const { result, settings, ranges, weekStart } = input;
  const granularity = graphGranularity(settings, ranges.main);
  const axis = bucketAxis(ranges.main, granularity, weekStart);
  if (!result.columns.includes(metric.id)) {
    return { axis, granularity, series: [], settings, percentAxis: false, missing: [metric.id] };
  }
  const periods = column(result, 'period');
  const buckets = column(result, 'bucket');
  const values = column(result, 'value');
  const cells = column(result, metric.id);
  const groups = new Map<string, { value: Cell; byBucket: Map<string, number | null>; total: number }>();
  for (let row = 0; row < result.rowCount; row++) {
    if (periods[row] !== 'main' || values[row] === null) continue;
    const key = String(values[row]);
    const group = groups.get(key) ?? { value: values[row], byBucket: new Map(), total: 0 };
    const cell = toNumber(cells[row]);
    group.byBucket.set(String(buckets[row]), cell);
    group.total += cell ?? 0;
    groups.set(key, group);
  }
  const ranked = [...groups.entries()]
    .sort(([keyA, a], [keyB, b]) => b.total - a.total || keyA.localeCompare(keyB))
    .slice(0, MAX_SERIES);
  return {
    axis,
    granularity,
    series: ranked.map(([key, group], index) => ({
      id: key,
      name: label(group.value),
      metric,
      period: 'main',
      values: valuesOnAxis(group.byBucket, axis, metric),
      buckets: axis,
      color: seriesColor(index),
      group: key,
    })),
    settings,
    percentAxis: metric.format === 'percent',
    missing: [],
  };
}

export interface TooltipRow {
  name: string;
  metric: Field;
  /** The bucket the value belongs to (a comparison's own day). */
  bucket: string;
  value: number;
  color: string;
  dashed: boolean;
}

/** What the tooltip over a bucket lists: the 10 largest values at that point, largest first. */
export function tooltipRows(model: GraphModel, index: number): TooltipRow[] {
  return model.series
    .flatMap((series) => {
      const value = series.values[index];
      if (value === null || value === undefined) return [];
      return [
        {
          name: series.name,
          metric: series.metric,
          bucket: series.buckets[index],
          value,
          color: series.color,
          dashed: series.period === 'compare',
        },
      ];
    })
    .sort((a, b) => b.value - a.value)
    .slice(0, TOOLTIP_TOP_N);
}

/** The parts of plotly's trace and layout objects the graphs set (react-plotly.js types them as unknown). */
export interface PlotTrace {
  type: 'scatter' | 'bar';
  mode?: 'lines' | 'lines+markers';
  name: string;
  x: string[];
  y: (number | null)[];
  line?: { color: string; width: number; dash?: 'dash' };
  marker?: { color: string; size?: number };
  /** A bar's width in x axis units (milliseconds on a date axis). */
  width?: number;
  /** Hover events still fire; the widget draws its own top-10 tooltip. */
  hoverinfo: 'none';
  legendgroup: string;
  connectgaps?: boolean;
}

export interface PlotLayout {
  height: number;
  width?: number;
  autosize: true;
  margin: { l: number; r: number; t: number; b: number };
  barmode?: 'stack' | 'group';
  hovermode: 'x';
  showlegend: boolean;
  legend: { orientation: 'h'; y: number };
  separators: string;
  paper_bgcolor: string;
  plot_bgcolor: string;
  font: { color: string; size: number };
  xaxis: { type: 'date'; tickformat: string; fixedrange: true; showgrid: false };
  yaxis: {
    tickformat?: string;
    range?: [number, number];
    autorange?: boolean;
    rangemode: 'tozero' | 'normal';
    fixedrange: true;
    ticklabeloverflow: 'allow';
    gridcolor: string;
  };
}

export const PLOT_MARGIN = { l: 56, r: 16, t: 8, b: 40 };
const DAY_MS = 86_400_000;
const bucketDays: Record<Granularity, number> = { day: 1, week: 7, month: 30.44, quarter: 91.31 };

/**
 * The width of each bar in milliseconds of the date axis, so it measures 20 px on a chart `width` px wide;
 * undefined (plotly's own) beyond 30 buckets, for grouped bars of several series (plotly places them side
 * by side), or before the chart's width is known. A bar never takes more than 80% of its bucket.
 */
export function barWidth(model: GraphModel, width: number | undefined): number | undefined {
  const buckets = model.axis.length;
  if (!width || buckets === 0 || buckets > BAR_WIDTH_MAX_BARS) return undefined;
  const mainSeries = model.series.filter((series) => series.period === 'main').length;
  if (model.settings.groupMode === 'grouped' && mainSeries > 1) return undefined;
  const pxPerBucket = Math.max(1, width - PLOT_MARGIN.l - PLOT_MARGIN.r) / buckets;
  return bucketDays[model.granularity] * DAY_MS * Math.min(BAR_WIDTH_PX / pxPerBucket, 0.8);
}

const tickFormats: Record<Granularity, string> = {
  day: '%e %b',
  week: '%e %b',
  month: '%b %Y',
  quarter: 'Q%q %Y',
};

export interface PlotOptions {
  locale: Locale;
  /** @default false */
  dark?: boolean;
  /** @default GRAPH_HEIGHT */
  height?: number;
  /** The chart's width in px once measured; until then plotly sizes it to its container. */
  width?: number;
}

/** What a chart's frame and y axis depend on, shared by the time graphs and the bars by dimension. */
interface FrameModel {
  settings: GraphSettings;
  percentAxis: boolean;
  series: unknown[];
}

/**
 * The layout of every graph but its x axis: size, colours, the locale's separators and a percentage axis up
 * to 101% unless the widget scales it automatically. Bars always start at zero.
 */
export function frameLayout(
  model: FrameModel,
  { locale, dark = false, height = GRAPH_HEIGHT, width }: PlotOptions,
  bars: boolean,
): Omit<PlotLayout, 'xaxis'> {
  const percent = model.percentAxis;
  const fixedPercent = percent && !model.settings.autoPercentAxis;
  return {
    height,
    ...(width ? { width } : {}),
    autosize: true,
    margin: PLOT_MARGIN,
    ...(bars ? { barmode: model.settings.groupMode === 'stacked' ? 'stack' : 'group' } : {}),
    hovermode: 'x',
    showlegend: model.series.length > 1,
    legend: { orientation: 'h', y: -0.2 },
    separators: numberSeparators(locale),
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: 'rgba(0,0,0,0)',
    font: { color: dark ? '#d3d8de' : '#404854', size: 11 },
    yaxis: {
      ...(percent ? { tickformat: '.0%' } : {}),
      ...(fixedPercent ? { range: [0, PERCENT_AXIS_MAX] as [number, number], autorange: false } : {}),
      rangemode: bars || !model.settings.autoScaleYAxis ? 'tozero' : 'normal',
      fixedrange: true,
      // plotly's default ('hide past div') measures each value label against the chart's edges on every draw, the
      // page laid out again for each one. These labels cannot cross an edge: short numbers (2k, 4B, 50%) ending at
      // the 56 px left margin, the top one centred on a tick at least 8 px below the top. In 504 charts of every
      // range, date format and width it hid none, and skipping it drew them in 10 % less time (bench/README.md).
      ticklabeloverflow: 'allow',
      gridcolor: dark ? '#383e47' : '#e5e8eb',
    },
  };
}

/**
 * The plotly figure of a graph model: SVG traces only (scatter and bar, never WebGL), comparisons as
 * dashed lines, a percentage axis up to 101% unless the widget scales it automatically.
 */
export function plotFigure(
  model: GraphModel,
  { locale, dark = false, height = GRAPH_HEIGHT, width }: PlotOptions,
): { data: PlotTrace[]; layout: PlotLayout } {
  const bars = model.settings.chartType === 'bar';
  const barWidthMs = bars ? barWidth(model, width) : undefined;
  const data = model.series.map((series): PlotTrace => {
    const common = {
      name: series.name,
      x: model.axis,
      y: series.values,
      hoverinfo: 'none' as const,
      legendgroup: series.group,
    };
    if (series.period === 'compare') {
      return {
        ...common,
        type: 'scatter',
        mode: 'lines',
        line: { color: series.color, width: 1.5, dash: 'dash' },
        connectgaps: true,
      } as const;
    }
    if (bars) {
      return {
        ...common,
        type: 'bar',
        marker: { color: series.color },
        ...(barWidthMs ? { width: barWidthMs } : {}),
      } as const;
    }
    return {
      ...common,
      type: 'scatter',
      mode: model.axis.length > 60 ? 'lines' : 'lines+markers',
      line: { color: series.color, width: 2 },
      marker: { color: series.color, size: 4 },
      connectgaps: true,
    } as const;
  });
  return {
    data,
    layout: {
      ...frameLayout(model, { locale, dark, height, width }, bars),
      xaxis: { type: 'date', tickformat: tickFormats[model.granularity], fixedrange: true, showgrid: false },
    },
  };
}

/**
 * Two small charts of the graph widget's kinds (lines with a dashed comparison, then grouped bars), for plotly's
 * warm-up (`usePlotPreload` in charts/Plot.tsx): drawn once off-screen while the page waits for its numbers, they
 * take the first chart's one-off costs (compiling plotly's code, its styles and measurements) off the first real one.
 */
export function warmUpFigures(locale: Locale, dark: boolean): { data: PlotTrace[]; layout: PlotLayout }[] {
  const axis = Array.from({ length: 14 }, (_, day) => addDays('2026-01-01', day));
  const metric: Field = { id: 'sent', name: 'Sent', category: 'Email', format: 'number', type: 'metric', features: [] };
  const series = (period: 'main' | 'compare', scale: number): GraphSeries => ({
    id: `sent:${period}`,
    name: 'Sent',
    metric,
    period,
    values: axis.map((_, index) => (index % 5) * scale + 100),
    buckets: axis,
    color: seriesColor(0),
    group: 'sent',
  });
  const model = (chartType: GraphSettings['chartType']): GraphModel => ({
    axis,
    granularity: 'day',
    series: [series('main', 40), series('compare', 30)],
    settings: { chartType, groupMode: 'grouped', granularity: 'auto', autoPercentAxis: true, autoScaleYAxis: true },
    percentAxis: false,
    missing: [],
  });
  return [
    plotFigure(model('line'), { locale, dark, width: 400 }),
    plotFigure(model('bar'), { locale, dark, width: 400 }),
  ];
}
