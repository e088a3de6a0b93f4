import { z } from 'zod';
import { type Field } from '../contracts/datasets';
import { type FieldIndex, dimensionValue, metricAggregate, metricRowValue } from './fields';
import { QueryBuildError, dateLit, ident, num, str } from './sql';

/** Operators of spec 2 §3 and spec 3 §3. */
export const filterOperators = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'set',
  'notSet',
  'gt',
  'gte',
  'lt',
  'lte',
  'inRange',
  'outlierHigh',
  'outlierLow',
  'outlier',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'afterDate',
] as const;
export type FilterOperator = (typeof filterOperators)[number];

/** Outlier sensitivity (spec 3 §5): -4 (low) to 0 (high), default -2.0; the band is mean ± |s| standard deviations. */
export const DEFAULT_OUTLIER_SENSITIVITY = '-2.0';

export interface MemberFilter {
  member: string;
  /** Kept a plain string so an operator the engine does not know fails with a clear error, not a parse error. */
  operator: string;
  values?: string[];
  /** On a metric: filter groups by the aggregated value (HAVING) rather than rows (WHERE). */
  aggregate?: boolean;
}
export type Filter = MemberFilter | { and: Filter[] } | { or: Filter[] };

export const filterSchema: z.ZodType<Filter, Filter> = z.lazy(() =>
  z.union([
    z.object({
      member: z.string(),
      operator: z.string(),
      values: z.array(z.string()).optional(),
      aggregate: z.boolean().optional(),
    }),
    z.object({ and: z.array(filterSchema) }),
    z.object({ or: z.array(filterSchema) }),
  ]),
);

/** Where a compiled condition belongs: rows before grouping, groups after, or groups against other groups. */
type Stage = 'where' | 'having' | 'qualify';
interface Condition {
  stage: Stage;
  sql: string;
}

export interface CompiledFilters {
  where?: string;
  having?: string;
  /** Aggregate outlier filters compare a group with all groups: a window over the grouped rows. */
  qualify?: string;
}

export interface FilterContext {
  fields: FieldIndex;
  /** The table, for row-level outlier bands computed over the whole dataset. */
  table: string;
  /** Window partition of aggregate outliers (e.g. per period) so each period has its own band. */
  groupPartition?: string;
  /** Restricts aggregate filters to some rows (the main period of a pivoted comparison). */
  aggregateCondition?: string;
}

const text = (expr: string) => `lower(CAST(${expr} AS VARCHAR))`;

function isNumericField(field: Field): boolean {
  return field.type === 'metric' || field.format === 'weekday' || field.format === 'month';
}

/** Filter values as the form stores them; country UK is the same market as GB (DATA-CATALOGUE). */
function normalisedValues(field: Field, values: string[]): string[] {
  if (field.format !== 'country') return values;
  return [...new Set(values.flatMap((value) => (value.toUpperCase() === 'UK' ? ['GB', 'UK'] : [value])))];
}

function sensitivity(values: string[]): string {
  const raw = values[0] ?? DEFAULT_OUTLIER_SENSITIVITY;
  const value = Number(num(raw));
  if (value < -4 || value > 0) throw new QueryBuildError(`Invalid outlier sensitivity "${raw}"`);
  return String(Math.abs(value));
}

function outlierSql(operator: string, value: string, band: (fn: 'avg' | 'stddev_pop') => string, k: string): string {
  const high = `${value} > ${band('avg')} + ${k} * ${band('stddev_pop')}`;
  const low = `${value} < ${band('avg')} - ${k} * ${band('stddev_pop')}`;
  if (operator === 'outlierHigh') return high;
  if (operator === 'outlierLow') return low;
  return `(${high} OR ${low})`;
}

/** The filtered value in the forms the operators compare, with the filter's values. */
interface Operand {
  field: Field;
  /** The value itself: the row's value, or the group's aggregate for an aggregate filter. */
  expr: string;
  /** As a date: the stored column where the field has no rules, so a DATE column keeps its fast comparison. */
  day: string;
  numeric: string;
  asText: string;
  /** The filter's values, normalised to the field's type. */
  values: string[];
  aggregate: boolean;
}

/** One operator's condition over the operand. */
function operatorSql(operator: FilterOperator, operand: Operand, ctx: FilterContext): string {
  const { field, expr, day, numeric, asText, values, aggregate } = operand;
  switch (operator) {
    case 'equals':
      return field.type === 'metric'
        ? `${expr} IN (${values.map(num).join(', ')})`
        : `${asText} IN (${values.map(str).join(', ')})`;
    case 'notEquals':
      return field.type === 'metric'
        ? `(${expr} IS NULL OR ${expr} NOT IN (${values.map(num).join(', ')}))`
        : `(${expr} IS NULL OR ${asText} NOT IN (${values.map(str).join(', ')}))`;
    case 'contains':
      return `(${values.map((v) => `contains(${text(expr)}, lower(${str(v)}))`).join(' OR ')})`;
    case 'notContains':
      return `(${expr} IS NULL OR NOT (${values.map((v) => `contains(${text(expr)}, lower(${str(v)}))`).join(' OR ')}))`;
    case 'startsWith':
      return `(${values.map((v) => `starts_with(${text(expr)}, lower(${str(v)}))`).join(' OR ')})`;
    case 'endsWith':
      return `(${values.map((v) => `ends_with(${text(expr)}, lower(${str(v)}))`).join(' OR ')})`;
    case 'set':
      return `(${expr} IS NOT NULL AND ${asText} <> '')`;
    case 'notSet':
      return `(${expr} IS NULL OR ${asText} = '')`;
    case 'gt':
      return `${numeric} > ${num(values[0])}`;
    case 'gte':
      return `${numeric} >= ${num(values[0])}`;
    case 'lt':
      return `${numeric} < ${num(values[0])}`;
    case 'lte':
      return `${numeric} <= ${num(values[0])}`;
    case 'inRange': {
      if (values.length < 2) throw new QueryBuildError('inRange needs a minimum and a maximum');
      return `${numeric} BETWEEN ${num(values[0])} AND ${num(values[1])}`;
    }
    case 'inDateRange':
    case 'notInDateRange': {
      if (values.length < 2) throw new QueryBuildError(`${operator} needs a start and an end date`);
      const between = `${day} BETWEEN ${dateLit(values[0])} AND ${dateLit(values[1])}`;
      return operator === 'inDateRange' ? between : `(${expr} IS NULL OR NOT (${between}))`;
    }
    case 'beforeDate':
      return `${day} < ${dateLit(values[0])}`;
    case 'afterDate':
      return `${day} > ${dateLit(values[0])}`;
    case 'outlierHigh':
    case 'outlierLow':
    case 'outlier': {
      if (field.type !== 'metric') throw new QueryBuildError(`Unsupported filter: outliers need a metric`);
      const k = sensitivity(values);
      if (aggregate) {
        const over = `OVER (${ctx.groupPartition ? `PARTITION BY ${ctx.groupPartition}` : ''})`;
        return outlierSql(operator, expr, (fn) => `${fn}(${expr}) ${over}`, k);
      }
      // Row outliers are measured against the whole dataset, the same band whatever else is filtered.
      return outlierSql(operator, expr, (fn) => `(SELECT ${fn}(${expr}) FROM ${ident(ctx.table)})`, k);
    }
  }
}

function memberCondition(filter: MemberFilter, ctx: FilterContext): Condition | undefined {
  // A filter on a field the dataset does not have is ignored (spec 2 §5, spec 3 §4).
  const field = ctx.fields.get(filter.member);
  if (!field) return undefined;
  const operator = filter.operator;
  if (!(filterOperators as readonly string[]).includes(operator)) {
    throw new QueryBuildError(`Unsupported filter operator "${operator}"`);
  }
  const values = normalisedValues(
    field,
    (filter.values ?? []).filter((value) => value !== ''),
  );
  const needsValues = operator !== 'set' && operator !== 'notSet' && !operator.startsWith('outlier');
  // A filter counts only with values, except set and notSet (spec 2 §5).
  if (needsValues && values.length === 0) return undefined;

  const aggregate = filter.aggregate === true && field.type === 'metric';
  const stage: Stage = aggregate ? (operator.startsWith('outlier') ? 'qualify' : 'having') : 'where';
  let expr: string;
  if (aggregate) expr = metricAggregate(ctx.fields, field, ctx.aggregateCondition);
  else if (field.type === 'metric') expr = metricRowValue(ctx.fields, field);
  else expr = dimensionValue(ctx.fields, field);
  const day =
    field.type === 'dimension' && !field.rules?.length ? `CAST(${ident(field.id)} AS DATE)` : `CAST(${expr} AS DATE)`;
  const numeric = isNumericField(field) ? expr : `TRY_CAST(${expr} AS DOUBLE)`;
  const operand = { field, expr, day, numeric, asText: `CAST(${expr} AS VARCHAR)`, values, aggregate };
  return { stage, sql: operatorSql(operator as FilterOperator, operand, ctx) };
}

function combine(parts: Condition[], joiner: 'AND' | 'OR'): Condition {
  const stages = new Set(parts.map((part) => part.stage));
  if (stages.has('where') && stages.size > 1) {
    throw new QueryBuildError(
      `Unsupported filter: an "${joiner.toLowerCase()}" group inside an "or" cannot mix row and aggregate filters`,
    );
  }
  // Aggregate conditions may move to QUALIFY together: it sees both the groups' aggregates and windows.
  const stage: Stage = stages.has('qualify') ? 'qualify' : parts[0].stage;
  return {
    stage,
    sql: parts.length === 1 ? parts[0].sql : `(${parts.map((part) => `(${part.sql})`).join(` ${joiner} `)})`,
  };
}

function groupCondition(filters: Filter[], joiner: 'AND' | 'OR', ctx: FilterContext): Condition[] {
  if (joiner === 'AND') return filters.flatMap((filter) => compileOne(filter, ctx));
  // Each member of an or group becomes one condition, so an inner and keeps its own parentheses.
  const members = filters.map((filter) => compileOne(filter, ctx)).filter((parts) => parts.length > 0);
  if (members.length === 0) return [];
  return [
    combine(
      members.map((parts) => combine(parts, 'AND')),
      'OR',
    ),
  ];
}

function compileOne(filter: Filter, ctx: FilterContext): Condition[] {
  if ('and' in filter) return groupCondition(filter.and, 'AND', ctx);
  if ('or' in filter) return groupCondition(filter.or, 'OR', ctx);
  const condition = memberCondition(filter, ctx);
  return condition ? [condition] : [];
}

/** Compiles a list of filters (combined with and) into WHERE, HAVING and QUALIFY conditions. */
export function compileFilters(filters: Filter[] | undefined, ctx: FilterContext): CompiledFilters {
  const parts = groupCondition(filters ?? [], 'AND', ctx);
  const join = (stage: Stage) => {
    const sqls = parts.filter((part) => part.stage === stage).map((part) => part.sql);
    return sqls.length ? sqls.map((sql) => `(${sql})`).join(' AND ') : undefined;
  };
  return { where: join('where'), having: join('having'), qualify: join('qualify') };
}

/** The metrics aggregate filters refer to, so the pipeline knows whether gauge flags are needed. */
export function filterMembers(filters: Filter[] | undefined): string[] {
  return (filters ?? []).flatMap((filter) =>
    'and' in filter ? filterMembers(filter.and) : 'or' in filter ? filterMembers(filter.or) : [filter.member],
  );
}

/**
 * True when `filters` measure a row against every row of the dataset, whatever its day: a row outlier's band is
 * computed over the whole table (an aggregate outlier's over the query's own groups). Such a query reads every row.
 */
export function readsEveryRow(filters: readonly Filter[] | undefined): boolean {
  return (filters ?? []).some((filter) =>
    'and' in filter
      ? readsEveryRow(filter.and)
      : 'or' in filter
        ? readsEveryRow(filter.or)
        : filter.operator.startsWith('outlier') && filter.aggregate !== true,
  );
}
