import { z } from 'zod';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type ReportFilter } from '../../contracts/reports';
import { DEFAULT_OUTLIER_SENSITIVITY, type FilterOperator, filterOperators } from '../../engine/filters';

/**
 * What the operator picker shows: the spec's labels (spec 3 "Filter inputs": Is, Is not, Does not contain, Is empty,
 * Is not empty), and plain words in the same style for the operators the spec names only by id.
 */
export const operatorLabels: Record<FilterOperator, string> = {
  equals: 'Is',
  notEquals: 'Is not',
  contains: 'Contains',
  notContains: 'Does not contain',
  startsWith: 'Starts with',
  endsWith: 'Ends with',
  set: 'Is not empty',
  notSet: 'Is empty',
  gt: 'Greater than',
  gte: 'Greater than or equal to',
  lt: 'Less than',
  lte: 'Less than or equal to',
  inRange: 'Between',
  outlierHigh: 'Unusually high',
  outlierLow: 'Unusually low',
  outlier: 'Unusually high or low',
  inDateRange: 'In date range',
  notInDateRange: 'Not in date range',
  beforeDate: 'Before',
  afterDate: 'After',
};

export const REQUIRED = 'This field is required';
export const UNKNOWN_FIELD = 'This field is not in the dataset';
export const UNKNOWN_OPERATOR = 'This operator is not supported';

const TEXT_OPERATORS: FilterOperator[] = ['contains', 'notContains', 'startsWith', 'endsWith'];
const NUMBER_OPERATORS: FilterOperator[] = ['gt', 'gte', 'lt', 'lte', 'inRange'];
const DATE_OPERATORS: FilterOperator[] = ['inDateRange', 'notInDateRange', 'beforeDate', 'afterDate'];
const OUTLIER_OPERATORS: FilterOperator[] = ['outlierHigh', 'outlierLow', 'outlier'];
const NUMERIC_DIMENSION_FORMATS = new Set<Field['format']>(['weekday', 'month']);

export const isFilterOperator = (operator: string | undefined): operator is FilterOperator =>
  (filterOperators as readonly string[]).includes(operator ?? '');

/** set and notSet take no values (spec 2 §5). */
export const takesNoValues = (operator: string | undefined) => operator === 'set' || operator === 'notSet';

/**
 * The operators a field offers, by its kind: text, numeric and date dimensions, and metrics (whose outlier
 * operators the engine supports on metrics only). Fields with the no_set_filter feature do not offer set/notSet.
 */
export function operatorsFor(field: Field): FilterOperator[] {
  const base: FilterOperator[] = ['equals', 'notEquals'];
  let operators: FilterOperator[];
  if (field.type === 'metric') operators = [...base, ...NUMBER_OPERATORS, 'set', 'notSet', ...OUTLIER_OPERATORS];
  else if (field.format === 'date') operators = [...base, 'set', 'notSet', ...DATE_OPERATORS];
  else if (NUMERIC_DIMENSION_FORMATS.has(field.format)) operators = [...base, 'set', 'notSet', ...NUMBER_OPERATORS];
  else operators = [...base, ...TEXT_OPERATORS, 'set', 'notSet'];
  return field.features.includes('no_set_filter') ? operators.filter((op) => !takesNoValues(op)) : operators;
}

/** How a row asks for its values. */
export type ValueInput = 'distinct' | 'text' | 'none' | 'number' | 'range' | 'date' | 'dateRange' | 'sensitivity';

export function valueInputOf(operator: string | undefined): ValueInput {
  switch (operator) {
    case 'equals':
    case 'notEquals':
      return 'distinct';
    case 'set':
    case 'notSet':
      return 'none';
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return 'number';
    case 'inRange':
      return 'range';
    case 'beforeDate':
    case 'afterDate':
      return 'date';
    case 'inDateRange':
    case 'notInDateRange':
      return 'dateRange';
    case 'outlierHigh':
    case 'outlierLow':
    case 'outlier':
      return 'sensitivity';
    default:
      return 'text';
  }
}

/** The values a row starts with under `operator`: the default sensitivity for outliers, else none. */
export const initialValuesFor = (operator: string): string[] =>
  valueInputOf(operator) === 'sensitivity' ? [DEFAULT_OUTLIER_SENSITIVITY] : [];

/**
 * The filter members a form offers (spec 2 §5, spec 3 §5): the dataset's dimensions that are not hidden or URLs,
 * then its visible measures but gauges (a metric filter compares each row's value, or with the aggregate flag the
 * grouped value).
 */
export const filterableFields = (schema: DatasetSchema): Field[] => [
  ...schema.fields.filter(
    (field) => field.type === 'dimension' && !field.features.includes('hide') && field.format !== 'url',
  ),
  ...conditionFields(schema),
];

/**
 * What a form's rows are about: filters pick dimensions and measures; an alert's conditions test metrics, so they
 * offer the visible measures only, gauges left out (spec 3 §5 Filter inputs).
 */
export type FilterFormKind = 'filters' | 'conditions';

export function conditionFields(schema: DatasetSchema): Field[] {
  return schema.fields.filter(
    (field) => field.type === 'metric' && !field.features.includes('hide') && !field.features.includes('gauge'),
  );
}

/** A condition tests an aggregated value, which is always there: set and notSet have no meaning on it. */
export const operatorsOfKind = (kind: FilterFormKind, field: Field): FilterOperator[] =>
  kind === 'conditions' ? operatorsFor(field).filter((operator) => !takesNoValues(operator)) : operatorsFor(field);

export const fieldsOfKind = (kind: FilterFormKind, schema: DatasetSchema): Field[] =>
  kind === 'conditions' ? conditionFields(schema) : filterableFields(schema);

/**
 * How a row of this field asks for its values: a metric has no distinct values to pick from, so its equals and
 * notEquals take a number like the comparisons do.
 */
export function valueInputFor(field: Field | undefined, operator: string | undefined): ValueInput {
  const input = valueInputOf(operator);
  return input === 'distinct' && field?.type === 'metric' ? 'number' : input;
}

/** Metric-value inputs keep digits and one period; a comma becomes a period (spec 3 §5). */
export function metricText(text: string): string {
  const kept = text.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const period = kept.indexOf('.');
  return period < 0 ? kept : `${kept.slice(0, period + 1)}${kept.slice(period + 1).replace(/\./g, '')}`;
}

/** Twelve significant digits drop the binary noise of ×100 and ÷100 (0.07 × 100 is 7.000000000000001). */
const tidy = (value: number) => String(Number(value.toPrecision(12)));

/** Percent values are shown multiplied by 100 and stored divided by 100 (spec 3 §5); others as they are. */
export function shownValue(field: Field | undefined, stored: string): string {
  if (field?.format !== 'percent' || stored === '' || !Number.isFinite(Number(stored))) return stored;
  return tidy(Number(stored) * 100);
}

export function storedValue(field: Field | undefined, shown: string): string {
  if (field?.format !== 'percent' || shown === '' || !Number.isFinite(Number(shown))) return shown;
  return tidy(Number(shown) / 100);
}

/** The outlier sensitivity slider (spec 3 §5): -4 to 0 in quarter steps, stored with 3 decimals. */
export const SENSITIVITY_MIN = -4;
export const SENSITIVITY_MAX = 0;
export const SENSITIVITY_STEP = 0.25;
const SENSITIVITY_LABELS = ['Low', 'Medium/Low', 'Medium', 'Medium/High', 'High sensitivity'];

export const storedSensitivity = (value: number) => value.toFixed(3);

/** The slider's position for a stored value; the default for anything unreadable or out of range. */
export function sensitivityOf(values: readonly string[] | undefined): number {
  const value = Number(values?.[0] ?? DEFAULT_OUTLIER_SENSITIVITY);
  return Number.isFinite(value) && value >= SENSITIVITY_MIN && value <= SENSITIVITY_MAX
    ? value
    : Number(DEFAULT_OUTLIER_SENSITIVITY);
}

/** The label under each whole step: -4 is Low, 0 is High sensitivity. */
export const sensitivityLabel = (value: number): string =>
  SENSITIVITY_LABELS[Math.round(value - SENSITIVITY_MIN)] ?? '';

/** Switching the operator resets the values (spec 2 §5). */
export function withOperator(filter: ReportFilter, operator: string): ReportFilter {
  if (filter.operator === operator) return filter;
  return { ...filter, operator, values: initialValuesFor(operator) };
}

/** A new member keeps the operator when the new field offers it; the values always start again. */
export function withMember(filter: ReportFilter, member: string, schema: DatasetSchema): ReportFilter {
  if (filter.member === member) return filter;
  const field = schema.fields.find((candidate) => candidate.id === member);
  const offered = field ? operatorsFor(field) : [];
  const operator =
    filter.operator && offered.includes(filter.operator as FilterOperator) ? filter.operator : offered[0];
  // The aggregate flag belongs to metric filters: a dimension drops it.
  const { aggregate, ...rest } = filter;
  return {
    ...rest,
    ...(aggregate !== undefined && field?.type === 'metric' && { aggregate }),
    member,
    operator,
    values: operator ? initialValuesFor(operator) : [],
  };
}

/** Removing a value: the row keeps the others (an emptied row stops counting until it has values again). */
export const withoutValue = (filter: ReportFilter, value: string): ReportFilter => ({
  ...filter,
  values: (filter.values ?? []).filter((candidate) => candidate !== value),
});

export type FilterIssues = Partial<Record<'member' | 'operator' | 'values', string>>;

/** The filter form's rules for one top-level row against a dataset (spec 2 §5 Filter form). */
export function filterRowSchema(schema: DatasetSchema) {
  const ids = new Set(schema.fields.map((field) => field.id));
  return z
    .object({
      member: z
        .string(REQUIRED)
        .min(1, REQUIRED)
        .refine((id) => ids.has(id), UNKNOWN_FIELD),
      operator: z.string(REQUIRED).min(1, REQUIRED).refine(isFilterOperator, UNKNOWN_OPERATOR),
      values: z.array(z.string().min(1, REQUIRED)).default([]),
    })
    .superRefine((filter, ctx) => {
      const input = valueInputOf(filter.operator);
      const needed =
        input === 'none' || input === 'sensitivity' ? 0 : input === 'range' || input === 'dateRange' ? 2 : 1;
      if (filter.values.length < needed) ctx.addIssue({ code: 'custom', path: ['values'], message: REQUIRED });
    });
}

/**
 * The issues of each top-level row, by index; an empty object for a valid row. Nested and/or groups are
 * shown as they are and not checked here.
 */
export function validateFilters(schema: DatasetSchema, filters: readonly ReportFilter[]): FilterIssues[] {
  const rowSchema = filterRowSchema(schema);
  return filters.map((filter) => {
    if (filter.and || filter.or) return {};
    const result = rowSchema.safeParse(filter);
    if (result.success) return {};
    const issues: FilterIssues = {};
    for (const issue of result.error.issues) {
      const key = issue.path[0];
      if ((key === 'member' || key === 'operator' || key === 'values') && !issues[key]) issues[key] = issue.message;
    }
    return issues;
  });
}
