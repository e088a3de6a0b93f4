import { catalogue, getCatalogueDataset } from './catalogue';
import { LEGACY_FIELD_NAMES } from './legacyFields';
import { reportConfigSchema, type DashboardConfig, type ExplorerConfig } from './reports';

describe('legacy metric and dimension names (spec 2 §3 Other)', () => {
  const sendDate = getCatalogueDataset('campaign_metrics_by_send_date')!;

  it('maps each legacy name to a field of the send-date dataset, and never renames a field that exists', () => {
    const current = new Set(catalogue.flatMap((dataset) => dataset.fields.map((field) => field.id)));
    for (const [legacy, name] of Object.entries(LEGACY_FIELD_NAMES)) {
      expect(current.has(legacy) ? `${legacy} is a current field` : legacy).toBe(legacy);
      expect(sendDate.fields.find((field) => field.id === name)?.id ?? `${legacy} → ${name} is no field`).toBe(name);
    }
  });

  it('a saved dashboard is read with the current names in every place a widget names a field', () => {
    const saved = {
      widgets: [
        {
          id: 'w1',
          type: 'graph',
          dataset: 'campaigns',
          metrics: ['unique_opens', 'revenue', 'cto'],
          dimension: 'weekday',
          dimensions: ['list', 'country'],
          groupBy: ['integration'],
          filters: [{ or: [{ member: 'subject', operator: 'contains', values: ['Sale'] }] }],
          metricsByDimensions: [{ metric: 'total_clicks', dimension: 'hour', filters: [{ member: 'aov' }] }],
          funnelMetrics: ['unique_sent', 'unique_clicks'],
          conversionMetric: 'bounced',
          visualizationSettings: { display: { orderBy: 'cto', order: 'asc' } },
        },
        { id: 'w2', type: 'rich_text', content: 'Hello' },
      ],
      filters: [{ member: 'unsubscribed', operator: 'gt', values: ['1'] }],
    };
    const config = reportConfigSchema('dashboard').parse(JSON.stringify(saved)) as DashboardConfig;
    expect(config.widgets[0]).toEqual({
      id: 'w1',
      type: 'graph',
      dataset: 'campaigns',
      metrics: ['open', 'revenue', 'click_to_open_rate'],
      dimension: 'send_weekday',
      dimensions: ['list_name', 'country'],
      groupBy: ['integration_name'],
      filters: [{ or: [{ member: 'subject_line', operator: 'contains', values: ['Sale'] }] }],
      metricsByDimensions: [{ metric: 'clicks', dimension: 'send_hour', filters: [{ member: 'average_order_value' }] }],
      funnelMetrics: ['sent_unique', 'clicks_unique'],
      conversionMetric: 'bounces',
      visualizationSettings: { display: { orderBy: 'click_to_open_rate', order: 'asc' } },
    });
    // Keys a widget did not have stay absent: a re-read config equals the saved one, so it is not seen as changed.
    expect(Object.keys(config.widgets[1])).toEqual(['id', 'type', 'content']);
    expect(config.filters).toEqual([{ member: 'unsubscribes', operator: 'gt', values: ['1'] }]);
  });

  it('a saved explorer view is read with the current names in its columns, values, filter model and KPIs', () => {
    const config = reportConfigSchema('explorer_view').parse({
      dataset: 'campaign_metrics_by_send_date',
      valueColumns: ['total_opens', 'sent'],
      columns: [{ colId: 'subject', rowGroup: true }, { colId: 'rpe' }],
      view: [{ colId: 'hard_bounced' }],
      filterModel: { integration: { type: 'set' } },
      kpiData: { ctor_unique: 0.2 },
    }) as ExplorerConfig;
    expect(config).toEqual({
      dataset: 'campaign_metrics_by_send_date',
      valueColumns: ['opens', 'sent'],
      columns: [{ colId: 'subject_line', rowGroup: true }, { colId: 'revenue_per_email' }],
      view: [{ colId: 'hard_bounces' }],
      filterModel: { integration_name: { type: 'set' } },
      kpiData: { cto_unique: 0.2 },
    });
  });
});
