import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type ReportFilter, type Widget } from '../../contracts/reports';
import { type DayRange } from '../../engine/dates';
import { type Filter } from '../../engine/filters';
import { type ResultColumns } from '../../store/engineApi';
import { type WidgetContext } from './types';

/** What every widget query shares: dataset, date field, the dashboard's ranges and all filters. */
export interface WidgetQueryScope {
  dataset: string;
  dateField?: string;
  range: DayRange;
  compare?: DayRange;
  filters: Filter[];
}

const NO_VALUE_OPERATORS = new Set(['set', 'notSet']);

/**
 * The filters that count (spec 2 §5): a member that exists in the dataset, an operator, and values
 * unless the operator is set or notSet. And/or groups keep the members that count and vanish when empty.
 */
export function effectiveFilters(filters: readonly ReportFilter[], schema: DatasetSchema): Filter[] {
  const ids = new Set(schema.fields.map((field) => field.id));
  const keep = (filter: ReportFilter): Filter | null => {
    if (filter.and || filter.or) {
      const and = (filter.and ?? []).map(keep).filter((f): f is Filter => f !== null);
      const or = (filter.or ?? []).map(keep).filter((f): f is Filter => f !== null);
      if (filter.and && and.length) return { and };
      if (filter.or && or.length) return { or };
      return null;
    }
    if (!filter.member || !filter.operator || !ids.has(filter.member)) return null;
    const values = (filter.values ?? []).filter((value) => value !== '');
    if (NO_VALUE_OPERATORS.has(filter.operator)) return { member: filter.member, operator: filter.operator };
    if (!values.length) return null;
    return { member: filter.member, operator: filter.operator, values, aggregate: filter.aggregate };
  };
  return filters.map(keep).filter((f): f is Filter => f !== null);
}

/** The query scope of a widget on its dashboard: its own filters and the global ones together. */
export function widgetQueryScope(widget: Widget, context: WidgetContext, schema: DatasetSchema): WidgetQueryScope {
  const dateField =
    widget.dateField && schema.fields.some((field) => field.id === widget.dateField && field.format === 'date')
      ? widget.dateField
      : undefined;
  const { main, compare } = context.ranges;
  return {
    dataset: schema.id,
    dateField,
    range: { start: main.start, end: main.end },
    compare: compare ? { start: compare.start, end: compare.end } : undefined,
    filters: effectiveFilters([...(widget.filters ?? []), ...context.filters], schema),
  };
}

/** The fields of `ids` of one type that the dataset has, in the given order (spec 2 §4 cleanup). */
export function fieldsOf(
  schema: DatasetSchema,
  ids: readonly string[] | null | undefined,
  type: Field['type'],
): Field[] {
  return (ids ?? []).flatMap((id) => schema.fields.find((field) => field.id === id && field.type === type) ?? []);
}

/** A field's label in widgets: its label, else its name. */
export const fieldLabel = (field: Field): string => field.label ?? field.name;

/** The rows of a columnar result as objects. */
export function resultRows(result: ResultColumns): Record<string, unknown>[] {
  return Array.from({ length: result.rowCount }, (_, index) =>
    Object.fromEntries(result.columns.map((column) => [column, result.data[column][index]])),
  );
}
