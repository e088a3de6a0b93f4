import { type Field } from '../../src/contracts/datasets';
import { addDays, addMonths, type Granularity } from '../../src/engine/dates';
import { seriesColor } from '../../src/features/charts/palettes';
import { Plotly } from '../../src/features/charts/plotly';
import { barFigure, type BarModel } from '../../src/features/widgets/graph/barModel';
import {
  type GraphModel,
  type GraphSeries,
  type GraphSettings,
  plotFigure,
} from '../../src/features/widgets/graphModel';

/**
 * Runs in headless Chromium: the graph widgets' figures, built by the app's own builders (graphModel.ts,
 * barModel.ts), drawn by the app's plotly bundle (charts/plotly.ts), one chart at a time, as drawn and with one part
 * of plotly's work left out, to tell what each part of a chart's drawing costs.
 */

/**
 * 'as drawn': the app's figure; the next two leave one part of plotly's work out of it, the last puts back the check
 * the value axis no longer makes (graphModel.ts).
 */
export const CHART_VARIANTS = [
  'as drawn',
  'without the legend',
  "without the date axis' label check",
  "with the value axis' label check",
] as const;
export type ChartVariant = (typeof CHART_VARIANTS)[number];

export interface ChartsInput {
  widths: number[];
  /** Timed rounds, each drawing every chart once per variant, after one untimed round. */
  rounds: number;
}

export interface VariantResult {
  /** Every chart of each round, in ms. */
  roundMs: number[];
  /** Tick labels plotly hid (display none) over one round's charts. */
  hiddenLabels: number;
  /** Whether every chart showed the same tick labels as drawn, and hid the same. */
  sameLabels: boolean;
}

export interface ChartsResult {
  charts: number;
  variants: Record<ChartVariant, VariantResult>;
}

interface Figure {
  data: unknown[];
  layout: Record<string, unknown>;
}

const SETTINGS: GraphSettings = {
  chartType: 'line',
  groupMode: 'grouped',
  granularity: 'auto',
  autoPercentAxis: true,
  autoScaleYAxis: true,
};

const metricField = (id: string, name: string): Field => ({
  id,
  name,
  category: 'Email',
  format: 'number',
  type: 'metric',
  features: [],
});

/**
 * The dashboards' date axes: 30 and 70 days (the longest the automatic granularity draws by day; beyond 60 buckets
 * the lines have no markers, and the last label can cross the chart's right edge), 26 weeks, 12 months, 8 quarters.
 */
const SPANS: { granularity: Granularity; buckets: number }[] = [
  { granularity: 'day', buckets: 30 },
  { granularity: 'day', buckets: 70 },
  { granularity: 'week', buckets: 26 },
  { granularity: 'month', buckets: 12 },
  { granularity: 'quarter', buckets: 8 },
];

function axisOf({ granularity, buckets }: (typeof SPANS)[number]): string[] {
  const step = (index: number) => {
    if (granularity === 'day') return addDays('2026-01-01', index);
    if (granularity === 'week') return addDays('2026-05-31', index * 7);
    return addMonths('2025-01-01', index * (granularity === 'quarter' ? 3 : 1));
  };
  return Array.from({ length: buckets }, (_, index) => step(index));
}

/** A chart's series: `metrics` metrics, each with its comparison when `compare`, values of the size of `scale`. */
const SERIES = [
  { metrics: 1, compare: false, scale: 1_000 },
  { metrics: 1, compare: true, scale: 25_000 },
  { metrics: 3, compare: true, scale: 4_000_000 },
];

function graphModel(
  span: (typeof SPANS)[number],
  chartType: 'line' | 'bar',
  { metrics, compare, scale }: (typeof SERIES)[number],
): GraphModel {
  const axis = axisOf(span);
  const series: GraphSeries[] = Array.from({ length: metrics }, (_, index) => {
    const metric = metricField(`metric${index}`, ['Sent', 'Opened', 'Clicked'][index] ?? `Metric ${index}`);
    const values = axis.map((_, bucket) => Math.round(scale * (1 + ((bucket * 7 + index * 3) % 11) / 10)));
    const main = { id: `${metric.id}:main`, name: metric.name, metric, values, color: seriesColor(index) };
    const periods: GraphSeries[] = [{ ...main, period: 'main', buckets: axis, group: metric.id }];
    if (compare) {
      const earlier = axis.map((day) => addDays(day, -axis.length));
      periods.push({ ...main, id: `${metric.id}:compare`, period: 'compare', buckets: earlier, group: metric.id });
    }
    return periods;
  }).flat();
  return {
    axis,
    granularity: span.granularity,
    series,
    settings: { ...SETTINGS, chartType },
    percentAxis: false,
    missing: [],
  };
}

function barModel(metrics: number): BarModel {
  const categories = ['United Kingdom', 'Netherlands', 'Germany', 'France', 'Belgium', 'Spain', 'Other'];
  return {
    categories,
    series: Array.from({ length: metrics }, (_, index) => ({
      metric: metricField(`metric${index}`, ['Sent', 'Opened'][index] ?? `Metric ${index}`),
      name: ['Sent', 'Opened'][index] ?? `Metric ${index}`,
      values: categories.map((_, row) => 40_000 - row * 4_500 - index * 9_000),
      color: seriesColor(index),
    })),
    settings: { ...SETTINGS, chartType: 'bar' },
    percentAxis: false,
    missing: [],
  };
}

/** The graph widgets' charts at each width: lines and bars over each span, and bars by dimension. */
function figures(widths: number[]): Figure[] {
  const options = (width: number) => ({ locale: 'en_GB' as const, dark: false, width });
  return widths.flatMap((width) => [
    ...SPANS.flatMap((span) =>
      (['line', 'bar'] as const).flatMap((chartType) =>
        SERIES.map((shape) => plotFigure(graphModel(span, chartType, shape), options(width))),
      ),
    ),
    barFigure(barModel(1), options(width)),
    barFigure(barModel(2), options(width)),
  ]) as unknown as Figure[];
}

function variantOf(figure: Figure, variant: ChartVariant): Figure {
  if (variant === 'without the legend') return { ...figure, layout: { ...figure.layout, showlegend: false } };
  if (variant === "without the date axis' label check") {
    const xaxis = figure.layout.xaxis as Record<string, unknown>;
    if (xaxis.type !== 'date') return figure;
    return { ...figure, layout: { ...figure.layout, xaxis: { ...xaxis, ticklabeloverflow: 'allow' } } };
  }
  if (variant === "with the value axis' label check") {
    const { ticklabeloverflow: _check, ...yaxis } = figure.layout.yaxis as Record<string, unknown>;
    return { ...figure, layout: { ...figure.layout, yaxis } };
  }
  return figure;
}

/** Draws each figure into a chart frame of its width, then removes it; answers the time and the labels shown. */
async function drawAll(list: Figure[]): Promise<{ ms: number; labels: string[] }> {
  let ms = 0;
  const labels: string[] = [];
  for (const figure of list) {
    const host = document.createElement('div');
    host.style.width = `${String(figure.layout.width)}px`;
    document.body.append(host);
    const started = performance.now();
    await Plotly.newPlot(host, figure.data, figure.layout, { displayModeBar: false });
    ms += performance.now() - started;
    const shown = (selector: string) =>
      [...host.querySelectorAll<SVGTextElement>(selector)]
        .map((text) => `${text.textContent ?? ''}${text.style.display === 'none' ? ' (hidden)' : ''}`)
        .join('|');
    labels.push(`${shown('.xtick text')} / ${shown('.ytick text')}`);
    Plotly.purge(host);
    host.remove();
  }
  return { ms, labels };
}

async function run({ widths, rounds }: ChartsInput): Promise<ChartsResult> {
  const all = figures(widths);
  // plotly's code compiled on first call, as the page's warm-up does before its first chart (charts/Plot.tsx).
  await drawAll(all);
  const results = new Map<ChartVariant, { roundMs: number[]; labels: string[] }>();
  for (let round = 0; round < rounds; round++) {
    // The variants take turns at starting a round.
    for (let turn = 0; turn < CHART_VARIANTS.length; turn++) {
      const variant = CHART_VARIANTS[(round + turn) % CHART_VARIANTS.length];
      const { ms, labels } = await drawAll(all.map((figure) => variantOf(figure, variant)));
      const result = results.get(variant) ?? { roundMs: [], labels };
      result.roundMs.push(ms);
      results.set(variant, result);
    }
  }
  const drawn = results.get('as drawn')?.labels ?? [];
  const variants = Object.fromEntries(
    [...results].map(([variant, { roundMs, labels }]) => [
      variant,
      {
        roundMs,
        hiddenLabels: labels.join('\n').split('(hidden)').length - 1,
        sameLabels: labels.every((shown, index) => shown === drawn[index]),
      },
    ]),
  ) as Record<ChartVariant, VariantResult>;
  return { charts: all.length, variants };
}

(window as unknown as { chartsBench: typeof run }).chartsBench = run;
document.title = 'charts bench ready';
