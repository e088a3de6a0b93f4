import { createSlice } from '@reduxjs/toolkit';
import { type DatasetSchema } from '../../contracts/datasets';
import { type Widget } from '../../contracts/reports';
import { cleanWidget } from './cleanup';
import {
  autofocusFirstTabChanged,
  chartChanged,
  conversionMetricChanged,
  datasetChanged,
  dateFieldChanged,
  dimensionChanged,
  dimensionsChanged,
  displayChanged,
  filteredListsChanged,
  targetsChanged,
  filtersChanged,
  funnelDirectionChanged,
  funnelMetricsChanged,
  groupByChanged,
  limitChanged,
  maxYAxisScaleChanged,
  metricsByDimensionsChanged,
  metricsChanged,
  schemaLoaded,
  titleChanged,
  type WidgetConfigAction,
} from './widgetEdits';

type Settings = NonNullable<Widget['visualizationSettings']>;

/** Widget palettes (spec 2 §9); 'none' draws without one. */
export const widgetPalettes = ['blue', 'green', 'rose', 'amber', 'purple', 'none'] as const;

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
  reducers: {},
  extraReducers: (builder) =>
    builder
      .addCase(titleChanged, (widget, action) => ({ ...widget, title: action.payload }))
      // A new dataset starts on its own date field; what it lacks is cleaned once its schema is known.
      .addCase(datasetChanged, (widget, action) => {
        if (widget.dataset === action.payload) return widget;
        const next: Widget = { ...widget, dataset: action.payload };
        delete next.dateField;
        return next;
      })
      .addCase(dateFieldChanged, (widget, action) => ({ ...widget, dateField: action.payload }))
      .addCase(metricsChanged, (widget, action) => ({ ...widget, metrics: action.payload }))
      .addCase(dimensionChanged, (widget, action) => ({ ...widget, dimension: action.payload }))
      .addCase(dimensionsChanged, (widget, action) => ({ ...widget, dimensions: action.payload }))
      .addCase(groupByChanged, (widget, action) => ({ ...widget, groupBy: action.payload }))
      .addCase(filtersChanged, (widget, action) => ({ ...widget, filters: action.payload }))
      .addCase(metricsByDimensionsChanged, (widget, action) => ({ ...widget, metricsByDimensions: action.payload }))
      .addCase(displayChanged, (widget, action) =>
        withSettings(widget, (settings) => ({ ...settings, display: { ...settings.display, ...action.payload } })),
      )
      .addCase(chartChanged, (widget, action) =>
        withSettings(widget, (settings) => ({ ...settings, chart: { ...settings.chart, ...action.payload } })),
      )
      .addCase(funnelDirectionChanged, (widget, action) =>
        withSettings(widget, (settings) => ({
          ...settings,
          funnel: { ...settings.funnel, direction: action.payload },
        })),
      )
      // The funnel needs at least one metric (spec 2 §5): removing the last one is refused.
      .addCase(funnelMetricsChanged, (widget, action) =>
        action.payload.length ? { ...widget, funnelMetrics: action.payload } : widget,
      )
      // The 'Conversion metric' selector needs a value (spec 2 §5).
      .addCase(conversionMetricChanged, (widget, action) =>
        action.payload ? { ...widget, conversionMetric: action.payload } : widget,
      )
      .addCase(limitChanged, (widget, action) => ({ ...widget, limit: action.payload }))
      .addCase(filteredListsChanged, (widget, action) => ({ ...widget, filteredLists: action.payload }))
      .addCase(targetsChanged, (widget, action) => ({ ...widget, targets: action.payload }))
      .addCase(autofocusFirstTabChanged, (widget, action) => ({ ...widget, disableAutofocusFirstTab: !action.payload }))
      // A percentage axis ends at 101% unless set to fit its data.
      .addCase(maxYAxisScaleChanged, (widget, action) => ({ ...widget, maxYAxisScale: action.payload }))
      // The dataset's schema arrived (a new dataset, or the drawer opened): drop what it lacks.
      .addCase(schemaLoaded, (widget, action) => cleanWidget(widget, action.payload)),
});

/**
 * One edit as the drawer applies it: the reducer, then the cleanup against the dataset's schema when it is
 * known, so a choice that turns stacked bars into ratios comes back grouped.
 */
export function editWidget(widget: Widget, action: WidgetConfigAction, schema: DatasetSchema | undefined): Widget {
  const next = widgetConfigSlice.reducer(widget, action);
  return schema && action.type !== datasetChanged.type ? cleanWidget(next, schema) : next;
}
