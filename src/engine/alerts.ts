import { type AlertDetailRow, type AlertResult, MAX_ALERT_DETAIL_ROWS } from '../contracts/alerting';
import { type DatasetSchema, type Field } from '../contracts/datasets';
import { addDays } from './dates';
import { FieldIndex, PERIOD, dimensionValue } from './fields';
import { compileFilters } from './filters';
import { type Period, pipelineSql } from './pipeline';
import { QueryBuildError, ident } from './sql';

/** What the evaluation reads of a rule. */
export interface AlertRuleQuery {
  dateField: string;
  filters: { member: string; operator: string; values: string[] }[];
  conditions: { member: string; operator: string; values: string[] }[];
  dimension: string | null;
  duration: number;
}

/** Output columns of the evaluation SQL besides the condition metrics. */
const GROUP = '__group';
const FIRED = '__fired';
const conditionColumn = (index: number) => `__c${index}`;

/** The distinct metrics a rule's conditions test, in the order they first appear. */
export function alertMetrics(rule: AlertRuleQuery): string[] {
  return [...new Set(rule.conditions.map((condition) => condition.member))];
}

/**
 * The one SQL of a rule's evaluation, the same in the browser and on the server. For each day D of `days`, the
 * rule's filters select rows, and the condition metrics are aggregated over the `duration` days ending at D (one
 * period per day, named by D), per value of `dimension` when set. Each condition is then the engine's aggregate
 * filter turned into a column: gt/gte/lt/lte/equals/notEquals/inRange compare the aggregate, and outlier
 * conditions use the engine's outlier rule (mean ± |sensitivity| standard deviations) over the groups of the same
 * day when grouped, and over the days evaluated when not (a lone total has no peers on its own day).
 * One row per day and group: the group, the metrics, each condition's result, and `__fired` when all hold.
 */
export function alertEvaluationSql(schema: DatasetSchema, rule: AlertRuleQuery, days: string[]): string {
  if (rule.conditions.length === 0) throw new QueryBuildError('An alert needs at least one condition');
  if (days.length === 0) throw new QueryBuildError('An alert is evaluated for at least one day');
  const fields = new FieldIndex(schema);
  const metrics: Field[] = alertMetrics(rule).map((id) => fields.metric(id));
  const periods: Period[] = days.map((day) => ({
    name: day,
    range: { start: addDays(day, 1 - rule.duration), end: day },
  }));
  const keys = rule.dimension
    ? [{ alias: GROUP, sql: `CAST(${dimensionValue(fields, fields.dimension(rule.dimension))} AS VARCHAR)` }]
    : [];
  const conditions = rule.conditions.map((condition, index) => {
    const compiled = compileFilters([{ ...condition, aggregate: true }], {
      fields,
      table: schema.tableId,
      groupPartition: rule.dimension ? PERIOD : undefined,
    });
    const sql = compiled.having ?? compiled.qualify;
    if (!sql) throw new QueryBuildError(`Unsupported condition on "${condition.member}"`);
    return { alias: conditionColumn(index), sql };
  });
  const grouped = pipelineSql({
    fields,
    dateField: rule.dateField,
    periods,
    filters: rule.filters,
    keys,
    metrics,
    periodMode: 'group',
    extraColumns: conditions,
  });
  const all = conditions.map((condition) => ident(condition.alias)).join(' AND ');
  const group = rule.dimension ? ident(GROUP) : 'NULL';
  return (
    `SELECT period AS day, ${group} AS ${GROUP}, ${metrics.map((metric) => ident(metric.id)).join(', ')}, ` +
    `${conditions.map((condition) => ident(condition.alias)).join(', ')}, ${all} AS ${FIRED} ` +
    `FROM (${grouped}) ORDER BY day, ${FIRED} DESC NULLS LAST, ${GROUP} NULLS LAST`
  );
}

const toNumber = (value: unknown): number | null => {
  if (value === null || value === undefined) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
};
const toResult = (value: unknown): boolean | null => (value === null || value === undefined ? null : Boolean(value));

/**
 * Reads the evaluation's rows into one result per day, oldest first. A day is true when every condition holds
 * for at least one group, false when some group has values and none fires, and null when no row has data (or
 * every test is unknown, e.g. a ratio over nothing).
 */
export function alertResultsFromRows(
  rule: AlertRuleQuery,
  days: string[],
  rows: readonly Record<string, unknown>[],
): AlertResult[] {
  const metrics = alertMetrics(rule);
  const byDay = new Map<string, AlertDetailRow[]>(days.map((day) => [day, []]));
  for (const row of rows) {
    const list = byDay.get(String(row.day));
    if (!list) continue;
    const values = Object.fromEntries(metrics.map((id) => [id, toNumber(row[id])]));
    list.push({ group: row[GROUP] == null ? null : String(row[GROUP]), values, result: toResult(row[FIRED]) });
  }
  return days.map((day) => {
    const groups = byDay.get(day) ?? [];
    const result = groups.some((group) => group.result === true)
      ? true
      : groups.some((group) => group.result === false)
        ? false
        : null;
    return {
      rangeStart: addDays(day, 1 - rule.duration),
      rangeEnd: day,
      result,
      details: {
        dimension: rule.dimension,
        metrics,
        results: groups.slice(0, MAX_ALERT_DETAIL_ROWS),
        total: groups.length,
      },
    };
  });
}

/** The `count` days ending at `last`, oldest first. */
export function daysEnding(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => addDays(last, index + 1 - count));
}

/** True when a rule's single-day result depends on other days: an ungrouped outlier is judged against them. */
export function needsHistory(rule: AlertRuleQuery): boolean {
  return !rule.dimension && rule.conditions.some((condition) => condition.operator.startsWith('outlier'));
}
