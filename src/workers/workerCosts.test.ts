import { getCatalogueDataset, toDatasetSchema } from '../contracts/catalogue';
import { compareRange, mainPresetRange } from '../engine/dates';
import { type QueryInput, buildQuery } from '../engine/queries';
import { createWorkerCosts, queryShape } from './workerCosts';

const dataset = 'campaign_metrics_by_send_date';
const schema = toDatasetSchema(getCatalogueDataset(dataset)!);

/** A widget's query as the canvas builds it for the last 30 days before `today`, compared with the period before. */
function widgetSql(today: string, query: Partial<QueryInput>): string {
  const range = mainPresetRange('last_30_days', today);
  return buildQuery(schema, {
    ...query,
    dataset,
    range,
    compare: compareRange(range, 'preceding_period'),
  } as QueryInput);
}

describe('query shapes', () => {
  const series: Partial<QueryInput> = { kind: 'timeSeries', metrics: ['sent', 'open_rate'] };
  const bars: Partial<QueryInput> = { kind: 'barByDimension', dimension: 'country', metrics: ['sent'] };

  it('are the same for a widget before and after a date change, and differ between widgets', () => {
    const before = widgetSql('2026-11-20', series);
    const after = widgetSql('2026-11-27', series);
    expect(after).not.toBe(before);
    expect(queryShape(after)).toBe(queryShape(before));
    expect(queryShape(widgetSql('2026-11-20', bars))).not.toBe(queryShape(before));
    const filtered = widgetSql('2026-11-20', {
      ...series,
      filters: [{ member: 'campaign_type', operator: 'equals', values: ['newsletter'] }],
    } as Partial<QueryInput>);
    expect(queryShape(filtered)).not.toBe(queryShape(before));
  });

  it('keep a running time per shape, forgetting the least recently run beyond 500', () => {
    const costs = createWorkerCosts();
    costs.queried(40, 'a');
    costs.queried(20, 'a');
    expect(costs.expected('a')).toBe(30);
    for (let i = 0; i < 499; i++) costs.queried(1, `other ${i}`);
    costs.queried(10, 'a');
    costs.queried(1, 'one more');
    expect(costs.expected('a')).toBe(20);
    expect(costs.expected('other 0')).toBeUndefined();
    expect(costs.expected('other 1')).toBe(1);
  });
});
