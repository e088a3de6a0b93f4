import { useEffect, useMemo } from 'react';
import { type DatasetSchema, type Field } from '../../../contracts/datasets';
import { type ReportFilter, type Widget } from '../../../contracts/reports';
import { formatField } from '../../../engine/format';
import { useBarByDimensionQuery, useTimeSeriesByDimensionQuery, useTimeSeriesQuery } from '../../../store/engineApi';
import { useAppSelector } from '../../../store/hooks';
import { usePlotPreload } from '../../charts/Plot';
import { selectIsDarkTheme } from '../../prefs/prefsSlice';
import { gatedWidget, queryState } from '../DatasetGate';
import { GraphChart } from '../GraphChart';
import {
  type GraphSettings,
  chartKind,
  dimensionGraphModel,
  graphSettings,
  metricsGraphModel,
  warmUpFigures,
} from '../graphModel';
import { useWidgetPriority } from '../queryPriority';
import { type WidgetContext, type WidgetProps } from '../types';
import { fieldLabel, fieldsOf, widgetQueryScope } from '../widgetQuery';
import { WidgetEmpty, widgetMessages } from '../WidgetStates';
import '../graphs.css';
import { BarChart } from './BarChart';
import { barGraphModel } from './barModel';

interface Pair {
  metric: Field;
  dimension: Field;
  filters: ReportFilter[];
}

/** The metric and dimension pairs the dataset still has (spec 2 §4 cleanup drops the others). */
function pairsOf(widget: Widget, schema: DatasetSchema): Pair[] {
  return (widget.metricsByDimensions ?? []).flatMap((pair) => {
    const [metric] = fieldsOf(schema, [pair.metric], 'metric');
    const [dimension] = fieldsOf(schema, [pair.dimension], 'dimension');
    return metric && dimension ? [{ metric, dimension, filters: pair.filters ?? [] }] : [];
  });
}

/** Missing series data is a data problem to look into, not the viewer's: the chart is left out and reported. */
function useReportMissing(widget: Widget, missing: string[]) {
  const key = missing.join(',');
  useEffect(() => {
    if (key) console.error(`Graph widget ${widget.id}: no series data for metric(s) ${key}; chart skipped`);
  }, [widget.id, key]);
}

interface ViewProps {
  widget: Widget;
  context: WidgetContext;
  schema: DatasetSchema;
  version: string;
  settings: GraphSettings;
}

function MetricsChart({ widget, context, schema, version, settings, metrics }: ViewProps & { metrics: Field[] }) {
  const scope = widgetQueryScope(widget, context, schema);
  const result = useTimeSeriesQuery({
    workspaceId: context.scope.workspaceId,
    query: {
      kind: 'timeSeries',
      ...scope,
      metrics: metrics.map((metric) => metric.id),
      granularity: settings.granularity,
      chart: chartKind(settings),
      weekStart: context.weekStart,
    },
    version,
    supersedeKey: widget.id,
    priority: useWidgetPriority(),
  });
  const data = result.currentData;
  const model = useMemo(
    () =>
      data &&
      metricsGraphModel({
        result: data,
        metrics: metrics.map((metric) => ({ ...metric, name: fieldLabel(metric) })),
        settings,
        ranges: context.ranges,
        weekStart: context.weekStart,
      }),
    [data, metrics, settings, context.ranges, context.weekStart],
  );
  useReportMissing(widget, model?.missing ?? []);
  const state = queryState(result);
  if (state || !model) return state;
  if (!model.series.length) return null;
  return <GraphChart model={model} locale={context.locale} title={widget.title ?? 'Graph'} />;
}

/** A pair's own filters narrow its chart on top of the widget's and the dashboard's. */
function pairScope({ widget, context, schema }: ViewProps, pair: Pair) {
  return widgetQueryScope({ ...widget, filters: [...(widget.filters ?? []), ...pair.filters] }, context, schema);
}

const pairTitle = (pair: Pair) => `${fieldLabel(pair.metric)} by ${fieldLabel(pair.dimension)}`;

/** In bar mode a pair is one bar per dimension value over the whole range: the top 12, then Other. */
function PairBars(props: ViewProps & { pair: Pair }) {
  const { widget, context, version, settings, pair } = props;
  const result = useBarByDimensionQuery({
    workspaceId: context.scope.workspaceId,
    query: {
      kind: 'barByDimension',
      ...pairScope(props, pair),
      // One bar per value: a comparison would double them and halve their width.
      compare: undefined,
      metrics: [pair.metric.id],
      dimension: pair.dimension.id,
    },
    version,
    supersedeKey: `${widget.id}:${pair.metric.id}:${pair.dimension.id}`,
    priority: useWidgetPriority(),
  });
  const data = result.currentData;
  const { locale } = context;
  const model = useMemo(
    () =>
      data &&
      barGraphModel({
        result: data,
        metrics: [{ ...pair.metric, name: fieldLabel(pair.metric) }],
        settings,
        label: (value) => formatField(value, pair.dimension, locale),
      }),
    [data, pair, settings, locale],
  );
  useReportMissing(widget, model?.missing ?? []);
  const state = queryState(result);
  if (state || !model) return state;
  if (!model.series.length || !model.categories.length) return null;
  return (
    <section className="or-graph-section">
      <h4 className="or-graph-heading">{pairTitle(pair)}</h4>
      <BarChart model={model} locale={locale} title={pairTitle(pair)} />
    </section>
  );
}

/** In line mode a pair is a time series per dimension value, the 10 largest. */
function PairChart(props: ViewProps & { pair: Pair }) {
  return props.settings.chartType === 'bar' ? <PairBars {...props} /> : <PairSeries {...props} />;
}

function PairSeries(props: ViewProps & { pair: Pair }) {
  const { widget, context, version, settings, pair } = props;
  const scope = pairScope(props, pair);
  const result = useTimeSeriesByDimensionQuery({
    workspaceId: context.scope.workspaceId,
    query: {
      kind: 'timeSeriesByDimension',
      ...scope,
      // The comparison is not drawn per dimension value: 10 more series would crowd the chart.
      compare: undefined,
      metric: pair.metric.id,
      dimension: pair.dimension.id,
      granularity: settings.granularity,
      chart: chartKind(settings),
      weekStart: context.weekStart,
    },
    version,
    supersedeKey: `${widget.id}:${pair.metric.id}:${pair.dimension.id}`,
    priority: useWidgetPriority(),
  });
  const data = result.currentData;
  const { locale, ranges, weekStart } = context;
  const model = useMemo(
    () =>
      data &&
      dimensionGraphModel({
        result: data,
        metric: pair.metric,
        label: (value) => formatField(value, pair.dimension, locale),
        settings,
        ranges,
        weekStart,
      }),
    [data, pair, settings, ranges, weekStart, locale],
  );
  useReportMissing(widget, model?.missing ?? []);
  const state = queryState(result);
  if (state || !model) return state;
  if (!model.series.length) return null;
  const title = pairTitle(pair);
  return (
    <section className="or-graph-section">
      <h4 className="or-graph-heading">{title}</h4>
      <GraphChart model={model} locale={locale} title={title} />
    </section>
  );
}

function GraphView(props: Omit<ViewProps, 'settings'>) {
  const { widget, schema } = props;
  const metrics = useMemo(() => fieldsOf(schema, widget.metrics, 'metric'), [schema, widget.metrics]);
  const pairs = useMemo(() => pairsOf(widget, schema), [widget, schema]);
  const settings = useMemo(
    () => graphSettings(widget, [...metrics, ...pairs.map((pair) => pair.metric)]),
    [widget, metrics, pairs],
  );
  if (!metrics.length && !pairs.length) {
    return <WidgetEmpty title={widgetMessages.noMetric} description={widgetMessages.noMetricHelp} />;
  }
  return (
    <div className="or-graph-widget">
      {metrics.length > 0 && <MetricsChart {...props} settings={settings} metrics={metrics} />}
      {pairs.map((pair) => (
        <PairChart key={`${pair.metric.id}:${pair.dimension.id}`} {...props} settings={settings} pair={pair} />
      ))}
    </div>
  );
}

/**
 * Metrics over time as lines or bars (spec 2 §2, §9): the dashboard's range in buckets of the chosen or
 * automatic granularity, the comparison as dashed lines, and per metric-and-dimension pair a chart of the
 * 10 largest dimension values over time (lines) or of the 12 largest and Other (bars). Plotly loads with the first chart.
 */
const GatedGraph = gatedWidget(GraphView);

export function GraphWidget(props: WidgetProps) {
  const dark = useAppSelector(selectIsDarkTheme);
  usePlotPreload(() => warmUpFigures(props.context.locale, dark));
  return <GatedGraph {...props} />;
}
