import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ReportFilter, type Widget } from '../../contracts/reports';
import { cleanWidget } from './cleanup';

type Settings = NonNullable<Widget['visualizationSettings']>;
export type DisplaySettings = NonNullable<Settings['display']>;
export type ChartSettings = NonNullable<Settings['chart']>;
export type MetricByDimension = NonNullable<Widget['metricsByDimensions']>[number];
export type FunnelDirection = NonNullable<NonNullable<Settings['funnel']>['direction']>;

/** Widget palettes (spec 2 §9); 'none' draws without one. */
export const widgetPalettes = ['blue', 'green', 'rose', 'amber', 'purple', 'none'] as const;
/** Display choices per widget type (spec 2 §3). */
export const displayTypes: Partial<Record<string, NonNullable<DisplaySettings['type']>[]>> = {
  campaign_performance: ['tab', 'grid', 'card'],
  subscriber_growth: ['tab', 'card'],
};

function withSettings(widget: Widget, patch: (settings: Settings) => Settings): Widget {
  return { ...widget, visualizationSettings: patch(widget.visualizationSettings ?? {}) };
}

/**
 * Edits to the widget in the configure drawer. The state is the widget being edited: the drawer applies
 * these to the canvas's widget (through `editWidget`) and hands the result back, so the canvas keeps the
 * one copy and its undo history; the slice is not mounted in the store.
 */
export const widgetConfigSlice = createSlice({
  name: 'widgetConfig',
  initialState: { id: '', type: '' } as Widget,
  reducers: {
    titleChanged: (widget, action: PayloadAction<string>) => ({ ...widget, title: action.payload }),
    /** A new dataset starts on its own date field; what it lacks is cleaned once its schema is known. */
    datasetChanged: (widget, action: PayloadAction<string>) => {
      if (widget.dataset === action.payload) return widget;
      const next: Widget = { ...widget, dataset: action.payload };
      delete next.dateField;
      return next;
    },
    dateFieldChanged: (widget, action: PayloadAction<string>) => ({ ...widget, dateField: action.payload }),
    metricsChanged: (widget, action: PayloadAction<string[]>) => ({ ...widget, metrics: action.payload }),
    dimensionChanged: (widget, action: PayloadAction<string | null>) => ({ ...widget, dimension: action.payload }),
    dimensionsChanged: (widget, action: PayloadAction<string[]>) => ({ ...widget, dimensions: action.payload }),
    groupByChanged: (widget, action: PayloadAction<string[]>) => ({ ...widget, groupBy: action.payload }),
    filtersChanged: (widget, action: PayloadAction<ReportFilter[]>) => ({ ...widget, filters: action.payload }),
    metricsByDimensionsChanged: (widget, action: PayloadAction<MetricByDimension[]>) => ({
      ...widget,
      metricsByDimensions: action.payload,
    }),
    displayChanged: (widget, action: PayloadAction<Partial<DisplaySettings>>) =>
      withSettings(widget, (settings) => ({ ...settings, display: { ...settings.display, ...action.payload } })),
    chartChanged: (widget, action: PayloadAction<Partial<ChartSettings>>) =>
      withSettings(widget, (settings) => ({ ...settings, chart: { ...settings.chart, ...action.payload } })),
    funnelDirectionChanged: (widget, action: PayloadAction<FunnelDirection>) =>
      withSettings(widget, (settings) => ({ ...settings, funnel: { ...settings.funnel, direction: action.payload } })),
    /** The funnel needs at least one metric (spec 2 §5): removing the last one is refused. */
    funnelMetricsChanged: (widget, action: PayloadAction<string[]>) =>
      action.payload.length ? { ...widget, funnelMetrics: action.payload } : widget,
    /** The 'Conversion metric' selector needs a value (spec 2 §5). */
    conversionMetricChanged: (widget, action: PayloadAction<string>) =>
      action.payload ? { ...widget, conversionMetric: action.payload } : widget,
    limitChanged: (widget, action: PayloadAction<number | null>) => ({ ...widget, limit: action.payload }),
    filteredListsChanged: (widget, action: PayloadAction<string[]>) => ({ ...widget, filteredLists: action.payload }),
    autofocusFirstTabChanged: (widget, action: PayloadAction<boolean>) => ({
      ...widget,
      disableAutofocusFirstTab: !action.payload,
    }),
    /** A percentage axis ends at 101% unless set to fit its data. */
    maxYAxisScaleChanged: (widget, action: PayloadAction<'auto' | null>) => ({
      ...widget,
      maxYAxisScale: action.payload,
    }),
    /** The dataset's schema arrived (a new dataset, or the drawer opened): drop what it lacks. */
    schemaLoaded: (widget, action: PayloadAction<DatasetSchema>) => cleanWidget(widget, action.payload),
  },
});

export const {
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
  autofocusFirstTabChanged,
  maxYAxisScaleChanged,
  schemaLoaded,
} = widgetConfigSlice.actions;

export type WidgetConfigAction = ReturnType<(typeof widgetConfigSlice.actions)[keyof typeof widgetConfigSlice.actions]>;

/**
 * One edit as the drawer applies it: the reducer, then the cleanup against the dataset's schema when it is
 * known, so a choice that turns stacked bars into ratios comes back grouped.
 */
export function editWidget(widget: Widget, action: WidgetConfigAction, schema: DatasetSchema | undefined): Widget {
  const next = widgetConfigSlice.reducer(widget, action);
  return schema && action.type !== datasetChanged.type ? cleanWidget(next, schema) : next;
}
