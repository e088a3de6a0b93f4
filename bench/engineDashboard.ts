import { getCatalogueDataset, toDatasetSchema } from '../src/contracts/catalogue';
import { compareRange, mainPresetRange } from '../src/engine/dates';
import { type QueryInput, buildQuery } from '../src/engine/queries';

/** The benchmark's dataset: the largest file, about as many rows as the generator's --rows. */
export const BENCH_DATASET = 'campaign_metrics_by_event_date';

export interface BenchQuery {
  name: string;
  kind: QueryInput['kind'];
  sql: string;
}

/**
 * A realistic 12-widget dashboard over the last 90 days with a preceding-period comparison: KPI cards,
 * two charts, bars, tables, high/low, funnel, series per dimension, a target and a filter lookup.
 */
export function dashboardQueries(endDate: string): BenchQuery[] {
  const dataset = getCatalogueDataset(BENCH_DATASET);
  if (!dataset) throw new Error(`No dataset ${BENCH_DATASET} in the catalogue`);
  const schema = toDatasetSchema(dataset);
  const today = new Date(Date.parse(`${endDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const range = mainPresetRange('last_90_days', today);
  const compare = compareRange(range, 'preceding_period');
  const quarter = mainPresetRange('this_quarter', today);
  const base = { dataset: BENCH_DATASET, range, compare };
  const globalFilter = [{ member: 'campaign_type', operator: 'notEquals', values: ['transactional'] }];
  const widgets: [string, QueryInput][] = [
    [
      'KPI cards',
      {
        kind: 'funnel',
        ...base,
        filters: globalFilter,
        metrics: ['sent_unique', 'sent', 'open_rate', 'click_to_open_rate', 'cto_unique', 'sessions', 'revenue'],
      },
    ],
    [
      'line: rates',
      { kind: 'timeSeries', ...base, filters: globalFilter, metrics: ['sent', 'open_rate', 'click_rate'] },
    ],
    ['bars: revenue', { kind: 'timeSeries', ...base, chart: 'bar_grouped', metrics: ['revenue', 'transactions'] }],
    ['bar by country', { kind: 'barByDimension', ...base, dimension: 'country', metrics: ['sent', 'open_rate'] }],
    ['bar by campaign', { kind: 'barByDimension', ...base, dimension: 'campaign_name', metrics: ['revenue'] }],
    [
      'table by type',
      {
        kind: 'tableCompare',
        ...base,
        dimensions: ['campaign_type'],
        metrics: ['sent_unique', 'sent', 'open', 'opens', 'clicks_unique', 'transactions'],
      },
    ],
    [
      'table by list',
      {
        kind: 'tableCompare',
        ...base,
        dimensions: ['list_name'],
        metrics: ['open_rate', 'click_rate', 'conversion_rate'],
      },
    ],
    [
      'high/low campaigns',
      { kind: 'highLow', ...base, dimension: 'campaign_name', metrics: ['open_rate', 'click_rate'] },
    ],
    [
      'funnel',
      {
        kind: 'funnel',
        ...base,
        metrics: ['sent_unique', 'sent', 'delivered', 'open', 'opens', 'clicks_unique', 'transactions'],
      },
    ],
    [
      'series per integration',
      { kind: 'timeSeriesByDimension', ...base, metric: 'revenue', dimension: 'integration_name' },
    ],
    [
      'target progress',
      { kind: 'targetProgress', dataset: BENCH_DATASET, range: quarter, metric: 'revenue', target: 1e6 },
    ],
    ['filter lookup', { kind: 'distinctValues', dataset: BENCH_DATASET, dimension: 'campaign_name' }],
  ];
  return widgets.map(([name, query]) => ({ name, kind: query.kind, sql: buildQuery(schema, query) }));
}
