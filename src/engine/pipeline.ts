import { type Field } from '../contracts/datasets';
import { type DayRange } from './dates';
import { DAY, type FieldIndex, LAST, PERIOD, isGauge, metricAggregate } from './fields';
import { type Filter, compileFilters, filterMembers } from './filters';
import { QueryBuildError, dateLit, ident, str } from './sql';

export interface Period {
  name: string;
  range: DayRange;
}

/** A grouping key: SQL over the dataset's columns (and __d, the row's day) and its output column name. */
export interface Key {
  alias: string;
  sql: string;
}

export interface PipelineSpec {
  fields: FieldIndex;
  dateField?: string;
  periods: Period[];
  filters?: Filter[];
  keys: Key[];
  metrics: Field[];
  /**
   * group: one row per period and key (a `period` column); pivot: one row per key with the first
   * period's metrics under their ids and the others as `<id>__<period>`; single: one period, no column.
   */
  periodMode: 'group' | 'pivot' | 'single';
  /** Extra CTE definitions the keys or conditions refer to. */
  ctes?: string[];
  /** An extra row condition over the dataset's columns. */
  where?: string;
  /** Extra output columns over the grouped rows (e.g. the number of days with data). */
  extraColumns?: Key[];
  orderBy?: string;
  limit?: number;
  offset?: number;
}

function periodColumn(metric: Field, period: Period, index: number): string {
  return index === 0 ? metric.id : `${metric.id}__${period.name}`;
}

/**
 * The answer's columns, in order, each with its select-list entry over the grouped rows: the period (group mode), the
 * keys, the metrics (pivot: each period's), then the extra columns. `keys` name each key's internal column.
 */
function selectList(spec: PipelineSpec, keys: (Key & { internal: string })[]): Key[] {
  const { fields } = spec;
  const as = (alias: string, sql: string) => ({ alias, sql: `${sql} AS ${ident(alias)}` });
  const metrics =
    spec.periodMode === 'pivot'
      ? spec.periods.flatMap((period, index) =>
          spec.metrics.map((metric) =>
            as(periodColumn(metric, period, index), metricAggregate(fields, metric, `${PERIOD} = ${str(period.name)}`)),
          ),
        )
      : spec.metrics.map((metric) => as(metric.id, metricAggregate(fields, metric)));
  return [
    ...(spec.periodMode === 'group' ? [{ alias: 'period', sql: `${PERIOD} AS period` }] : []),
    ...keys.map((key) => as(key.alias, key.internal)),
    ...metrics,
    ...(spec.extraColumns ?? []).map((column) => as(column.alias, column.sql)),
  ];
}

/** The names of the columns `pipelineSql(spec)` answers, in their order. */
export function pipelineColumns(spec: PipelineSpec): string[] {
  return selectList(
    spec,
    spec.keys.map((key, index) => ({ ...key, internal: `__k${index}` })),
  ).map((column) => column.alias);
}

/**
 * The one shape of every aggregate query: the rows of each period (tagged __period, with __d the
 * row's day), grouped by keys, with metrics aggregated by their agg, and aggregate filters after grouping.
 * Gauges need the last day of each group, flagged in a window partitioned exactly like the grouping.
 */
export function pipelineSql(spec: PipelineSpec): string {
  if (spec.periods.length === 0) throw new QueryBuildError('A query needs a date range');
  if (spec.periodMode === 'single' && spec.periods.length !== 1) throw new QueryBuildError('One period expected');
  const { fields } = spec;
  const table = ident(fields.schema.tableId);
  const date = `CAST(${ident(fields.dateField(spec.dateField).id)} AS DATE)`;
  const pivot = spec.periodMode === 'pivot';
  const main = spec.periods[0].name;
  const filters = compileFilters(spec.filters, {
    fields,
    table: fields.schema.tableId,
    groupPartition: spec.periodMode === 'group' ? PERIOD : undefined,
    aggregateCondition: pivot ? `${PERIOD} = ${str(main)}` : undefined,
  });

  const rowConditions = [filters.where, spec.where].filter(Boolean);
  const base = spec.periods
    .map((period) => {
      const inRange = `${date} BETWEEN ${dateLit(period.range.start)} AND ${dateLit(period.range.end)}`;
      return (
        `SELECT ${str(period.name)} AS ${PERIOD}, ${date} AS ${DAY}, * FROM ${table} ` +
        `WHERE ${[inRange, ...rowConditions].join(' AND ')}`
      );
    })
    .join(' UNION ALL ');

  const keyAliases = spec.keys.map((key, index) => ({ ...key, internal: `__k${index}` }));
  const gaugeMembers = filterMembers(spec.filters).map((id) => fields.get(id));
  const needsLast = [...spec.metrics, ...gaugeMembers].some((field) => field && isGauge(field));
  const partition = [PERIOD, ...keyAliases.map((key) => key.internal)].join(', ');
  const withKeys = `SELECT *${keyAliases.map((key) => `, ${key.sql} AS ${key.internal}`).join('')} FROM base`;
  // The flag is a window over the keys, computed a level above them: a key may itself be a window (a first day).
  const keyed = needsLast
    ? `SELECT *, ${DAY} = MAX(${DAY}) OVER (PARTITION BY ${partition}) AS ${LAST} FROM (${withKeys})`
    : withKeys;

  const columns = selectList(spec, keyAliases).map((column) => column.sql);
  const groupBy = [...(spec.periodMode === 'group' ? [PERIOD] : []), ...keyAliases.map((key) => key.internal)];

  return [
    `WITH ${[...(spec.ctes ?? []), `base AS (${base})`, `keyed AS (${keyed})`].join(', ')}`,
    `SELECT ${columns.join(', ')} FROM keyed`,
    groupBy.length ? `GROUP BY ${groupBy.join(', ')}` : '',
    filters.having ? `HAVING ${filters.having}` : '',
    filters.qualify ? `QUALIFY ${filters.qualify}` : '',
    spec.orderBy ? `ORDER BY ${spec.orderBy}` : '',
    spec.limit !== undefined ? `LIMIT ${Math.trunc(spec.limit)}` : '',
    spec.offset ? `OFFSET ${Math.trunc(spec.offset)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
