import { type Locale } from '../../../contracts/common';
import { type Field } from '../../../contracts/datasets';
import { formatField } from '../../../engine/format';
import { type Cell, type ResultColumns } from '../../../store/engineApi';
import { seriesColor } from '../../charts/palettes';
import {
  BAR_WIDTH_MAX_BARS,
  BAR_WIDTH_PX,
  type GraphSettings,
  PLOT_MARGIN,
  type PlotLayout,
  type PlotOptions,
  frameLayout,
} from '../graphModel';

/** The bar that groups every dimension value outside the top 12 (spec 2 §9). */
export const OTHER_LABEL = 'Other';

export interface BarSeries {
  metric: Field;
  name: string;
  /** One value per category, null where the metric has none. */
  values: (number | null)[];
  color: string;
}

export interface BarModel {
  /** The bars' labels: the top dimension values by the first metric, largest first, then Other. */
  categories: string[];
  series: BarSeries[];
  settings: GraphSettings;
  percentAxis: boolean;
  /** Metrics whose data the result lacks: their bars are left out (and reported by the widget). */
  missing: string[];
}

interface BarInput {
  /** A barByDimension result: value, other and a column per metric. */
  result: ResultColumns;
  metrics: Field[];
  settings: GraphSettings;
  /** A dimension value as the viewer reads it (the workspace locale's dates and numbers). */
  label: (value: Cell) => string;
}

const toNumber = (cell: Cell | undefined): number | null =>
  typeof cell === 'number' && Number.isFinite(cell) ? cell : null;

/**
 * Bars by dimension value: one category per top value in the engine's order (largest first), and Other,
 * when the result has it, always last whatever its size.
 */
export function barGraphModel({ result, metrics, settings, label }: BarInput): BarModel {
  const values = result.data.value ?? [];
  const other = result.data.other ?? [];
  const rows = Array.from({ length: result.rowCount }, (_, row) => row);
  const ordered = [...rows.filter((row) => other[row] !== true), ...rows.filter((row) => other[row] === true)];
  const missing = metrics.filter((metric) => !result.columns.includes(metric.id)).map((metric) => metric.id);
  const shown = metrics.filter((metric) => !missing.includes(metric.id));
  return {
    categories: ordered.map((row) => (other[row] === true ? OTHER_LABEL : label(values[row]))),
    series: shown.map((metric, index) => ({
      metric,
      name: metric.name,
      values: ordered.map((row) => toNumber(result.data[metric.id]?.[row])),
      color: seriesColor(index),
    })),
    settings,
    percentAxis: shown.length > 0 && shown.every((metric) => metric.format === 'percent'),
    missing,
  };
}

/**
 * The width of each bar in category units so it measures 20 px on a chart `width` px wide; undefined
 * (plotly's own) beyond 30 bars, for grouped bars of several metrics, or before the width is known.
 */
export function barCategoryWidth(model: BarModel, width: number | undefined): number | undefined {
  const bars = model.categories.length;
  if (!width || bars === 0 || bars > BAR_WIDTH_MAX_BARS) return undefined;
  if (model.settings.groupMode === 'grouped' && model.series.length > 1) return undefined;
  const pxPerBar = Math.max(1, width - PLOT_MARGIN.l - PLOT_MARGIN.r) / bars;
  return Math.min(BAR_WIDTH_PX / pxPerBar, 0.8);
}

export interface BarTrace {
  type: 'bar';
  name: string;
  x: string[];
  y: (number | null)[];
  /** The values in the workspace locale, shown on hover. */
  hovertext: string[];
  hoverinfo: 'x+text';
  marker: { color: string };
  width?: number;
}

export type BarLayout = Omit<PlotLayout, 'xaxis'> & {
  xaxis: { type: 'category'; fixedrange: true; showgrid: false; automargin: true };
};

/** The plotly figure of bars by dimension: a category axis, values on hover formatted in the workspace locale. */
export function barFigure(model: BarModel, options: PlotOptions): { data: BarTrace[]; layout: BarLayout } {
  const width = barCategoryWidth(model, options.width);
  return {
    data: model.series.map((series) => ({
      type: 'bar',
      name: series.name,
      x: model.categories,
      y: series.values,
      hovertext: barTexts(series, options.locale),
      hoverinfo: 'x+text',
      marker: { color: series.color },
      ...(width ? { width } : {}),
    })),
    layout: {
      ...frameLayout(model, options, true),
      xaxis: { type: 'category', fixedrange: true, showgrid: false, automargin: true },
    },
  };
}

/** Each bar's value as the viewer reads it, after its metric's name. */
export function barTexts(series: BarSeries, locale: Locale): string[] {
  return series.values.map((value) => `${series.name}: ${formatField(value, series.metric, locale)}`);
}
