import { type DatasetSchema, type Field } from '../contracts/datasets';
import {
  type FieldsById,
  type SqlRenderer,
  compileDimensionRules,
  compileMetricExpression,
  expressionOf,
  lookupField,
  sqlLiteral,
} from './dataModel/compile';
import { isLinearExpression, tokenize } from './dataModel/expression';
import { QueryBuildError, ident } from './sql';

/** Internal columns of the query pipeline; dataset fields never use the double-underscore prefix. */
export const PERIOD = '__period';
export const DAY = '__d';
export const LAST = '__last';

/** The fields of a dataset by id, for checking every identifier of a query description. */
export class FieldIndex {
  readonly byId: ReadonlyMap<string, Field>;

  constructor(readonly schema: DatasetSchema) {
    this.byId = new Map(schema.fields.map((field) => [field.id, field]));
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): Field | undefined {
    return this.byId.get(id);
  }

  /** A field the query cannot do without: an unknown id is an error rather than a silently different answer. */
  require(id: string, type?: Field['type']): Field {
    const field = this.byId.get(id);
    if (!field) throw new QueryBuildError(type === 'metric' ? `Metric not found: "${id}"` : `Field not found: "${id}"`);
    if (type && field.type !== type) throw new QueryBuildError(`"${id}" is not a ${type}`);
    return field;
  }

  metric(id: string): Field {
    return this.require(id, 'metric');
  }

  dimension(id: string): Field {
    return this.require(id, 'dimension');
  }

  /** A stored column the SQL may read (a metric's numerator, a count_distinct field). */
  column(id: string): string {
    this.require(id);
    return ident(id);
  }

  /** The date field of a query: the dataset's own unless another date field is chosen. */
  dateField(id: string | undefined): Field {
    const field = this.require(id ?? this.schema.dateField);
    if (field.format !== 'date') throw new QueryBuildError(`"${field.id}" is not a date field`);
    return field;
  }
}

/** A custom metric of the data model: an expression over other metrics rather than a stored column. */
export function isCustom(field: Field): boolean {
  return field.type === 'metric' && (field.agg?.type === 'custom' || field.expr !== undefined);
}

function renderer(fields: FieldIndex, condition: string | undefined): SqlRenderer {
  return {
    aggregate: (field) => metricAggregate(fields, field, condition),
    column: (field) => ident(field.id),
    literal: sqlLiteral,
  };
}

export function isGauge(field: Field): boolean {
  return field.features.includes('gauge');
}

/**
 * Sum-like metrics accumulate over days; ratios and snapshots do not. A custom metric is sum-like when its expression
 * is linear in sum-like metrics (`revenue - refunds`, no division), which takes the dataset's other fields: without
 * them it counts as a ratio.
 */
export function isAdditive(field: Field, fieldsById?: FieldsById, visiting: ReadonlySet<string> = new Set()): boolean {
  if (isGauge(field)) return false;
  if (!isCustom(field)) {
    const type = field.agg?.type ?? 'sum';
    return type === 'sum' || type === 'count_distinct';
  }
  const tokens = fieldsById && !visiting.has(field.id) ? tokenize(expressionOf(field) ?? '') : null;
  if (!tokens) return false;
  const inside = new Set([...visiting, field.id]);
  return isLinearExpression(tokens, (id) => {
    const used = lookupField(fieldsById!, id);
    return used !== undefined && isAdditive(used, fieldsById, inside);
  });
}

function withFilter(aggregate: string, conditions: string[]): string {
  return conditions.length ? `${aggregate} FILTER (WHERE ${conditions.join(' AND ')})` : aggregate;
}

/**
 * The aggregate SQL of a metric over the rows of a group, as DOUBLE so every result crosses to
 * JavaScript as a plain number. `condition` restricts the rows (a period of a pivoted comparison).
 * A gauge takes the rows of the group's last date (the pipeline's __last flag), never a sum over days.
 */
export function metricAggregate(fields: FieldIndex, field: Field, condition?: string): string {
  // Each metric of a custom expression is aggregated by its own rules (gauges, periods), then combined.
  if (isCustom(field))
    return `CAST(${compileMetricExpression(field, fields.byId, renderer(fields, condition))} AS DOUBLE)`;
  const conditions = condition ? [condition] : [];
  const agg = field.agg ?? { type: 'sum' as const };
  const column = ident(field.id);
  const rows = isGauge(field) ? [LAST, ...conditions] : conditions;
  let sql: string;
  switch (agg.type) {
    case 'sum':
      sql = withFilter(`SUM(${column})`, rows);
      break;
    case 'min':
      sql = withFilter(`MIN(${column})`, rows);
      break;
    case 'max':
      sql = withFilter(`MAX(${column})`, rows);
      break;
    case 'count_distinct':
      sql = withFilter(`COUNT(DISTINCT ${fields.column(agg.field)})`, rows);
      break;
    case 'weighted_avg':
      sql =
        `${withFilter(`SUM(${fields.column(agg.numerator)})`, rows)} / ` +
        `NULLIF(${withFilter(`SUM(${fields.column(agg.denominator)})`, rows)}, 0)`;
      break;
    case 'custom':
      throw new QueryBuildError('This metric is currently not supported');
  }
  return `CAST(${sql} AS DOUBLE)`;
}

/** A metric's value on one row, for row-level (non-aggregate) filters. */
export function metricRowValue(fields: FieldIndex, field: Field): string {
  if (isCustom(field)) {
    throw new QueryBuildError(`Unsupported filter: "${field.id}" can only be filtered as an aggregate`);
  }
  const agg = field.agg ?? { type: 'sum' as const };
  switch (agg.type) {
    case 'sum':
    case 'min':
    case 'max':
      return ident(field.id);
    case 'weighted_avg':
      return `(${fields.column(agg.numerator)} / NULLIF(${fields.column(agg.denominator)}, 0))`;
    case 'count_distinct':
    case 'custom':
      throw new QueryBuildError(`Unsupported filter: "${field.id}" can only be filtered as an aggregate`);
  }
}

/** A dimension's value on a row; dates leave as yyyy-MM-dd text so results stay plain and serialisable. */
export function dimensionValue(fields: FieldIndex, field: Field): string {
  if (field.rules?.length) return compileDimensionRules(field, fields.byId, renderer(fields, undefined));
  return field.format === 'date' ? `strftime(CAST(${ident(field.id)} AS DATE), '%Y-%m-%d')` : ident(field.id);
}
