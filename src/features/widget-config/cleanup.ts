import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type ReportFilter, type Widget } from '../../contracts/reports';
import { widgetDefinition } from '../widgets/registry';
import { takesNoValues } from './filterRules';

const fieldOf = (schema: DatasetSchema, id: string | null | undefined, type: Field['type']): Field | undefined =>
  id ? schema.fields.find((field) => field.id === id && field.type === type) : undefined;

const keep = (schema: DatasetSchema, ids: readonly string[], type: Field['type']) =>
  ids.filter((id) => fieldOf(schema, id, type));

/**
 * Filters without the ones on fields that are not dimensions of the dataset; and/or groups keep what
 * remains and disappear when nothing does. Rows still being filled in (no member yet) stay.
 */
export function filtersInDataset(filters: readonly ReportFilter[], schema: DatasetSchema): ReportFilter[] {
  return filters.flatMap((filter): ReportFilter[] => {
    if (filter.and || filter.or) {
      const group: ReportFilter = { ...filter };
      if (filter.and) group.and = filtersInDataset(filter.and, schema);
      if (filter.or) group.or = filtersInDataset(filter.or, schema);
      return group.and?.length || group.or?.length ? [group] : [];
    }
    return filter.member && !fieldOf(schema, filter.member, 'dimension') ? [] : [filter];
  });
}

/**
 * The filters that count (spec 2 §5): a member among the dataset's dimensions, a known operator, and
 * non-empty values unless the operator is set or notSet. Groups keep their counting members.
 */
export function countingFilters(filters: readonly ReportFilter[], schema: DatasetSchema): ReportFilter[] {
  return filters.flatMap((filter): ReportFilter[] => {
    if (filter.and || filter.or) {
      const and = countingFilters(filter.and ?? [], schema);
      const or = countingFilters(filter.or ?? [], schema);
      if (filter.and && and.length) return [{ and }];
      if (filter.or && or.length) return [{ or }];
      return [];
    }
    if (!fieldOf(schema, filter.member, 'dimension') || !filter.operator) return [];
    if (takesNoValues(filter.operator)) return [{ member: filter.member, operator: filter.operator }];
    const values = (filter.values ?? []).filter((value) => value !== '');
    return values.length ? [{ ...filter, values }] : [];
  });
}

/** How many filters count, nested ones included: the number a filter button shows. */
export function countFilters(filters: readonly ReportFilter[], schema: DatasetSchema): number {
  return countingFilters(filters, schema).reduce(
    (count, filter) =>
      count + (filter.and || filter.or ? countFilters([...(filter.and ?? []), ...(filter.or ?? [])], schema) : 1),
    0,
  );
}

/**
 * A widget's settings reduced to what its dataset has (spec 2 §4 Widget configuration cleanup): metrics,
 * dimensions, groupBy, filters and metric-by-dimension pairs that the dataset lacks are dropped, a single
 * metric or dimension picker whose choice is missing resets to empty, an unknown date field falls back to
 * the dataset's own; then the widget kind's own rules apply (a graph's stacked bars of ratios turn grouped).
 * Returns the same widget when nothing changes.
 */
export function cleanWidget(widget: Widget, schema: DatasetSchema): Widget {
  const next: Widget = { ...widget };
  if (widget.metrics) next.metrics = keep(schema, widget.metrics, 'metric');
  if (widget.funnelMetrics) next.funnelMetrics = keep(schema, widget.funnelMetrics, 'metric');
  if (widget.dimensions) next.dimensions = keep(schema, widget.dimensions, 'dimension');
  if (widget.groupBy) next.groupBy = keep(schema, widget.groupBy, 'dimension');
  if (widget.dimension && !fieldOf(schema, widget.dimension, 'dimension')) next.dimension = null;
  if (widget.conversionMetric && !fieldOf(schema, widget.conversionMetric, 'metric')) next.conversionMetric = '';
  const dateField = fieldOf(schema, widget.dateField, 'dimension');
  if (widget.dateField && dateField?.format !== 'date') delete next.dateField;
  if (widget.filters) next.filters = filtersInDataset(widget.filters, schema);
  if (widget.metricsByDimensions) {
    next.metricsByDimensions = widget.metricsByDimensions
      .filter((pair) => fieldOf(schema, pair.metric, 'metric') && fieldOf(schema, pair.dimension, 'dimension'))
      .map((pair) => (pair.filters ? { ...pair, filters: filtersInDataset(pair.filters, schema) } : pair));
  }
  const common = JSON.stringify(next) === JSON.stringify(widget) ? widget : next;
  return widgetDefinition(widget.type)?.cleanup?.(common, schema) ?? common;
}
