import { type Widget } from '../../contracts/reports';
import { ga4Schema, sendSchema } from './testSchema';
import { editWidget, widgetConfigSlice } from './widgetConfigSlice';
import {
  autofocusFirstTabChanged,
  chartChanged,
  conversionMetricChanged,
  datasetChanged,
  displayChanged,
  funnelMetricsChanged,
  limitChanged,
  metricsChanged,
  schemaLoaded,
  titleChanged,
} from './widgetEdits';

const reducer = widgetConfigSlice.reducer;
const graph: Widget = {
  id: 'w1',
  type: 'graph',
  dataset: 'campaign_metrics_by_send_date',
  dateField: 'created_date',
  metrics: ['sent', 'open'],
  visualizationSettings: { chart: { chartType: 'bar', groupMode: 'stacked' }, display: { palette: 'blue' } },
};

describe('widget configuration reducer', () => {
  it('changes the title', () => {
    expect(reducer(graph, titleChanged('Opens per week')).title).toBe('Opens per week');
  });

  it('starts a new dataset on its own date field', () => {
    const next = reducer(graph, datasetChanged('ga4'));
    expect(next.dataset).toBe('ga4');
    expect(next).not.toHaveProperty('dateField');
    expect(reducer(graph, datasetChanged(graph.dataset!))).toBe(graph);
  });

  it('cleans what the new dataset lacks once its schema arrives', () => {
    const next = reducer(reducer(graph, datasetChanged('ga4')), schemaLoaded(ga4Schema));
    expect(next.metrics).toEqual([]);
  });

  it('merges display and chart settings without losing the others', () => {
    const next = reducer(reducer(graph, displayChanged({ type: 'grid' })), chartChanged({ granularity: 'week' }));
    expect(next.visualizationSettings).toEqual({
      chart: { chartType: 'bar', groupMode: 'stacked', granularity: 'week' },
      display: { palette: 'blue', type: 'grid' },
    });
  });

  it('refuses to remove the last funnel metric', () => {
    const funnel: Widget = { id: 'f', type: 'funnel', funnelMetrics: ['sent'] };
    expect(reducer(funnel, funnelMetricsChanged([]))).toBe(funnel);
    expect(reducer(funnel, funnelMetricsChanged(['sent', 'open'])).funnelMetrics).toEqual(['sent', 'open']);
  });

  it('refuses an empty conversion metric', () => {
    const funnel: Widget = { id: 'f', type: 'funnel', conversionMetric: 'transactions' };
    expect(reducer(funnel, conversionMetricChanged(''))).toBe(funnel);
    expect(reducer(funnel, conversionMetricChanged('open')).conversionMetric).toBe('open');
  });

  it('stores the list limit, none as null', () => {
    expect(reducer(graph, limitChanged(25)).limit).toBe(25);
    expect(reducer(graph, limitChanged(null)).limit).toBeNull();
  });

  it('stores the autofocus choice as its opposite, disableAutofocusFirstTab', () => {
    expect(reducer(graph, autofocusFirstTabChanged(false)).disableAutofocusFirstTab).toBe(true);
  });
});

describe('editWidget', () => {
  it('turns stacked bars grouped when a weighted-average metric is chosen', () => {
    const next = editWidget(graph, metricsChanged(['sent', 'open_rate']), sendSchema);
    expect(next.visualizationSettings?.chart?.groupMode).toBe('grouped');
  });

  it('keeps stacked bars for summed metrics', () => {
    expect(editWidget(graph, metricsChanged(['sent']), sendSchema).visualizationSettings?.chart?.groupMode).toBe(
      'stacked',
    );
  });

  it('does not clean against the old schema when the dataset changes', () => {
    expect(editWidget(graph, datasetChanged('ga4'), sendSchema).metrics).toEqual(['sent', 'open']);
  });
});
