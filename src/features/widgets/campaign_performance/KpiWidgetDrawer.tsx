import { Classes, Drawer, FormGroup, HTMLSelect, HTMLTable, NonIdealState, RangeSlider } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { type Locale } from '../../../contracts/common';
import { type DatasetSchema, type Field } from '../../../contracts/datasets';
import { type Widget } from '../../../contracts/reports';
import { type GranularitySetting, granularities } from '../../../engine/dates';
import { changeTone, formatChange, formatField, formatValue, relativeChange } from '../../../engine/format';
import { useFunnelQuery, useTimeSeriesQuery } from '../../../store/engineApi';
import { DatasetGate, queryState } from '../DatasetGate';
import { GraphChart } from '../GraphChart';
import { type GraphModel, chartKind, graphSettings, metricsGraphModel } from '../graphModel';
import { type WidgetContext } from '../types';
import { fieldLabel, fieldsOf, widgetQueryScope } from '../widgetQuery';
import { WidgetEmpty, widgetMessages } from '../WidgetStates';
import { KPI_DEFAULT_METRICS, KPI_OVERVIEW_LABEL } from './defaults';
import { type SliderScale, comparisonRows, narrowRanges, sliderScale, stepDay } from './kpiDrawerModel';
import '../graphs.css';

const groupByOptions: { value: GranularitySetting; label: string }[] = [
  { value: 'auto', label: 'Auto' },
  ...granularities.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) })),
];

/** About five labels under the slider, whatever the range. */
const labelStep = (scale: SliderScale) => Math.max(1, Math.ceil(scale.max / 4));

interface ZoomProps {
  widget: Widget;
  context: WidgetContext;
  schema: DatasetSchema;
  version: string;
  metric: Field;
  granularity: GranularitySetting;
  span: [number, number];
  scale: SliderScale;
}

function MetricZoom({ widget, context, schema, version, metric, granularity, span, scale }: ZoomProps) {
  const ranges = useMemo(() => narrowRanges(context.ranges, scale, span), [context.ranges, scale, span]);
  const zoomed = { ...context, ranges };
  const scope = widgetQueryScope(widget, zoomed, schema);
  const settings = useMemo(
    () => graphSettings({ ...widget, visualizationSettings: { chart: { chartType: 'line', granularity } } }, [metric]),
    [widget, metric, granularity],
  );
  const args = { workspaceId: context.scope.workspaceId, version, supersedeKey: `kpi-drawer:${widget.id}` };
  const series = useTimeSeriesQuery({
    ...args,
    query: {
      kind: 'timeSeries',
      ...scope,
      metrics: [metric.id],
      granularity,
      chart: chartKind(settings),
      weekStart: context.weekStart,
    },
  });
  const totals = useFunnelQuery({
    ...args,
    supersedeKey: `kpi-drawer-total:${widget.id}`,
    query: { kind: 'funnel', ...scope, metrics: [metric.id] },
  });
  const data = series.currentData;
  const model = useMemo(
    () =>
      data &&
      metricsGraphModel({
        result: data,
        metrics: [{ ...metric, name: fieldLabel(metric) }],
        settings,
        ranges,
        weekStart: context.weekStart,
      }),
    [data, metric, settings, ranges, context.weekStart],
  );
  const state = queryState(series);
  if (state || !model) return state;
  if (model.missing.length) return <WidgetEmpty title={widgetMessages.noData} />;

  const { locale } = context;
  const compared = ranges.compare !== undefined;
  const periodTotal = (period: string) => {
    const result = totals.currentData;
    const row = result?.data.period?.indexOf(period) ?? -1;
    return row < 0 || !result ? null : (result.data[metric.id]?.[row] ?? null);
  };
  const periodTotals = totals.currentData ? { current: periodTotal('main'), previous: periodTotal('compare') } : null;
  return (
    <>
      <GraphChart model={model} locale={locale} title={fieldLabel(metric)} />
      <ComparisonTable model={model} metric={metric} locale={locale} compared={compared} totals={periodTotals} />
    </>
  );
}

interface ComparisonTableProps {
  model: GraphModel;
  metric: Field;
  locale: Locale;
  compared: boolean;
  /** The two periods' totals, once their query answered. */
  totals: { current: unknown; previous: unknown } | null;
}

/** Per bucket the current and previous value and their change, with the periods' totals in the footer. */
function ComparisonTable({ model, metric, locale, compared, totals }: ComparisonTableProps) {
  return (
    <HTMLTable compact striped className="or-kpi-drawer-table" aria-label="Comparison">
      <thead>
        <tr>
          <th>Period</th>
          <th className="or-numeric">Current</th>
          {compared && <th className="or-numeric">Previous</th>}
          {compared && <th className="or-numeric">Change</th>}
        </tr>
      </thead>
      <tbody>
        {comparisonRows(model).map((row) => (
          <tr key={row.bucket}>
            <td>{formatValue(row.bucket, 'date', locale)}</td>
            <td className="or-numeric">{formatField(row.current, metric, locale)}</td>
            {compared && <td className="or-numeric">{formatField(row.previous, metric, locale)}</td>}
            {compared && (
              <td className="or-numeric">
                <ChangeText change={row.change} metric={metric} locale={locale} />
              </td>
            )}
          </tr>
        ))}
      </tbody>
      {totals && (
        <tfoot>
          <tr>
            <th>Total</th>
            <th className="or-numeric">{formatField(totals.current, metric, locale)}</th>
            {compared && <th className="or-numeric">{formatField(totals.previous, metric, locale)}</th>}
            {compared && (
              <th className="or-numeric">
                <ChangeText change={relativeChange(totals.current, totals.previous)} metric={metric} locale={locale} />
              </th>
            )}
          </tr>
        </tfoot>
      )}
    </HTMLTable>
  );
}

function ChangeText({ change, metric, locale }: { change: number | null; metric: Field; locale: Locale }) {
  return <span className={`or-change or-change-${changeTone(change, metric)}`}>{formatChange(change, locale)}</span>;
}

interface DrawerContentProps {
  widget: Widget;
  context: WidgetContext;
  schema: DatasetSchema;
  version: string;
  initialMetric?: string;
}

function KpiDrawerContent({ widget, context, schema, version, initialMetric }: DrawerContentProps) {
  const metrics = fieldsOf(schema, widget.metrics?.length ? widget.metrics : KPI_DEFAULT_METRICS, 'metric');
  const [metricId, setMetricId] = useState(
    initialMetric && metrics.some((m) => m.id === initialMetric) ? initialMetric : metrics[0]?.id,
  );
  const [granularity, setGranularity] = useState<GranularitySetting>('auto');
  const scale = useMemo(() => sliderScale(context.ranges.main), [context.ranges.main]);
  const [slider, setSlider] = useState<[number, number]>([0, scale.max]);
  // The query follows the slider when it is let go, not at every pixel of a drag.
  const [span, setSpan] = useState<[number, number]>([0, scale.max]);
  const metric = metrics.find((m) => m.id === metricId);
  if (!metric) return <WidgetEmpty title={widgetMessages.noMetric} description={widgetMessages.noMetricHelp} />;

  const label = (index: number) => formatValue(stepDay(context.ranges.main, scale, index), 'date', context.locale);
  return (
    <div className="or-kpi-drawer-body">
      <div className="or-kpi-drawer-controls">
        <FormGroup label="Metric" labelFor="kpi-drawer-metric">
          <HTMLSelect
            id="kpi-drawer-metric"
            value={metric.id}
            onChange={(event) => setMetricId(event.currentTarget.value)}
            options={metrics.map((m) => ({ value: m.id, label: fieldLabel(m) }))}
          />
        </FormGroup>
        <FormGroup label="Group by" labelFor="kpi-drawer-group-by">
          <HTMLSelect
            id="kpi-drawer-group-by"
            value={granularity}
            onChange={(event) => setGranularity(event.currentTarget.value as GranularitySetting)}
            options={groupByOptions}
          />
        </FormGroup>
      </div>
      {scale.max > 0 && (
        <div className="or-kpi-drawer-slider">
          <RangeSlider
            min={0}
            max={scale.max}
            stepSize={1}
            labelStepSize={labelStep(scale)}
            labelRenderer={label}
            value={slider}
            onChange={(value) => setSlider(value)}
            onRelease={setSpan}
            handleHtmlProps={{ start: { 'aria-label': 'Start date' }, end: { 'aria-label': 'End date' } }}
          />
        </div>
      )}
      <MetricZoom
        widget={widget}
        context={context}
        schema={schema}
        version={version}
        metric={metric}
        granularity={granularity}
        span={span}
        scale={scale}
      />
    </div>
  );
}

export interface KpiWidgetDrawerProps {
  /** The campaign_performance widget zoomed into; undefined when the drawer's widget id is unknown. */
  widget: Widget | undefined;
  context: WidgetContext;
  /** The metric shown first. @default the widget's first metric */
  metric?: string;
  onClose(): void;
}

/**
 * The kpi-widget drawer (spec 2 §2): one metric of a KPI widget with its chart, a slider narrowing the
 * dashboard's range (day steps, week steps over 365 days), a Group by picker and a table of each bucket
 * against the comparison.
 */
export function KpiWidgetDrawer({ widget, context, metric, onClose }: KpiWidgetDrawerProps) {
  return (
    <Drawer isOpen onClose={onClose} title={widget?.title || KPI_OVERVIEW_LABEL} size="720px">
      <div className={Classes.DRAWER_BODY}>
        {widget ? (
          <DatasetGate widget={widget} scope={context.scope}>
            {(schema, version) => (
              <KpiDrawerContent
                // A new range starts the slider over at its full width.
                key={`${context.ranges.main.start}:${context.ranges.main.end}`}
                widget={widget}
                context={context}
                schema={schema}
                version={version}
                initialMetric={metric}
              />
            )}
          </DatasetGate>
        ) : (
          <NonIdealState icon="warning-sign" title="Widget not found" />
        )}
      </div>
    </Drawer>
  );
}
