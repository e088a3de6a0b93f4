/**
 * Custom fields to SQL, for the query engine (browser) and the server alike.
 *
 *   compileMetricExpression(field, fieldsById, sql): string
 *     A custom metric (agg {type:'custom', expression} or `expr`) as an aggregate expression. Each field id of the
 *     expression becomes `sql.aggregate(referencedField)` (the engine passes its own aggregate so gauges and period
 *     filters apply), or, for a custom metric, its own compiled SQL. With a division the result is
 *     `((numerator) / NULLIF((denominator), 0))`: a ratio of aggregates, never an average of ratios.
 *
 *   compileDimensionRules(field, fieldsById, sql): string
 *     A rule-based dimension as `CASE WHEN <rule> THEN <result> … ELSE <rules_else> END` (first matching rule wins,
 *     NULL when there is no default). A rule's field is `sql.column(field)`, or that custom dimension's own CASE.
 *
 * `fieldsById` holds every field of the table (built-in and custom). `sql.literal` renders strings, numbers and
 * booleans; ids only ever reach SQL through `sql.aggregate` / `sql.column`. Both functions throw a
 * DataModelCompileError for a field that does not validate (unknown ids, cycles, bad expression).
 */
import type { Field } from '../../contracts/datasets';
import { tokenize } from './expression';

export class DataModelCompileError extends Error {
  override name = 'DataModelCompileError';
}

export interface SqlRenderer {
  /** SQL of a non-custom metric aggregated over a group, e.g. SUM("sent"). */
  aggregate(field: Field): string;
  /** SQL of a stored dimension's value on a row, e.g. "country". */
  column(field: Field): string;
  /** A safe SQL literal. */
  literal(value: string | number | boolean | null): string;
}

export type FieldsById = ReadonlyMap<string, Field> | Readonly<Record<string, Field>>;

export function lookupField(fieldsById: FieldsById, id: string): Field | undefined {
  return fieldsById instanceof Map ? fieldsById.get(id) : (fieldsById as Record<string, Field>)[id];
}

const quoteIdentifier = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** DuckDB/PostgreSQL literals: doubled quotes in strings, finite numbers only, TRUE/FALSE, NULL. */
export function sqlLiteral(value: string | number | boolean | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new DataModelCompileError(`Invalid number ${value}`);
    return String(value);
  }
  if (value.includes('\0')) throw new DataModelCompileError('Invalid text value');
  return `'${value.replace(/'/g, "''")}'`;
}

/** Plain SUM/MIN/MAX/COUNT DISTINCT/weighted average over quoted columns, for callers without their own. */
export function defaultSqlRenderer(fieldsById: FieldsById): SqlRenderer {
  return {
    column: (field) => quoteIdentifier(field.id),
    literal: sqlLiteral,
    aggregate(field) {
      const agg = field.agg ?? { type: 'sum' as const };
      const column = quoteIdentifier(field.id);
      switch (agg.type) {
        case 'sum':
          return `SUM(${column})`;
        case 'min':
          return `MIN(${column})`;
        case 'max':
          return `MAX(${column})`;
        case 'count_distinct':
          return `COUNT(DISTINCT ${quoteIdentifier(agg.field)})`;
        case 'weighted_avg':
          if (!lookupField(fieldsById, agg.numerator) || !lookupField(fieldsById, agg.denominator)) {
            throw new DataModelCompileError(`Unknown field in ${field.id}`);
          }
          return `(SUM(${quoteIdentifier(agg.numerator)}) / NULLIF(SUM(${quoteIdentifier(agg.denominator)}), 0))`;
        case 'custom':
          throw new DataModelCompileError(`${field.id} is a custom metric`);
      }
    },
  };
}

/** A custom metric's expression (either spelling); undefined for any other field. */
export function expressionOf(field: Field): string | undefined {
  return field.agg?.type === 'custom' ? field.agg.expression : field.expr;
}

function isCustomMetric(field: Field): boolean {
  return field.type === 'metric' && expressionOf(field) !== undefined;
}

export function compileMetricExpression(
  field: Field,
  fieldsById: FieldsById,
  sql: SqlRenderer,
  visiting: ReadonlySet<string> = new Set(),
): string {
  const expression = expressionOf(field);
  if (expression === undefined) throw new DataModelCompileError(`${field.id} has no expression`);
  if (visiting.has(field.id)) throw new DataModelCompileError(`${field.id} refers to itself`);
  const tokens = tokenize(expression);
  if (!tokens || tokens.length === 0) throw new DataModelCompileError(`Invalid expression of ${field.id}`);
  const inside = new Set([...visiting, field.id]);
  const parts: string[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'open') depth += 1;
    if (token.kind === 'close') depth -= 1;
    if (token.kind === 'operator' && token.text === '/' && depth === 0) {
      parts.push([]);
      continue;
    }
    const current = parts[parts.length - 1];
    if (token.kind === 'field') {
      const referenced = lookupField(fieldsById, token.text);
      if (!referenced || referenced.type !== 'metric') {
        throw new DataModelCompileError(`Unknown metric ${token.text} in ${field.id}`);
      }
      current.push(
        isCustomMetric(referenced)
          ? compileMetricExpression(referenced, fieldsById, sql, inside)
          : `(${sql.aggregate(referenced)})`,
      );
    } else if (token.kind === 'number') {
      current.push(sql.literal(Number(token.text)));
    } else {
      current.push(token.text);
    }
  }
  if (parts.length > 2 || depth !== 0) throw new DataModelCompileError(`Invalid expression of ${field.id}`);
  const [numerator, denominator] = parts.map((part) => part.join(' '));
  return denominator === undefined ? `(${numerator})` : `((${numerator}) / NULLIF((${denominator}), 0))`;
}

function ruleCondition(column: string, type: string, value: string | number | boolean, sql: SqlRenderer): string {
  const text = sql.literal(String(value));
  switch (type) {
    case 'equals':
      return `${column} = ${sql.literal(value)}`;
    case 'notEquals':
      return `${column} IS DISTINCT FROM ${sql.literal(value)}`;
    case 'contains':
      return `strpos(CAST(${column} AS VARCHAR), ${text}) > 0`;
    case 'notContains':
      return `coalesce(strpos(CAST(${column} AS VARCHAR), ${text}), 0) = 0`;
    case 'startsWith':
      return `starts_with(CAST(${column} AS VARCHAR), ${text})`;
    case 'endsWith':
      return `ends_with(CAST(${column} AS VARCHAR), ${text})`;
    default:
      throw new DataModelCompileError(`Unsupported rule condition ${type}`);
  }
}

/** A rule value typed after the field it is compared with (rule values often arrive as text from inputs). */
function typedValue(format: string, value: string | number | boolean): string | number | boolean {
  if (format === 'boolean') return value === true || value === 'true';
  if (format === 'country' && typeof value === 'string') {
    const code = value.trim().toUpperCase();
    return code === 'UK' ? 'GB' : code;
  }
  if (format === 'string' || format === 'url' || format === 'date') return String(value);
  const number = Number(value);
  if (!Number.isFinite(number)) throw new DataModelCompileError(`Invalid number ${String(value)}`);
  return number;
}

export function compileDimensionRules(
  field: Field,
  fieldsById: FieldsById,
  sql: SqlRenderer,
  visiting: ReadonlySet<string> = new Set(),
): string {
  const rules = field.rules ?? [];
  if (rules.length === 0) throw new DataModelCompileError(`${field.id} has no rules`);
  if (visiting.has(field.id)) throw new DataModelCompileError(`${field.id} refers to itself`);
  const inside = new Set([...visiting, field.id]);
  const branches = rules.map((rule) => {
    const target = lookupField(fieldsById, rule.field);
    if (!target || target.type !== 'dimension') {
      throw new DataModelCompileError(`Unknown dimension ${rule.field} in ${field.id}`);
    }
    const column = target.rules?.length ? compileDimensionRules(target, fieldsById, sql, inside) : sql.column(target);
    const value = typedValue(target.format, rule.value);
    const condition =
      target.format === 'date' && rule.type === 'equals'
        ? `CAST(${column} AS DATE) = CAST(${sql.literal(String(value))} AS DATE)`
        : ruleCondition(column, rule.type, value, sql);
    return `WHEN ${condition} THEN ${sql.literal(rule.result)}`;
  });
  return `CASE ${branches.join(' ')} ELSE ${sql.literal(field.rules_else ?? null)} END`;
}
