import type { DashboardConfig, ExplorerConfig, ReportFilter, Widget } from './reports';

/**
 * The metric and dimension names of the older campaign dataset ('campaigns'), still found in saved reports, and
 * the field each is now called (spec 2 §3 Other: "Legacy metric and dimension names are mapped to new names").
 * No legacy name is a current field id of any dataset, so the mapping never renames a field that exists.
 */
export const LEGACY_FIELD_NAMES: Readonly<Record<string, string>> = {
  // Metrics
  unique_sent: 'sent_unique',
  unique_opens: 'open',
  total_opens: 'opens',
  unique_clicks: 'clicks_unique',
  total_clicks: 'clicks',
  bounced: 'bounces',
  hard_bounced: 'hard_bounces',
  soft_bounced: 'soft_bounces',
  unsubscribed: 'unsubscribes',
  cto: 'click_to_open_rate',
  ctor_unique: 'cto_unique',
  aov: 'average_order_value',
  rpe: 'revenue_per_email',
  // Dimensions
  subject: 'subject_line',
  list: 'list_name',
  integration: 'integration_name',
  weekday: 'send_weekday',
  hour: 'send_hour',
};

/** The current name of a field: a legacy name's replacement, any other name unchanged. */
export const currentFieldName = (name: string): string => LEGACY_FIELD_NAMES[name] ?? name;

const renamed = (names: string[]) => names.map(currentFieldName);
const renamedKeys = <T>(record: Record<string, T>) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [currentFieldName(key), value]));

type Renamers<T> = { [K in keyof T]?: (value: NonNullable<T[K]>) => T[K] };

/** The object with each listed key that holds a value passed through its renamer; absent keys stay absent. */
function withRenamed<T extends object>(object: T, renamers: Renamers<T>): T {
  const copy = { ...object };
  for (const key of Object.keys(renamers) as (keyof T)[]) {
    const value = copy[key];
    if (value !== undefined && value !== null) copy[key] = renamers[key]!(value as NonNullable<T[keyof T]>);
  }
  return copy;
}

const filterWithCurrentNames = (filter: ReportFilter): ReportFilter =>
  withRenamed(filter, {
    member: currentFieldName,
    and: (filters) => filters.map(filterWithCurrentNames),
    or: (filters) => filters.map(filterWithCurrentNames),
  });
const filtersWithCurrentNames = (filters: ReportFilter[]) => filters.map(filterWithCurrentNames);

const widgetWithCurrentNames = (widget: Widget): Widget =>
  withRenamed(widget, {
    metrics: renamed,
    dimension: currentFieldName,
    dimensions: renamed,
    groupBy: renamed,
    filters: filtersWithCurrentNames,
    metricsByDimensions: (pairs) =>
      pairs.map((pair) =>
        withRenamed(pair, { metric: currentFieldName, dimension: currentFieldName, filters: filtersWithCurrentNames }),
      ),
    funnelMetrics: renamed,
    conversionMetric: currentFieldName,
    visualizationSettings: (settings) =>
      withRenamed(settings, { display: (display) => withRenamed(display, { orderBy: currentFieldName }) }),
  });

/** A dashboard's config with every field named as the datasets now name it. */
export function dashboardWithCurrentNames(config: DashboardConfig): DashboardConfig {
  return withRenamed(config, {
    widgets: (widgets) => widgets.map(widgetWithCurrentNames),
    filters: filtersWithCurrentNames,
  });
}

/** An explorer view's config with every field named as the datasets now name it. */
export function explorerWithCurrentNames(config: ExplorerConfig): ExplorerConfig {
  const columns = (list: NonNullable<ExplorerConfig['columns']>) =>
    list.map((column) => ({ ...column, colId: currentFieldName(column.colId) }));
  return withRenamed(config, {
    valueColumns: renamed,
    columns,
    view: columns,
    filterModel: renamedKeys,
    kpiData: renamedKeys,
  });
}
