import { type DatasetSchema } from '../../contracts/datasets';
import { type DashboardConfig, type ExplorerConfig, type Widget } from '../../contracts/reports';
import { campaignSchema, listSchema } from '../../engine/testing/fixtures';
import { explorerPublicScope, publicDatasetScope, scopeCondition, scopeWidens, type TargetRead } from './publicScope';

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

describe("what an explorer view's public link serves", () => {
  const schema: DatasetSchema = {
    ...withCustom,
    fields: [...withCustom.fields, { ...withCustom.fields[0], id: 'event_date', name: 'Event date' }],
  };
  /** Grouped by country, pivoted by weekday, revenue per click and open shown, sent hidden. */
  const view = (patch: Partial<ExplorerConfig> = {}): ExplorerConfig => ({
    dataset: campaignSchema.id,
    pivotMode: true,
    valueColumns: ['revenue_per_click', 'open', 'sent'],
    columns: [
      { colId: 'country', rowGroup: true },
      { colId: 'send_weekday', pivot: true },
      { colId: 'sent', hide: true },
      // A column entry the grid does not draw: neither a group, the pivot nor a value.
      { colId: 'campaign_name' },
    ],
    filterModel: { campaign_name: { filterType: 'text', type: 'contains', filter: 'sale' } },
    ...patch,
  });
  const scopeOf = (config: ExplorerConfig) => explorerPublicScope(config, schema, 'whole');

  it('serves the date fields, the groups, pivot, shown values and their sources, and the filtered columns', () => {
    const scope = scopeOf(view({ dateField: 'event_date' }));
    expect(scope?.fields).toEqual([
      'send_date',
      'campaign_name',
      'country',
      'send_weekday',
      'open',
      'clicks_unique',
      'revenue',
      'revenue_per_click',
      'event_date',
    ]);
    expect(scope?.views).toEqual([[`((contains(lower(CAST("campaign_name" AS VARCHAR)), lower('sale'))))`]]);
    // Another dataset, or an older name of this one for another dataset, is not the view's.
    expect(explorerPublicScope(view(), listSchema, 'whole')).toBeNull();
    expect(scopeOf(view({ dataset: 'campaigns' }))).toBeNull();
  });

  it('reads the legacy dataset name as the send-date dataset', () => {
    const sendDate = { ...schema, id: 'campaign_metrics_by_send_date' };
    expect(explorerPublicScope(view({ dataset: 'campaigns' }), sendDate, 'whole')?.views).toHaveLength(1);
  });

  it('leaves out a pivot with no value shown, and a date field that is not a date', () => {
    const scope = scopeOf(view({ valueColumns: ['sent'], dateField: 'country', filterModel: null }));
    expect(scope?.fields).toEqual(['send_date', 'country']);
    expect(scope && scopeCondition(scope)).toBe('TRUE');
  });

  it('serves nothing of a metric only its baselines name, and the metrics its value filters use without narrowing rows', () => {
    const scope = scopeOf(
      view({
        kpiData: { open_rate: 0.2, clicks_unique: null },
        filterModel: {
          sent: { filterType: 'number', type: 'greaterThan', filter: 100 },
          country: { filterType: 'set', values: ['NL', null] },
        },
      }),
    );
    expect(scope?.fields).toEqual([
      'send_date',
      'country',
      'send_weekday',
      'sent',
      'open',
      'clicks_unique',
      'revenue',
      'revenue_per_click',
    ]);
    // The set filter keeps NL and blank countries; the filter on summed sends picks groups, not rows.
    expect(scope?.views).toEqual([
      [`(((CAST("country" AS VARCHAR) IN ('NL')) OR (("country" IS NULL OR CAST("country" AS VARCHAR) = ''))))`],
    ]);
  });

  it('serves no rows for a filter model the grid cannot read, or a grid that shows nothing', () => {
    for (const config of [
      view({ filterModel: { country: { filterType: 'text', type: 'contains', filter: 'x', operator: 'OR' } } }),
      view({ filterModel: { gone: { filterType: 'text', type: 'contains', filter: 'x' } } }),
      view({ columns: [{ colId: 'sent', rowGroup: true }] }),
      view({ valueColumns: [], columns: [] }),
    ]) {
      const scope = scopeOf(config);
      expect(scope && scopeCondition(scope)).toBe('FALSE');
      expect(scope?.fields).toEqual(['send_date']);
    }
  });

  it('counts a column shown, a filter dropped or loosened as widening; a filter added or a column hidden not', () => {
    const before = scopeOf(view());
    const hidden = (colId: string) => [...(view().columns ?? []), { colId, hide: true }];
    expect(scopeWidens(before, scopeOf(view()))).toBe(false);
    expect(scopeWidens(before, scopeOf(view({ columns: hidden('open') })))).toBe(false);
    const narrower = { ...view().filterModel, country: { filterType: 'set', values: ['NL'] } };
    expect(scopeWidens(before, scopeOf(view({ filterModel: narrower })))).toBe(false);
    expect(
      scopeWidens(before, scopeOf(view({ valueColumns: ['revenue_per_click', 'open', 'sent', 'delivered'] }))),
    ).toBe(true);
    // No grouping or pivot any more; showing the hidden column again widens.
    expect(scopeWidens(before, scopeOf(view({ columns: [{ colId: 'sent', hide: true }] })))).toBe(false);
    expect(scopeWidens(before, scopeOf(view({ columns: [] })))).toBe(true);
    expect(scopeWidens(before, scopeOf(view({ filterModel: null })))).toBe(true);
    const looser = { campaign_name: { filterType: 'text', type: 'contains', filter: 'sal' } };
    expect(scopeWidens(before, scopeOf(view({ filterModel: looser })))).toBe(true);
    // From no rows (a broken model) to a readable one widens.
    const broken = scopeOf(view({ filterModel: { gone: { filterType: 'text', type: 'contains', filter: 'x' } } }));
    expect(scopeWidens(broken, before)).toBe(true);
  });
});
