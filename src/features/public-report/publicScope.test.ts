import { type DatasetSchema } from '../../contracts/datasets';
import { type DashboardConfig, type Widget } from '../../contracts/reports';
import { campaignSchema, listSchema } from '../../engine/testing/fixtures';
import { publicDatasetScope, scopeCondition, scopeWidens, type TargetRead } from './publicScope';

const withCustom: DatasetSchema = {
  ...campaignSchema,
  fields: [
    ...campaignSchema.fields,
    {
      id: 'revenue_per_click',
      name: 'Revenue per click',
      category: 'Custom',
      format: 'number',
      type: 'metric',
      agg: { type: 'custom', expression: 'revenue / clicks_unique' },
      features: [],
      dataSourceType: 'virtual',
    },
    {
      id: 'market',
      name: 'Market',
      category: 'Custom',
      format: 'string',
      type: 'dimension',
      rules: [{ field: 'country', type: 'equals', value: 'NL', result: 'Home' }],
      rules_else: 'Abroad',
      features: [],
      dataSourceType: 'virtual',
    },
  ],
};

const dashboard = (widgets: Widget[], filters: DashboardConfig['filters'] = []): DashboardConfig => ({
  widgets,
  filters,
});
const scopeOf = (config: DashboardConfig, schema: DatasetSchema = withCustom) =>
  publicDatasetScope(config, schema, 'whole');

describe('what a public link serves', () => {
  it('takes the fields a custom metric and a rule dimension are computed from', () => {
    const scope = scopeOf(
      dashboard([
        {
          id: 'w',
          type: 'table',
          dataset: campaignSchema.id,
          metrics: ['revenue_per_click'],
          dimensions: ['market'],
        },
      ]),
    );
    expect(scope?.fields).toEqual(['send_date', 'country', 'clicks_unique', 'revenue', 'revenue_per_click', 'market']);
    expect(scope && scopeCondition(scope)).toBe('TRUE');
  });

  it("gives a graph one scope for its metrics and one per pair, each with the pair's filters", () => {
    const scope = scopeOf(
      dashboard(
        [
          {
            id: 'g',
            type: 'graph',
            dataset: campaignSchema.id,
            metrics: ['sent'],
            metricsByDimensions: [
              {
                metric: 'open',
                dimension: 'campaign_name',
                filters: [{ member: 'country', operator: 'equals', values: ['DE'] }],
              },
            ],
          },
        ],
        [{ member: 'sent', operator: 'gt', values: ['10'] }],
      ),
    );
    expect(scope?.views).toEqual([['("sent" > 10)'], [`(CAST("country" AS VARCHAR) IN ('DE'))`, '("sent" > 10)']]);
    expect(scope?.fields).toEqual(['send_date', 'campaign_name', 'country', 'sent', 'open']);
  });

  it('limits a subscriber growth widget to its chosen lists', () => {
    const scope = scopeOf(
      dashboard([{ id: 's', type: 'subscriber_growth', dataset: listSchema.id, filteredLists: ['List A'] }]),
      listSchema,
    );
    expect(scope?.views).toEqual([[`(CAST("list_name" AS VARCHAR) IN ('List A'))`]]);
    expect(scope?.fields).toEqual(['date', 'list_name', 'members', 'members_in', 'members_out', 'members_delta']);
  });

  it("serves a target widget's targets of the dataset: each one's metric through its own filters only", () => {
    const config = dashboard(
      [{ id: 'g', type: 'target', targets: ['a', 'b'] }],
      [{ member: 'campaign_name', operator: 'equals', values: ['Alpha'] }],
    );
    const targets: TargetRead[] = [
      {
        dataset: campaignSchema.id,
        metric: 'open_rate',
        filters: [{ member: 'country', operator: 'equals', values: ['NL'] }],
      },
      { dataset: 'ga4', metric: 'sessions', filters: [] },
    ];
    const scope = publicDatasetScope(config, withCustom, 'whole', targets);
    expect(scope?.fields).toEqual(['send_date', 'country', 'delivered', 'open', 'open_rate']);
    expect(scope?.views).toHaveLength(1);
    expect(scope?.views[0].join(' ')).toContain("'NL'");
    expect(scope?.views[0].join(' ')).not.toContain('Alpha');
    expect(scopeOf(config)).toBeNull();
  });

  it('serves nothing of a dataset no widget reads, and no rows for a widget whose filters cannot run', () => {
    expect(scopeOf(dashboard([{ id: 't', type: 'rich_text', content: 'Hi' }]))).toBeNull();
    const broken = scopeOf(
      dashboard([
        {
          id: 'w',
          type: 'table',
          dataset: campaignSchema.id,
          metrics: ['sent'],
          filters: [{ member: 'sent', operator: 'matches', values: ['1'] }],
        },
      ]),
    );
    expect(broken && scopeCondition(broken)).toBe('FALSE');
  });

  it('counts a filter moved from the dashboard to every widget as no widening, and a removed one as widening', () => {
    const filter = { member: 'country', operator: 'equals', values: ['NL'] };
    const table = (filters: Widget['filters'] = []): Widget => ({
      id: 'w',
      type: 'table',
      dataset: campaignSchema.id,
      metrics: ['sent'],
      filters,
    });
    const before = scopeOf(dashboard([table()], [filter]));
    expect(scopeWidens(before, scopeOf(dashboard([table([filter])])))).toBe(false);
    expect(scopeWidens(before, scopeOf(dashboard([table([filter])], [filter])))).toBe(false);
    expect(scopeWidens(before, scopeOf(dashboard([table()])))).toBe(true);
    expect(scopeWidens(before, scopeOf(dashboard([{ ...table(), metrics: ['sent', 'open'] }], [filter])))).toBe(true);
    expect(scopeWidens(null, before)).toBe(true);
  });
});
