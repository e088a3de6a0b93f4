import { z } from 'zod';
import { engagementSegments } from '../contracts/catalogue';
import { type DatasetSchema, type Field } from '../contracts/datasets';
import { compileMetricExpression, sqlLiteral } from './dataModel/compile';
import {
  type ChartKind,
  type DayRange,
  type WeekStart,
  bucketSql,
  compareRange,
  dayRangeSchema,
  granularities,
  rangeDays,
  resolveGranularity,
} from './dates';
import { DAY, FieldIndex, dimensionValue, isAdditive, isCustom, isGauge } from './fields';
import { type Filter, compileFilters, filterSchema } from './filters';
import { gridFilters, isValueFilter } from './gridFilters';
import { type Key, type Period, type PipelineSpec, pipelineColumns, pipelineSql } from './pipeline';
import { QueryBuildError, dateLit, ident, num, str } from './sql';

/** Spec 2 §9 and spec 3 §9 limits. */
export const BAR_TOP_N = 12;
export const SERIES_TOP_N = 10;
export const DISTINCT_VALUES_LIMIT = 10_000;
export const PIVOT_MAX_COLUMNS = 100;

const granularitySetting = z.enum(['auto', ...granularities]).default('auto');
const weekStart = z.number().int().min(0).max(6).default(1);
const chart = z.enum(['line', 'bar_grouped', 'bar_stacked']).default('line');
const fieldId = z.string().min(1);

/** What every query shares: the dataset, its date field, the main range, an optional comparison and filters. */
const scope = {
  dataset: z.string().min(1),
  dateField: z.string().optional(),
  range: dayRangeSchema,
  compare: dayRangeSchema.optional(),
  filters: z.array(filterSchema).default([]),
};

export const timeSeriesQuery = z.object({
  kind: z.literal('timeSeries'),
  ...scope,
  metrics: z.array(fieldId).min(1),
  granularity: granularitySetting,
  chart,
  weekStart,
});
export const timeSeriesByDimensionQuery = z.object({
  kind: z.literal('timeSeriesByDimension'),
  ...scope,
  metric: fieldId,
  dimension: fieldId,
  granularity: granularitySetting,
  chart,
  weekStart,
});
export const barByDimensionQuery = z.object({
  kind: z.literal('barByDimension'),
  ...scope,
  metrics: z.array(fieldId).min(1),
  dimension: fieldId,
});
export const tableCompareQuery = z.object({
  kind: z.literal('tableCompare'),
  ...scope,
  metrics: z.array(fieldId),
  dimensions: z.array(fieldId),
  limit: z.number().int().positive().optional(),
});
export const highLowQuery = z.object({
  kind: z.literal('highLow'),
  ...scope,
  metrics: z.array(fieldId).min(1),
  dimension: fieldId,
});
export const funnelQuery = z.object({ kind: z.literal('funnel'), ...scope, metrics: z.array(fieldId).min(1) });
export const subscriberGrowthQuery = z.object({
  kind: z.literal('subscriberGrowth'),
  ...scope,
  /** The list dimension and the list metrics of list_members. */
  listField: fieldId.default('list_name'),
  metrics: z.array(fieldId).default(['members', 'members_in', 'members_out', 'members_delta']),
  lists: z.array(z.string()).default([]),
  granularity: granularitySetting,
  weekStart,
});
export const targetProgressQuery = z.object({
  kind: z.literal('targetProgress'),
  dataset: z.string().min(1),
  dateField: z.string().optional(),
  metric: fieldId,
  range: dayRangeSchema,
  target: z.number(),
  filters: z.array(filterSchema).default([]),
});
export const targetHistoryQuery = z.object({
  kind: z.literal('targetHistory'),
  dataset: z.string().min(1),
  dateField: z.string().optional(),
  metric: fieldId,
  range: dayRangeSchema,
  filters: z.array(filterSchema).default([]),
});
export const distinctValuesQuery = z.object({
  kind: z.literal('distinctValues'),
  dataset: z.string().min(1),
  dimension: fieldId,
  search: z.string().optional(),
  filters: z.array(filterSchema).default([]),
  limit: z.number().int().positive().max(DISTINCT_VALUES_LIMIT).default(DISTINCT_VALUES_LIMIT),
});
const sortSchema = z.array(z.object({ field: fieldId, desc: z.boolean().default(false) })).default([]);
/** What every explorer query shares: the grid's grouping, its filter model and the expanded group it reads. */
const explorerScope = {
  ...scope,
  rowGroups: z.array(fieldId),
  /**
   * The values of the expanded parent groups (one per level above): the rows of that group's next level.
   * Absent: one row per combination of all row groups (a flat table, as exports list leaf rows).
   */
  groupKeys: z.array(z.string().nullable()).optional(),
  /** The grid's own filter model (gridFilters.ts), added to `filters`. */
  filterModel: z.unknown().optional(),
  sort: sortSchema,
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().positive().max(100_000).default(100),
};
/**
 * Leaf rows (no groupKeys) in the order the grid shows them fully expanded: each level sorted by its own
 * aggregates within its parent, down to the leaves. `sort` then applies at every level to the columns that
 * level has (a sort by each row group stands for the group column: a level sorts by its own dimension).
 */
const levelSort = z.boolean().optional();
export const explorerRowsQuery = z.object({
  kind: z.literal('explorerRows'),
  ...explorerScope,
  metrics: z.array(fieldId),
  levelSort,
});
/** The pivot of a counted grid, so the count sees the same rows as the pivot. */
const pivotScope = {
  pivot: fieldId,
  /** The pivot values as a first query (`pivotValuesSql`) found them. */
  pivotValues: z.array(z.string()).default([]),
};
export const explorerCountQuery = explorerRowsQuery.extend({
  kind: z.literal('explorerCount'),
  pivot: fieldId.optional(),
  pivotValues: pivotScope.pivotValues,
});
export const explorerPivotQuery = z.object({
  kind: z.literal('explorerPivot'),
  ...explorerScope,
  ...pivotScope,
  metrics: z.array(fieldId).min(1),
  levelSort,
});
/** The first step of a pivot: its column values, as many as fit, and how many there are in all. */
export const explorerPivotValuesQuery = explorerPivotQuery.extend({ kind: z.literal('explorerPivotValues') });
export const engagementCsvQuery = z.object({
  kind: z.literal('engagementCsv'),
  dataset: z.string().min(1).default('engagement_contacts'),
  integrationId: z.string().min(1),
  month: z.string(),
  segmentId: z.string().optional(),
  /** A chunk of the download (the browser streams large segments chunk by chunk); all rows without a limit. */
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().positive().max(100_000).optional(),
});
/** The engagement page's integrations and their months. */
export const engagementMonthsQuery = z.object({
  kind: z.literal('engagementMonths'),
  dataset: z.string().min(1).default('engagement_segments'),
});
/** The segment table of one integration and month: a row per segment in the fixed order, then the Total row. */
export const engagementSegmentTableQuery = z.object({
  kind: z.literal('engagementSegmentTable'),
  dataset: z.string().min(1).default('engagement_segments'),
  integrationId: z.string().min(1),
  month: z.string(),
});

export const queryDescriptionSchema = z.discriminatedUnion('kind', [
  timeSeriesQuery,
  timeSeriesByDimensionQuery,
  barByDimensionQuery,
  tableCompareQuery,
  highLowQuery,
  funnelQuery,
  subscriberGrowthQuery,
  targetProgressQuery,
  targetHistoryQuery,
  distinctValuesQuery,
  explorerRowsQuery,
  explorerCountQuery,
  explorerPivotQuery,
  explorerPivotValuesQuery,
  engagementCsvQuery,
  engagementMonthsQuery,
  engagementSegmentTableQuery,
]);
/** A query as callers write it (defaults optional). */
export type QueryInput = z.input<typeof queryDescriptionSchema>;
export type QueryDescription = z.output<typeof queryDescriptionSchema>;
export type QueryKind = QueryDescription['kind'];
type Of<K extends QueryKind> = Extract<QueryDescription, { kind: K }>;

function periods(range: DayRange, compare: DayRange | undefined): Period[] {
  return compare
    ? [
        { name: 'main', range },
        { name: 'compare', range: compare },
      ]
    : [{ name: 'main', range }];
}

function bucketKey(
  q: { range: DayRange; granularity: 'auto' | (typeof granularities)[number]; weekStart: number },
  kind: ChartKind,
): Key {
  const granularity = resolveGranularity(q.granularity, q.range, kind);
  return { alias: 'bucket', sql: `strftime(${bucketSql(DAY, granularity, q.weekStart as WeekStart)}, '%Y-%m-%d')` };
}

/** `"metric" DESC NULLS LAST`: rankings put groups without a value last. */
function byDesc(metric: Field): string {
  return `${ident(metric.id)} DESC NULLS LAST`;
}

/** The top values of a dimension by a metric over the main range, as a CTE named `name` with column `value`. */
function topValuesCte(
  name: string,
  fields: FieldIndex,
  q: Of<'barByDimension' | 'timeSeriesByDimension'>,
  dimension: Field,
  metric: Field,
  n: number,
): string {
  const value = dimensionValue(fields, dimension);
  return `${name} AS (${pipelineSql({
    fields,
    dateField: q.dateField,
    periods: [{ name: 'main', range: q.range }],
    filters: q.filters,
    keys: [{ alias: 'value', sql: value }],
    metrics: [metric],
    periodMode: 'single',
    where: `${value} IS NOT NULL`,
    orderBy: `${byDesc(metric)}, 1`,
    limit: n,
  })})`;
}

function timeSeriesSpec(fields: FieldIndex, q: Of<'timeSeries'>): PipelineSpec {
  return {
    fields,
    dateField: q.dateField,
    periods: periods(q.range, q.compare),
    filters: q.filters,
    keys: [bucketKey(q, q.chart)],
    metrics: q.metrics.map((id) => fields.metric(id)),
    periodMode: 'group',
    orderBy: 'period DESC, bucket',
  };
}

function buildTimeSeriesByDimension(fields: FieldIndex, q: Of<'timeSeriesByDimension'>): string {
  const metric = fields.metric(q.metric);
  const dimension = fields.dimension(q.dimension);
  const value = dimensionValue(fields, dimension);
  return pipelineSql({
    fields,
    dateField: q.dateField,
    periods: periods(q.range, q.compare),
    filters: q.filters,
    ctes: [topValuesCte('top_values', fields, q, dimension, metric, SERIES_TOP_N)],
    where: `${value} IN (SELECT value FROM top_values)`,
    keys: [bucketKey(q, q.chart), { alias: 'value', sql: value }],
    metrics: [metric],
    periodMode: 'group',
    orderBy: 'period DESC, bucket, value',
  });
}

function buildBarByDimension(fields: FieldIndex, q: Of<'barByDimension'>): string {
  const metrics = q.metrics.map((id) => fields.metric(id));
  const dimension = fields.dimension(q.dimension);
  const value = dimensionValue(fields, dimension);
  // Values outside the top 12 are regrouped, so Other's ratios are recomputed from its own sums.
  const inTop = `COALESCE(${value} IN (SELECT value FROM top_values), false)`;
  return pipelineSql({
    fields,
    dateField: q.dateField,
    periods: periods(q.range, q.compare),
    filters: q.filters,
    ctes: [topValuesCte('top_values', fields, q, dimension, metrics[0], BAR_TOP_N)],
    keys: [
      { alias: 'value', sql: `CASE WHEN ${inTop} THEN CAST(${value} AS VARCHAR) END` },
      { alias: 'other', sql: `NOT ${inTop}` },
    ],
    metrics,
    periodMode: 'pivot',
    orderBy: `other, ${byDesc(metrics[0])}, value`,
  });
}

function buildTableCompare(fields: FieldIndex, q: Of<'tableCompare'>): string {
  if (q.metrics.length + q.dimensions.length === 0) throw new QueryBuildError('Select at least 1 dimension or metric.');
  const metrics = q.metrics.map((id) => fields.metric(id));
  return pipelineSql({
    fields,
    dateField: q.dateField,
    periods: periods(q.range, q.compare),
    filters: q.filters,
    keys: q.dimensions.map((id) => ({ alias: id, sql: dimensionValue(fields, fields.dimension(id)) })),
    metrics,
    periodMode: 'pivot',
    orderBy: metrics.length
      ? `${byDesc(metrics[0])}, ${q.dimensions.map((_, i) => i + 1).join(', ') || '1'}`
      : undefined,
    limit: q.limit,
  });
}

function buildHighLow(fields: FieldIndex, q: Of<'highLow'>): string {
  const metrics = q.metrics.map((id) => fields.metric(id));
  const grouped = pipelineSql({
    fields,
    dateField: q.dateField,
    periods: [{ name: 'main', range: q.range }],
    filters: q.filters,
    keys: [{ alias: 'value', sql: dimensionValue(fields, fields.dimension(q.dimension)) }],
    metrics,
    periodMode: 'single',
    where: `${dimensionValue(fields, fields.dimension(q.dimension))} IS NOT NULL`,
  });
  // Ties resolve to the first value in order, so the answer does not depend on scan order.
  const perMetric = metrics.map((metric, index) => {
    const m = ident(metric.id);
    return (
      `SELECT ${index} AS position, ${str(metric.id)} AS metric, ` +
      `arg_max(CAST(value AS VARCHAR), ${m}) FILTER (WHERE ${m} = (SELECT max(${m}) FROM grouped)) AS high_value, max(${m}) AS high, ` +
      `arg_min(CAST(value AS VARCHAR), ${m}) FILTER (WHERE ${m} = (SELECT min(${m}) FROM grouped)) AS low_value, min(${m}) AS low ` +
      `FROM (SELECT * FROM grouped ORDER BY value)`
    );
  });
  return `WITH grouped AS (${grouped}) SELECT metric, high_value, high, low_value, low FROM (${perMetric.join(' UNION ALL ')}) ORDER BY position`;
}

function funnelSpec(fields: FieldIndex, q: Of<'funnel'>): PipelineSpec {
  return {
    fields,
    dateField: q.dateField,
    periods: periods(q.range, q.compare),
    filters: q.filters,
    keys: [],
    metrics: q.metrics.map((id) => fields.metric(id)),
    periodMode: 'group',
    orderBy: 'period DESC',
  };
}

/**
 * Queries that differ only in their metrics (one dataset, periods, filters and grouping), which one statement over
 * all their metrics answers, as Mosaic consolidates a dashboard's queries (issue 20). Each metric is a column of its
 * own over groups that no metric changes, so every query's answer is the shared answer's rows with its own columns.
 */
export interface MetricsMerge {
  /** Equal for the queries that one statement may answer. */
  group: string;
  metrics: string[];
  /** The columns of this query's own answer, in their order (a shared answer holds others too). */
  columns: string[];
  /** The statement over `metrics` (this query's and others' of its group), answering each of them. */
  sqlWith(metrics: string[]): string;
}

/** How a query shares a statement with others (MetricsMerge); undefined for the kinds whose answers cannot. */
export function metricsMerge(schema: DatasetSchema, input: QueryInput): MetricsMerge | undefined {
  if (input.kind !== 'timeSeries' && input.kind !== 'funnel') return undefined;
  const q = queryDescriptionSchema.parse(input);
  if (q.dataset !== schema.id) throw new QueryBuildError(`Query for "${q.dataset}" on dataset "${schema.id}"`);
  const fields = new FieldIndex(schema);
  let specOf: (metrics: string[]) => PipelineSpec;
  let group: object;
  if (q.kind === 'timeSeries') {
    specOf = (metrics) => timeSeriesSpec(fields, { ...q, metrics });
    // The chart kind only chooses an automatic granularity: the buckets are what the queries must share.
    const { metrics: _metrics, chart: _chart, ...scope } = q;
    group = { ...scope, granularity: resolveGranularity(q.granularity, q.range, q.chart) };
  } else if (q.kind === 'funnel') {
    specOf = (metrics) => funnelSpec(fields, { ...q, metrics });
    const { metrics: _metrics, ...scope } = q;
    group = scope;
  } else {
    return undefined;
  }
  return {
    group: JSON.stringify(group),
    metrics: q.metrics,
    columns: pipelineColumns(specOf(q.metrics)),
    sqlWith: (metrics) => pipelineSql(specOf(metrics)),
  };
}

function buildSubscriberGrowth(fields: FieldIndex, q: Of<'subscriberGrowth'>): string {
  const list = fields.dimension(q.listField);
  const filters = q.lists.length ? [...q.filters, { member: list.id, operator: 'equals', values: q.lists }] : q.filters;
  // Gauges (members) take each list's last day within each bucket, the latest-date union of the buckets.
  return pipelineSql({
    fields,
    dateField: q.dateField,
    periods: periods(q.range, q.compare),
    filters,
    keys: [{ alias: 'list', sql: dimensionValue(fields, list) }, bucketKey(q, 'line')],
    metrics: q.metrics.map((id) => fields.metric(id)),
    periodMode: 'group',
    orderBy: 'period DESC, list, bucket',
  });
}

/** The running value of a window over the target's days, from the period's first day to days.day. */
const running = (expr: string) => `${expr} OVER (ORDER BY days.day ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`;

/** The CTE of `metrics` per day of the target's rows (`day`: SQL of each row's day); answers the CTE's name. */
type DailyCte = (metrics: Field[], day?: string) => string;

/**
 * A metric's value to date (its value over the rows from the period's start to days.day) as SQL over daily CTEs:
 * the same aggregation every widget applies to a whole range, accumulated day by day.
 */
function valueToDate(fields: FieldIndex, field: Field, daily: DailyCte): string {
  if (isCustom(field)) {
    // The expression combines its metrics' values to date as it combines their totals anywhere else.
    const aggregate = (used: Field) => valueToDate(fields, used, daily);
    return compileMetricExpression(field, fields.byId, {
      aggregate,
      column: (used) => ident(used.id),
      literal: sqlLiteral,
    });
  }
  const column = (cte: string, id: string) => `${cte}.${ident(id)}`;
  // A snapshot's value to date is its latest value: the last day with data so far.
  if (isGauge(field)) return running(`last_value(${column(daily([field]), field.id)} IGNORE NULLS)`);
  const agg = field.agg ?? { type: 'sum' as const };
  switch (agg.type) {
    case 'sum':
      return running(`SUM(COALESCE(${column(daily([field]), field.id)}, 0))`);
    case 'min':
    case 'max':
      return running(`${agg.type.toUpperCase()}(${column(daily([field]), field.id)})`);
    case 'weighted_avg': {
      // The ratio to date is the running sum of the numerator over the running sum of the denominator.
      const sumOf = (id: string): Field => ({ ...fields.require(id), id, agg: { type: 'sum' }, features: [] });
      const cte = daily([sumOf(agg.numerator), sumOf(agg.denominator)]);
      return `${running(`SUM(${column(cte, agg.numerator)})`)} / NULLIF(${running(`SUM(${column(cte, agg.denominator)})`)}, 0)`;
    }
    case 'count_distinct': {
      // Each value counts on the first day it appears, so the running sum of those counts is the distinct count
      // to date (a running sum of each day's distinct count would count a value again on every day it recurs).
      const cte = daily([field], `MIN(${DAY}) OVER (PARTITION BY ${fields.column(agg.field)})`);
      return running(`SUM(COALESCE(${column(cte, field.id)}, 0))`);
    }
    case 'custom':
      throw new QueryBuildError('This metric is currently not supported');
  }
}

function buildTargetProgress(fields: FieldIndex, q: Of<'targetProgress'>): string {
  const metric = fields.metric(q.metric);
  const names = new Map<string, string>();
  const ctes: string[] = [];
  // Each daily CTE is a pipeline query (the target's filters, each metric's own rules), shared where metrics agree.
  const daily: DailyCte = (metrics, day = DAY) => {
    const key = JSON.stringify([day, metrics]);
    const known = names.get(key);
    if (known) return known;
    const name = `daily${names.size}`;
    names.set(key, name);
    const sql = pipelineSql({
      fields,
      dateField: q.dateField,
      periods: [{ name: 'main', range: q.range }],
      filters: q.filters,
      keys: [{ alias: 'day', sql: day }],
      metrics,
      periodMode: 'single',
    });
    ctes.push(`${name} AS (${sql})`);
    return name;
  };
  const value = `${daily([metric])}.${ident(metric.id)}`;
  const cumulative = valueToDate(fields, metric, daily);
  const days =
    `SELECT CAST(day AS DATE) AS day, row_number() OVER (ORDER BY day) AS n ` +
    `FROM generate_series(${dateLit(q.range.start)}, ${dateLit(q.range.end)}, INTERVAL 1 DAY) AS t(day)`;
  // Sums and counts are expected to grow linearly to the target; a rate or a snapshot is expected at it all along.
  const expected = isAdditive(metric, fields.byId)
    ? `${num(q.target)} * days.n / ${rangeDays(q.range)}`
    : num(q.target);
  const joins = [...names.values()].map((name) => `LEFT JOIN ${name} ON ${name}.day = days.day`).join(' ');
  return (
    `WITH days AS (${days}), ${ctes.join(', ')} ` +
    `SELECT strftime(days.day, '%Y-%m-%d') AS day, CAST(${value} AS DOUBLE) AS value, ` +
    `CAST(${cumulative} AS DOUBLE) AS cumulative, CAST(${expected} AS DOUBLE) AS expected ` +
    `FROM days ${joins} ORDER BY days.day`
  );
}

function buildTargetHistory(fields: FieldIndex, q: Of<'targetHistory'>): string {
  const preceding = compareRange(q.range, 'preceding_period');
  const yearAgo = compareRange(q.range, 'year_over_year');
  if (!preceding || !yearAgo) throw new QueryBuildError('No comparison range');
  return pipelineSql({
    fields,
    dateField: q.dateField,
    periods: [
      { name: 'preceding_period', range: preceding },
      { name: 'year_over_year', range: yearAgo },
    ],
    filters: q.filters,
    keys: [],
    metrics: [fields.metric(q.metric)],
    periodMode: 'group',
    // 'Not enough data available for this period' when a period has no day with data.
    extraColumns: [{ alias: 'days', sql: `CAST(COUNT(DISTINCT ${DAY}) AS INTEGER)` }],
    orderBy: 'period',
  });
}

function buildDistinctValues(fields: FieldIndex, q: Of<'distinctValues'>): string {
  const value = `CAST(${dimensionValue(fields, fields.dimension(q.dimension))} AS VARCHAR)`;
  const filters = compileFilters(q.filters, { fields, table: fields.schema.tableId });
  const conditions = [`${value} IS NOT NULL`, `${value} <> ''`, filters.where];
  if (q.search) conditions.push(`contains(lower(${value}), lower(${str(q.search)}))`);
  return (
    `SELECT DISTINCT ${value} AS value FROM ${ident(fields.schema.tableId)} ` +
    `WHERE ${conditions.filter(Boolean).join(' AND ')} ORDER BY value LIMIT ${q.limit}`
  );
}

type Sort = { field: string; desc: boolean }[];
/** ORDER BY terms of a sort, the columns read from `table` when given. */
const sortTerms = (sort: Sort, table = '') =>
  sort.map((s) => `${table}${ident(s.field)} ${s.desc ? 'DESC' : 'ASC'} NULLS LAST`);

function explorerOrder(sort: Sort, output: string[]): string | undefined {
  const missing = sort.find((s) => !output.includes(s.field));
  if (missing) throw new QueryBuildError(`Cannot sort by "${missing.field}": it is not a column`);
  // A stable order over all key columns, so pages never overlap.
  return [...sortTerms(sort), ...output.map((_, i) => String(i + 1))].join(', ') || undefined;
}

type ExplorerOf = Of<'explorerRows' | 'explorerCount' | 'explorerPivot'>;
interface ExplorerLevel {
  /** The row groups of the level read: the expanded parents' and one more. */
  keys: Key[];
  /** Rows of the expanded parent group only. */
  parent: string[];
  filters: Filter[];
}

/**
 * The level of a server-row-model request: with groupKeys [a, b] the children of group a › b, grouped by
 * the first three row groups. Every level aggregates the dataset's rows, never the level below, so weighted
 * averages and custom metrics are right at every level.
 */
function explorerLevel(fields: FieldIndex, q: ExplorerOf): ExplorerLevel {
  const groupKeys = q.groupKeys ?? q.rowGroups.slice(1).map(() => undefined);
  if (groupKeys.length > Math.max(0, q.rowGroups.length - 1)) throw new QueryBuildError('No such group level');
  const keys = q.rowGroups
    .slice(0, groupKeys.length + 1)
    .map((id) => ({ alias: id, sql: dimensionValue(fields, fields.dimension(id)) }));
  const parent = groupKeys.flatMap((value, i) => {
    if (value === undefined) return [];
    return value === null ? [`${keys[i].sql} IS NULL`] : [`CAST(${keys[i].sql} AS VARCHAR) = ${str(value)}`];
  });
  return { keys, parent, filters: [...q.filters, ...gridFilters(q.filterModel, fields)] };
}

function pivotCondition(fields: FieldIndex, q: { pivot?: string; pivotValues?: string[] }, limit: number): string[] {
  if (!q.pivot || !q.pivotValues) return [];
  const values = q.pivotValues.slice(0, limit);
  const pivot = `CAST(${dimensionValue(fields, fields.dimension(q.pivot))} AS VARCHAR)`;
  return [values.length ? `${pivot} IN (${values.map(str).join(', ')})` : 'false'];
}

/** All groups of the first `depth` row groups: a parent level of the leaf rows. */
function parentLevel(fields: FieldIndex, q: ExplorerOf, depth: number): ExplorerLevel {
  return explorerLevel(fields, { ...q, rowGroups: q.rowGroups.slice(0, depth), groupKeys: undefined });
}

function explorerRowsSql(
  fields: FieldIndex,
  q: Of<'explorerRows' | 'explorerCount'>,
  paged: boolean,
  level = explorerLevel(fields, q),
): { sql: string; output: string[] } {
  if (q.metrics.length + q.rowGroups.length === 0) throw new QueryBuildError('Select at least 1 dimension or metric.');
  const pivoted =
    q.kind === 'explorerCount' ? pivotCondition(fields, q, pivotValueLimit(q.rowGroups.length, q.metrics.length)) : [];
  const conditions = [...level.parent, ...pivoted];
  const output = [...level.keys.map((key) => key.alias), ...q.metrics];
  const sql = pipelineSql({
    fields,
    dateField: q.dateField,
    periods: periods(q.range, q.compare),
    filters: level.filters,
    keys: level.keys,
    metrics: q.metrics.map((id) => fields.metric(id)),
    periodMode: 'pivot',
    where: conditions.join(' AND ') || undefined,
    orderBy: paged ? explorerOrder(q.sort, output) : undefined,
    limit: paged ? q.limit : undefined,
    offset: paged ? q.offset : undefined,
  });
  return { sql, output };
}

/** How many pivot values fit: result columns (row groups plus values × metrics) stay within 100. */
export function pivotValueLimit(rowGroups: number, metrics: number): number {
  return Math.max(0, Math.floor((PIVOT_MAX_COLUMNS - rowGroups) / Math.max(1, metrics)));
}

/** Column of `pivotValuesSql` with the number of pivot values before the cut (the same on every row). */
export const PIVOT_VALUES_TOTAL = 'total';

/**
 * The first step of a pivot: its column values, the largest by the first metric first, as many as fit,
 * with the number of all values (counted before LIMIT) so the grid can say the pivot was cut.
 */
export function pivotValuesSql(
  schema: DatasetSchema,
  input: z.input<typeof explorerPivotQuery> | z.input<typeof explorerPivotValuesQuery>,
): string {
  const q = explorerPivotQuery.parse({ ...input, kind: 'explorerPivot' });
  const fields = new FieldIndex(schema);
  const pivot = dimensionValue(fields, fields.dimension(q.pivot));
  const metric = fields.metric(q.metrics[0]);
  // The grid's row filters narrow the values; its value filters apply to groups the pivot has not formed yet.
  const rowFilters = gridFilters(q.filterModel, fields).filter((filter) => !isValueFilter(filter));
  return pipelineSql({
    fields,
    dateField: q.dateField,
    periods: [{ name: 'main', range: q.range }],
    filters: [...q.filters, ...rowFilters],
    keys: [{ alias: 'value', sql: `CAST(${pivot} AS VARCHAR)` }],
    metrics: [metric],
    periodMode: 'single',
    where: `${pivot} IS NOT NULL`,
    extraColumns: [{ alias: PIVOT_VALUES_TOTAL, sql: 'CAST(COUNT(*) OVER () AS INTEGER)' }],
    orderBy: `${byDesc(metric)}, 1`,
    limit: pivotValueLimit(q.rowGroups.length, q.metrics.length),
  });
}

/** Column name of a pivot cell: the pivot value and the metric. */
export function pivotColumn(value: string, metric: string): string {
  return `${value}__${metric}`;
}

/** Whether a column name is a pivot cell of one of `metrics`, whatever its value. */
export function isPivotCell(field: string, metrics: string[]): boolean {
  return metrics.some((metric) => field.endsWith(pivotColumn('', metric)));
}

function buildExplorerPivot(
  fields: FieldIndex,
  q: Of<'explorerPivot'>,
  paged: boolean,
  level = explorerLevel(fields, q),
): { sql: string; output: string[] } {
  const pivot = `CAST(${dimensionValue(fields, fields.dimension(q.pivot))} AS VARCHAR)`;
  const metrics = q.metrics.map((id) => fields.metric(id));
  const limit = pivotValueLimit(q.rowGroups.length, metrics.length);
  const values = q.pivotValues.slice(0, limit);
  const cells = values.flatMap((value) =>
    metrics.map((metric) => ({ value, metric, alias: pivotColumn(value, metric.id) })),
  );
  // Rows grouped by the row groups and the pivot value, then spread into one column per value and metric.
  const inner = pipelineSql({
    fields,
    dateField: q.dateField,
    periods: [{ name: 'main', range: q.range }],
    filters: level.filters,
    keys: [...level.keys, { alias: '__pivot', sql: pivot }],
    metrics,
    periodMode: 'single',
    where: [...level.parent, ...pivotCondition(fields, q, limit)].join(' AND '),
  });
  const groupCols = level.keys.map((key) => ident(key.alias));
  const pick = cells.map(
    (cell) => `MAX(${ident(cell.metric.id)}) FILTER (WHERE "__pivot" = ${str(cell.value)}) AS ${ident(cell.alias)}`,
  );
  const output = [...level.keys.map((key) => key.alias), ...cells.map((cell) => cell.alias)];
  // The values follow the data: a sort by a cell of a value no longer among them is skipped, not an error.
  const sort = q.sort.filter((s) => output.includes(s.field) || !isPivotCell(s.field, q.metrics));
  const order = paged ? explorerOrder(sort, output) : undefined;
  const sql =
    `WITH cells AS (${inner}) SELECT ${[...groupCols, ...pick].join(', ') || 'COUNT(*) AS rows'} FROM cells` +
    (groupCols.length ? ` GROUP BY ${groupCols.join(', ')}` : '') +
    (order ? ` ORDER BY ${order}` : '') +
    (paged ? ` LIMIT ${q.limit}` + (q.offset ? ` OFFSET ${q.offset}` : '') : '');
  return { sql, output };
}

/** A level of an explorer query with its output columns: the grid's rows or pivot, paged or whole. */
function explorerLevelSql(
  fields: FieldIndex,
  q: Of<'explorerRows' | 'explorerPivot'>,
  paged: boolean,
  level?: ExplorerLevel,
) {
  return q.kind === 'explorerPivot'
    ? buildExplorerPivot(fields, q, paged, level)
    : explorerRowsSql(fields, q, paged, level);
}

/**
 * The leaf rows in the order the grid shows them fully expanded (`levelSort`): every parent level is the same
 * query the grid reads it with (its own aggregates, never sums of the leaves), joined to the leaves on its keys
 * (a null key is a group too); the leaves sort by each parent's sort terms then its key, then their own. Leaves
 * whose parent a value filter hides are left out, as the grid cannot expand a parent it does not show.
 */
function explorerLeavesInGridOrder(fields: FieldIndex, q: Of<'explorerRows' | 'explorerPivot'>): string {
  if (q.groupKeys) throw new QueryBuildError('A level sort reads the leaf rows, not a group');
  const leaf = explorerLevelSql(fields, q, false);
  // As the grid's levels do, every level skips the sorts by columns it lacks.
  const leafSort = q.sort.filter((s) => leaf.output.includes(s.field));
  // A value filter (HAVING) applies at every level: a parent it hides takes its children with it, as in the grid.
  const valueFiltered = gridFilters(q.filterModel, fields).some(isValueFilter);
  // With one level, or neither a sort nor a value filter, the grid's rows are the leaves' own: the plain query.
  if (q.rowGroups.length < 2 || (!leafSort.length && !valueFiltered)) {
    return explorerLevelSql(fields, { ...q, sort: leafSort }, true).sql;
  }
  const leafTable = ident('__leaf');
  const joins: string[] = [];
  const order: string[] = [];
  q.rowGroups.forEach((_, i) => {
    const keys = q.rowGroups.slice(0, i + 1);
    const isLeaf = keys.length === q.rowGroups.length;
    const level = isLeaf ? leaf : explorerLevelSql(fields, q, false, parentLevel(fields, q, keys.length));
    const table = isLeaf ? leafTable : ident(`__p${keys.length}`);
    const sort = leafSort.filter((s) => level.output.includes(s.field));
    if (!isLeaf) {
      const columns = [...new Set([...keys, ...sort.map((s) => s.field)])].map(ident);
      const on = keys.map((key) => `${leafTable}.${ident(key)} IS NOT DISTINCT FROM ${table}.${ident(key)}`);
      // An inner join: every leaf has its parent unless a value filter hid the parent.
      joins.push(`JOIN (SELECT ${columns.join(', ')} FROM (${level.sql})) AS ${table} ON ${on.join(' AND ')}`);
    }
    // Within its parent a level's own key is unique: it breaks the sort's ties as the grid's key columns do.
    order.push(...sortTerms(sort, `${table}.`), `${leafTable}.${ident(keys[i])} ASC NULLS LAST`);
  });
  return (
    `SELECT ${leafTable}.* FROM (${leaf.sql}) AS ${leafTable} ${joins.join(' ')} ORDER BY ${order.join(', ')}` +
    ` LIMIT ${q.limit}` +
    (q.offset ? ` OFFSET ${q.offset}` : '')
  );
}

function buildEngagementCsv(fields: FieldIndex, q: Of<'engagementCsv'>): string {
  const conditions = [
    `CAST(${fields.column('integration_id')} AS VARCHAR) = ${str(q.integrationId)}`,
    `CAST(${fields.column(fields.schema.dateField)} AS DATE) = ${dateLit(q.month)}`,
  ];
  if (q.segmentId) conditions.push(`CAST(${fields.column('segment_id')} AS VARCHAR) = ${str(q.segmentId)}`);
  return (
    `SELECT CAST(${fields.column('contact_id')} AS VARCHAR) AS contact_id, CAST(${fields.column('segment_id')} AS VARCHAR) AS segment ` +
    `FROM ${ident(fields.schema.tableId)} WHERE ${conditions.join(' AND ')} ORDER BY segment, contact_id` +
    (q.limit ? ` LIMIT ${q.limit}` : '') +
    (q.offset ? ` OFFSET ${q.offset}` : '')
  );
}

function buildEngagementMonths(fields: FieldIndex): string {
  const [id, name, date] = ['integration_id', 'integration_name', fields.schema.dateField].map((f) => fields.column(f));
  return (
    `SELECT CAST(${id} AS VARCHAR) AS integration_id, min(CAST(${name} AS VARCHAR)) AS integration_name, ` +
    `strftime(CAST(${date} AS DATE), '%Y-%m-%d') AS date FROM ${ident(fields.schema.tableId)} ` +
    `GROUP BY 1, 3 ORDER BY 1, 3`
  );
}

/**
 * Spec 3 §2 segment table: size, share of the month's total, days since last click (mean per contact), click
 * frequency (clicks per contact), click rate (clicks per send), inflow per previous segment and new, and the
 * outflows the flow diagram draws; Total last.
 */
function buildEngagementSegmentTable(fields: FieldIndex, q: Of<'engagementSegmentTable'>): string {
  const c = (id: string) => fields.column(id);
  const inflows = [
    ...engagementSegments.map((segment) => `inflow_from_${segment.id}`),
    'inflow_new',
    ...engagementSegments.map((segment) => `outflow_to_${segment.id}`),
    'outflow_gone',
  ];
  const order = `list_position([${engagementSegments.map((segment) => str(segment.id)).join(', ')}], segment_id)`;
  const ratios = (n: string) =>
    `size, size / nullif(sum(size) OVER (), 0) AS share, days_total / nullif(size, 0) AS days_since_last_click, ` +
    `click_total / nullif(size, 0) AS click_frequency, click_total / nullif(send_total, 0) AS click_rate, ` +
    `${inflows.map((id) => ident(id)).join(', ')}, ${n} AS is_total`;
  const sums = ['size', 'days_total', 'click_total', 'send_total', ...inflows].map(
    (id) => `sum(${ident(id)}) AS ${ident(id)}`,
  );
  return (
    `WITH s AS (SELECT CAST(${c('segment_id')} AS VARCHAR) AS segment_id, CAST(${c('segment_name')} AS VARCHAR) AS segment_name, ` +
    `CAST(${c('size')} AS DOUBLE) AS size, CAST(${c('days_since_last_click_total')} AS DOUBLE) AS days_total, ` +
    `CAST(${c('click_total')} AS DOUBLE) AS click_total, CAST(${c('send_total')} AS DOUBLE) AS send_total, ` +
    `${inflows.map((id) => `CAST(${c(id)} AS DOUBLE) AS ${ident(id)}`).join(', ')} ` +
    `FROM ${ident(fields.schema.tableId)} WHERE CAST(${c('integration_id')} AS VARCHAR) = ${str(q.integrationId)} ` +
    `AND CAST(${c(fields.schema.dateField)} AS DATE) = ${dateLit(q.month)}), ` +
    `t AS (SELECT NULL AS segment_id, 'Total' AS segment_name, ${sums.join(', ')} FROM s) ` +
    `SELECT * EXCLUDE (position) FROM (SELECT segment_id, segment_name, ${ratios('false')}, ${order} AS position ` +
    `FROM s UNION ALL SELECT segment_id, segment_name, ${ratios('true')}, 0 AS position FROM t WHERE size IS NOT NULL) ` +
    `ORDER BY is_total, position`
  );
}

/**
 * The SQL of a query description over a dataset schema. Every identifier is checked against the
 * schema and quoted, every literal validated and escaped; an unknown metric or dimension throws.
 */
export function buildQuery(schema: DatasetSchema, input: QueryInput): string {
  const q = queryDescriptionSchema.parse(input);
  const fields = new FieldIndex(schema);
  if (q.dataset !== schema.id) throw new QueryBuildError(`Query for "${q.dataset}" on dataset "${schema.id}"`);
  switch (q.kind) {
    case 'timeSeries':
      return pipelineSql(timeSeriesSpec(fields, q));
    case 'timeSeriesByDimension':
      return buildTimeSeriesByDimension(fields, q);
    case 'barByDimension':
      return buildBarByDimension(fields, q);
    case 'tableCompare':
      return buildTableCompare(fields, q);
    case 'highLow':
      return buildHighLow(fields, q);
    case 'funnel':
      return pipelineSql(funnelSpec(fields, q));
    case 'subscriberGrowth':
      return buildSubscriberGrowth(fields, q);
    case 'targetProgress':
      return buildTargetProgress(fields, q);
    case 'targetHistory':
      return buildTargetHistory(fields, q);
    case 'distinctValues':
      return buildDistinctValues(fields, q);
    case 'explorerRows':
    case 'explorerPivot':
      return q.levelSort ? explorerLeavesInGridOrder(fields, q) : explorerLevelSql(fields, q, true).sql;
    case 'explorerCount':
      return `SELECT CAST(COUNT(*) AS INTEGER) AS count FROM (${explorerRowsSql(fields, q, false).sql})`;
    case 'explorerPivotValues':
      return pivotValuesSql(schema, q);
    case 'engagementCsv':
      return buildEngagementCsv(fields, q);
    case 'engagementMonths':
      return buildEngagementMonths(fields);
    case 'engagementSegmentTable':
      return buildEngagementSegmentTable(fields, q);
  }
}
