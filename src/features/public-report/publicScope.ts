import { type DatasetSchema, type Field } from '../../contracts/datasets';
import {
  type DashboardConfig,
  datasetOfExplorer,
  datasetQueriedByWidget,
  type ExplorerConfig,
  type ReportFilter,
  type Widget,
} from '../../contracts/reports';
import { type Target } from '../../contracts/targets';
import { expressionFieldIds } from '../../engine/dataModel/expression';
import { FieldIndex } from '../../engine/fields';
import { compileFilters, type Filter, filterMembers } from '../../engine/filters';
import { gridFilters } from '../../engine/gridFilters';
import { columnsOf, gridLayout } from '../explorer/explorerEdits';
import { KPI_DEFAULT_METRICS } from '../widgets/campaign_performance/defaults';
import { DEFAULT_CONVERSION_METRIC, FUNNEL_DEFAULT_METRICS } from '../widgets/funnel/defaults';
import { LIST_FIELD, LIST_METRICS } from '../widgets/subscriber_growth/defaults';
import { TABLE_DEFAULT_METRICS } from '../widgets/table/defaults';
import { effectiveFilters } from '../widgets/widgetQuery';

/**
 * What a public link serves (issue 13): the rows and columns a dashboard's widgets show, worked out from the saved
 * config with the same filter SQL the browser runs. The server builds the public dataset files from it and refuses
 * saves that would widen it; the widgets' defaults come from the same constants the widgets use.
 */

/** One query scope of a widget: the fields it reads and its own filters (the dashboard's apply on top). */
export interface WidgetRead {
  metrics: readonly string[];
  dimensions: readonly string[];
  filters: readonly ReportFilter[];
}

const firstDimension = (widget: Widget): string[] =>
  widget.dimension ? [widget.dimension] : (widget.dimensions ?? []).slice(0, 1);

/**
 * The query scopes of a widget, as its component reads the config (src/features/widgets): a graph has one for its
 * metrics and one per metric-by-dimension pair (each with its own filters on top of the widget's). Text widgets and
 * kinds this version does not render read nothing.
 */
export function widgetReads(widget: Widget): WidgetRead[] {
  const filters = widget.filters ?? [];
  switch (widget.type) {
    case 'campaign_performance':
      // The KPI drawer shows the defaults when the list is empty, the widget itself its list.
      return [{ metrics: widget.metrics?.length ? widget.metrics : KPI_DEFAULT_METRICS, dimensions: [], filters }];
    case 'funnel':
      return [
        {
          metrics: [
            ...(widget.funnelMetrics ?? widget.metrics ?? FUNNEL_DEFAULT_METRICS),
            widget.conversionMetric ?? DEFAULT_CONVERSION_METRIC,
          ],
          dimensions: [],
          filters,
        },
      ];
    case 'table':
      return [
        {
          metrics: widget.metrics ?? TABLE_DEFAULT_METRICS,
          dimensions: widget.dimensions?.length ? widget.dimensions : widget.dimension ? [widget.dimension] : [],
          filters,
        },
      ];
    case 'high_low':
      return [{ metrics: widget.metrics ?? [], dimensions: firstDimension(widget), filters }];
    case 'list':
      return [{ metrics: (widget.metrics ?? []).slice(0, 1), dimensions: firstDimension(widget), filters }];
    case 'graph': {
      const pairs = (widget.metricsByDimensions ?? []).map((pair) => ({
        metrics: [pair.metric],
        dimensions: [pair.dimension],
        filters: [...filters, ...(pair.filters ?? [])],
      }));
      return widget.metrics?.length ? [{ metrics: widget.metrics, dimensions: [], filters }, ...pairs] : pairs;
    }
    case 'subscriber_growth': {
      const lists = widget.filteredLists ?? [];
      return [
        {
          metrics: LIST_METRICS,
          dimensions: [LIST_FIELD],
          // The widget shows only the chosen lists (the engine's subscriberGrowth query adds this filter).
          filters: lists.length ? [...filters, { member: LIST_FIELD, operator: 'equals', values: lists }] : filters,
        },
      ];
    }
    default:
      return [];
  }
}

export interface PublicDatasetScope {
  /** The fields the widgets need, in schema order: the ones they show and every field those are computed from. */
  fields: string[];
  /**
   * One entry per widget scope that can run: the row conditions of its filters (the dashboard's and its own), one
   * SQL condition per top-level filter. A row is served when it meets every condition of at least one entry.
   */
  views: string[][];
}

/** The fields `ids` are computed from, with themselves: ratios' parts, custom metrics' terms, rules' dimensions. */
function withSources(fields: ReadonlyMap<string, Field>, ids: Iterable<string>): Set<string> {
  const found = new Set<string>();
  const visit = (id: string) => {
    const field = fields.get(id);
    if (!field || found.has(id)) return;
    found.add(id);
    const agg = field.agg;
    if (agg?.type === 'weighted_avg') [agg.numerator, agg.denominator].forEach(visit);
    if (agg?.type === 'count_distinct') visit(agg.field);
    if (agg?.type === 'custom') expressionFieldIds(agg.expression).forEach(visit);
    if (field.expr !== undefined) expressionFieldIds(field.expr).forEach(visit);
    field.rules?.forEach((rule) => visit(rule.field));
  };
  for (const id of ids) visit(id);
  return found;
}

/** A target a dashboard's target widgets show: its card reads one metric of its dataset through its own filters. */
export type TargetRead = Pick<Target, 'metric' | 'filters'> & { dataset: string };

/**
 * What a dashboard's public link serves of one dataset (`schema` with the workspace's custom fields), or null when
 * no widget reads it. `table` names the whole dataset in the conditions (row outliers are measured against it).
 * `targets` are those the dashboard's target widgets reference: their cards use their own filters only.
 */
export function publicDatasetScope(
  config: Pick<DashboardConfig, 'widgets' | 'filters'>,
  schema: DatasetSchema,
  table: string,
  targets: readonly TargetRead[] = [],
): PublicDatasetScope | null {
  const index = new FieldIndex(schema);
  const typed = (ids: readonly string[], type: Field['type']) => ids.filter((id) => index.get(id)?.type === type);
  const widgets = config.widgets.filter((widget) => datasetQueriedByWidget(widget) === schema.id);
  const targetReads = targets
    .filter((target) => target.dataset === schema.id)
    .map((target) => ({ metrics: [target.metric], dimensions: [], filters: target.filters }));
  if (widgets.length === 0 && targetReads.length === 0) return null;
  const used = new Set<string>([schema.dateField]);
  const reads: WidgetRead[] = [...targetReads];
  for (const widget of widgets) {
    // The widget's own date field when the dataset has it as a date (widgetQueryScope), else the dataset's.
    if (widget.dateField && index.get(widget.dateField)?.format === 'date') used.add(widget.dateField);
    for (const read of widgetReads(widget))
      reads.push({ ...read, filters: [...read.filters, ...(config.filters ?? [])] });
  }
  const views: string[][] = [];
  for (const read of reads) {
    const filters = effectiveFilters(read.filters, schema);
    let conditions: string[];
    try {
      // One filter at a time, so conditions can be compared between versions; together they are the query's WHERE.
      conditions = filters.flatMap((filter) => compileFilters([filter], { fields: index, table }).where ?? []);
    } catch {
      // The browser cannot run this scope either: it shows an error and no rows.
      continue;
    }
    views.push(conditions);
    [...typed(read.metrics, 'metric'), ...typed(read.dimensions, 'dimension'), ...filterMembers(filters)].forEach(
      (id) => used.add(id),
    );
  }
  return { fields: inSchemaOrder(schema, withSources(index.byId, used)), views };
}

/** Fields of `schema` in its order. */
const inSchemaOrder = (schema: DatasetSchema, ids: ReadonlySet<string>) =>
  schema.fields.filter((field) => ids.has(field.id)).map((field) => field.id);

/**
 * The fields an explorer view's grid shows, as ExplorerView draws them: its row groups, its pivot (with a value to
 * spread) and its value columns that are not hidden. A baseline on a metric the grid does not show serves nothing
 * of that metric: the link serves what the view shows, no more. Null when the grid cannot run (a group or pivot that is no dimension of the dataset) or shows nothing.
 */
function explorerShown(config: ExplorerConfig, index: FieldIndex): string[] | null {
  const layout = gridLayout(config);
  const isA = (type: Field['type']) => (id: string) => index.get(id)?.type === type;
  const hidden = new Set(columnsOf(config).flatMap((column) => (column.hide ? [column.colId] : [])));
  const metrics = layout.metrics.filter((id) => isA('metric')(id) && !hidden.has(id));
  const pivot = metrics.length && layout.pivot ? [layout.pivot] : [];
  const groups = [...layout.rowGroups, ...pivot];
  if (!groups.every(isA('dimension')) || groups.length + metrics.length === 0) return null;
  return [...groups, ...metrics];
}

/**
 * What an explorer view's public link serves (issue 15): of its own dataset only, the date fields, the fields its
 * grid shows and filters by with their sources, and one scope holding the row conditions of its filter model,
 * compiled as the grid compiles them. Filters on a metric's aggregated value pick groups after aggregation, so they
 * do not narrow rows. A filter model the engine cannot read, or a grid that shows nothing, serves no rows.
 */
export function explorerPublicScope(
  config: ExplorerConfig,
  schema: DatasetSchema,
  table: string,
): PublicDatasetScope | null {
  if (datasetOfExplorer(config) !== schema.id) return null;
  const index = new FieldIndex(schema);
  const used = new Set<string>([schema.dateField]);
  // The grid's date field when the dataset has it as a date, as the grid reads it.
  if (config.dateField && index.get(config.dateField)?.format === 'date') used.add(config.dateField);
  const shown = explorerShown(config, index);
  let filters: Filter[] = [];
  let conditions: string[] | null = null;
  try {
    filters = gridFilters(config.filterModel, index);
    // One filter at a time, so conditions can be compared between versions; aggregate ones have no WHERE part.
    conditions = filters.flatMap((filter) => compileFilters([filter], { fields: index, table }).where ?? []);
  } catch {
    // The grid clears a model it cannot read and shows every row: the public link serves none rather than those.
  }
  if (!shown || !conditions) return { fields: inSchemaOrder(schema, withSources(index.byId, used)), views: [] };
  [...shown, ...filterMembers(filters)].forEach((id) => used.add(id));
  return { fields: inSchemaOrder(schema, withSources(index.byId, used)), views: [conditions] };
}

/** The SQL condition of the rows a scope serves. */
export function scopeCondition(scope: PublicDatasetScope): string {
  if (scope.views.length === 0) return 'FALSE';
  if (scope.views.some((conditions) => conditions.length === 0)) return 'TRUE';
  return scope.views.map((conditions) => `(${conditions.map((sql) => `(${sql})`).join(' AND ')})`).join(' OR ');
}

/**
 * True when `next` may serve something `previous` did not: a field more, or a widget scope whose rows are not
 * provably within one of the previous scopes (every condition of that previous scope is among its own). Adding a
 * filter narrows; removing or loosening one widens.
 */
export function scopeWidens(previous: PublicDatasetScope | null, next: PublicDatasetScope | null): boolean {
  if (!next || next.views.length === 0) return false;
  if (!previous) return true;
  if (next.fields.some((id) => !previous.fields.includes(id))) return true;
  return next.views.some(
    (conditions) => !previous.views.some((before) => before.every((condition) => conditions.includes(condition))),
  );
}
