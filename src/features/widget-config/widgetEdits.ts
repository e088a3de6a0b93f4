import { createAction } from '@reduxjs/toolkit';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ReportFilter, type Widget } from '../../contracts/reports';

type Settings = NonNullable<Widget['visualizationSettings']>;
export type DisplaySettings = NonNullable<Settings['display']>;
export type ChartSettings = NonNullable<Settings['chart']>;
export type MetricByDimension = NonNullable<Widget['metricsByDimensions']>[number];
export type FunnelDirection = NonNullable<NonNullable<Settings['funnel']>['direction']>;

/**
 * The edits a configure drawer's fields make, as actions of their own module: the settings panels of the
 * widget kinds import them, and the reducer that applies them (with the cleanup, which reads the widget
 * registry) imports the panels' registry in turn, so the two cannot live in one module.
 */
const edit = <P>(name: string) => createAction<P>(`widgetConfig/${name}`);

export const titleChanged = edit<string>('titleChanged');
export const datasetChanged = edit<string>('datasetChanged');
export const dateFieldChanged = edit<string>('dateFieldChanged');
export const metricsChanged = edit<string[]>('metricsChanged');
export const dimensionChanged = edit<string | null>('dimensionChanged');
export const dimensionsChanged = edit<string[]>('dimensionsChanged');
export const groupByChanged = edit<string[]>('groupByChanged');
export const filtersChanged = edit<ReportFilter[]>('filtersChanged');
export const metricsByDimensionsChanged = edit<MetricByDimension[]>('metricsByDimensionsChanged');
export const displayChanged = edit<Partial<DisplaySettings>>('displayChanged');
export const chartChanged = edit<Partial<ChartSettings>>('chartChanged');
export const funnelDirectionChanged = edit<FunnelDirection>('funnelDirectionChanged');
export const funnelMetricsChanged = edit<string[]>('funnelMetricsChanged');
export const conversionMetricChanged = edit<string>('conversionMetricChanged');
export const limitChanged = edit<number | null>('limitChanged');
export const filteredListsChanged = edit<string[]>('filteredListsChanged');
export const targetsChanged = edit<string[]>('targetsChanged');
export const autofocusFirstTabChanged = edit<boolean>('autofocusFirstTabChanged');
export const maxYAxisScaleChanged = edit<'auto' | null>('maxYAxisScaleChanged');
export const schemaLoaded = edit<DatasetSchema>('schemaLoaded');

/** Every edit, for the action type the drawer takes. */
export const widgetEdits = {
  titleChanged,
  datasetChanged,
  dateFieldChanged,
  metricsChanged,
  dimensionChanged,
  dimensionsChanged,
  groupByChanged,
  filtersChanged,
  metricsByDimensionsChanged,
  displayChanged,
  chartChanged,
  funnelDirectionChanged,
  funnelMetricsChanged,
  conversionMetricChanged,
  limitChanged,
  filteredListsChanged,
  targetsChanged,
  autofocusFirstTabChanged,
  maxYAxisScaleChanged,
  schemaLoaded,
};

export type WidgetConfigAction = ReturnType<(typeof widgetEdits)[keyof typeof widgetEdits]>;
