import { type DatasetSchema } from '../contracts/datasets';
import { compareRange } from './dates';
import { readsEveryRow } from './filters';
import { type QueryInput, type QueryKind } from './queries';

// Apart from the SQL builders, which load with the first query: the dashboard's file is chosen before any.

/** The kinds whose rows are those of their date ranges (pipelineSql's periods), and no other. */
const RANGED_KINDS: ReadonlySet<QueryKind> = new Set([
  'timeSeries',
  'timeSeriesByDimension',
  'barByDimension',
  'tableCompare',
  'highLow',
  'funnel',
  'subscriberGrowth',
  'targetProgress',
  'targetHistory',
]);

/**
 * The first day of the dataset's date field whose rows a query reads, or null when it may read any row (issue 20: a
 * dashboard may load only the rows from a day on). Null for a kind not bounded by its date ranges (distinct values,
 * the explorer's grids, engagement), a query of another date field, and a row outlier filter (its band is measured
 * over the whole dataset).
 */
export function firstDayRead(schema: DatasetSchema, input: QueryInput): string | null {
  if (!RANGED_KINDS.has(input.kind) || !('range' in input)) return null;
  if (input.dateField !== undefined && input.dateField !== schema.dateField) return null;
  if (readsEveryRow(input.filters)) return null;
  if (input.kind === 'targetHistory') {
    // The preceding period and the year before (buildTargetHistory).
    const starts = (['preceding_period', 'year_over_year'] as const).map((kind) => compareRange(input.range, kind));
    return starts.some((range) => !range) ? null : starts.map((range) => range!.start).sort()[0];
  }
  const compare = 'compare' in input ? input.compare : undefined;
  return compare && compare.start < input.range.start ? compare.start : input.range.start;
}
