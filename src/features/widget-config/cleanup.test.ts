import { type Widget } from '../../contracts/reports';
import { cleanWidget, countFilters, countingFilters, filtersInDataset } from './cleanup';
import { ga4Schema, sendSchema } from './testSchema';

const graph = (patch: Partial<Widget>): Widget => ({ id: 'w1', type: 'graph', ...patch });

describe('widget configuration cleanup (spec 2 §4)', () => {
  it('drops metrics the dataset does not have, keeping the order of the rest', () => {
    const cleaned = cleanWidget(graph({ metrics: ['revenue', 'sent', 'ghost', 'open'] }), sendSchema);
    expect(cleaned.metrics).toEqual(['sent', 'open']);
  });

  it('does not take a dimension for a metric, nor a metric for a dimension', () => {
    const cleaned = cleanWidget(graph({ metrics: ['country', 'sent'], dimensions: ['sent', 'country'] }), sendSchema);
    expect(cleaned.metrics).toEqual(['sent']);
    expect(cleaned.dimensions).toEqual(['country']);
  });

  it('drops funnel metrics and groupBy dimensions the dataset lacks', () => {
    const cleaned = cleanWidget(
      graph({ type: 'funnel', funnelMetrics: ['sent', 'sessions'], groupBy: ['device', 'country'] }),
      sendSchema,
    );
    expect(cleaned.funnelMetrics).toEqual(['sent']);
    expect(cleaned.groupBy).toEqual(['country']);
  });

  it('resets a single dimension picker to empty when its dimension is missing', () => {
    expect(cleanWidget(graph({ type: 'list', dimension: 'device' }), sendSchema).dimension).toBeNull();
    expect(cleanWidget(graph({ type: 'list', dimension: 'country' }), sendSchema).dimension).toBe('country');
  });

  it('resets the conversion metric picker to empty when the metric is not available', () => {
    const funnel = graph({ type: 'funnel', conversionMetric: 'transactions' });
    expect(cleanWidget(funnel, ga4Schema).conversionMetric).toBe('');
    expect(cleanWidget(funnel, sendSchema).conversionMetric).toBe('transactions');
  });

  it('falls back to the dataset date field when the chosen one is not a date of the dataset', () => {
    expect(cleanWidget(graph({ dateField: 'created_date' }), ga4Schema)).not.toHaveProperty('dateField');
    expect(cleanWidget(graph({ dateField: 'campaign_name' }), sendSchema)).not.toHaveProperty('dateField');
    expect(cleanWidget(graph({ dateField: 'created_date' }), sendSchema).dateField).toBe('created_date');
  });

  it('drops filters on fields that are not dimensions of the dataset, also inside groups', () => {
    const filters = [
      { member: 'campaign_name', operator: 'contains', values: ['spring'] },
      { member: 'device', operator: 'equals', values: ['mobile'] },
      { member: 'sent', operator: 'gt', values: ['10'] },
      {
        or: [
          { member: 'device', operator: 'set' },
          { member: 'country', operator: 'equals', values: ['NL'] },
        ],
      },
      { and: [{ member: 'device', operator: 'set' }] },
    ];
    expect(cleanWidget(graph({ filters }), sendSchema).filters).toEqual([
      { member: 'campaign_name', operator: 'contains', values: ['spring'] },
      { or: [{ member: 'country', operator: 'equals', values: ['NL'] }] },
    ]);
  });

  it('keeps a filter row still being filled in', () => {
    expect(filtersInDataset([{ operator: 'equals' }], sendSchema)).toEqual([{ operator: 'equals' }]);
  });

  it('drops metric-by-dimension pairs with a missing metric or dimension and cleans their filters', () => {
    const cleaned = cleanWidget(
      graph({
        metricsByDimensions: [
          { metric: 'sent', dimension: 'country', filters: [{ member: 'device', operator: 'set' }] },
          { metric: 'sessions', dimension: 'country' },
          { metric: 'sent', dimension: 'device' },
        ],
      }),
      sendSchema,
    );
    expect(cleaned.metricsByDimensions).toEqual([{ metric: 'sent', dimension: 'country', filters: [] }]);
  });

  it('forces stacked bars to grouped when any selected metric is a weighted average', () => {
    const stacked = graph({
      metrics: ['sent', 'open_rate'],
      visualizationSettings: { chart: { chartType: 'bar', groupMode: 'stacked' } },
    });
    expect(cleanWidget(stacked, sendSchema).visualizationSettings?.chart).toEqual({
      chartType: 'bar',
      groupMode: 'grouped',
    });
    const sums = { ...stacked, metrics: ['sent', 'open'] };
    expect(cleanWidget(sums, sendSchema).visualizationSettings?.chart?.groupMode).toBe('stacked');
  });

  it('answers the same widget when nothing is missing', () => {
    const widget = graph({ metrics: ['sent'], dimensions: ['country'], filters: [], conversionMetric: 'transactions' });
    expect(cleanWidget(widget, sendSchema)).toBe(widget);
  });
});

describe('which filters count (spec 2 §5)', () => {
  it('counts a filter only with an existing dimension member and non-empty values, or set and notSet', () => {
    const filters = [
      { member: 'country', operator: 'equals', values: ['NL', ''] },
      { member: 'country', operator: 'equals', values: [''] },
      { member: 'campaign_name', operator: 'contains', values: [] },
      { member: 'campaign_name', operator: 'notSet' },
      { member: 'campaign_name', values: ['x'] },
      { member: 'device', operator: 'set' },
      { member: 'sent', operator: 'gt', values: ['5'] },
    ];
    expect(countingFilters(filters, sendSchema)).toEqual([
      { member: 'country', operator: 'equals', values: ['NL'] },
      { member: 'campaign_name', operator: 'notSet' },
    ]);
  });

  it('counts the members of nested groups', () => {
    const filters = [
      { member: 'country', operator: 'set' },
      {
        or: [
          { member: 'country', operator: 'equals', values: ['NL'] },
          { member: 'device', operator: 'set' },
        ],
      },
      { and: [{ member: 'campaign_name', operator: 'contains', values: [] }] },
    ];
    expect(countFilters(filters, sendSchema)).toBe(2);
  });
});
