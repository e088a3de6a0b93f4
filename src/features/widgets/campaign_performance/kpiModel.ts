import { type DatasetSchema, type Field } from '../../../contracts/datasets';
import { type ResultColumns } from '../../../store/engineApi';
import { resultRows } from '../widgetQuery';

export interface KpiCardModel {
  id: string;
  /** Null when the dataset has no such metric: the card says 'Metric not found'. */
  field: Field | null;
  value: unknown;
  previous: unknown;
  series: (number | null)[];
  compareSeries: (number | null)[];
}

const asNumber = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * One card per chosen metric, in the chosen order: the period totals (from the funnel query, which sums
 * whole periods so ratios and distinct counts stay right) and the per-bucket lines of the time series.
 */
export function kpiCards(
  schema: DatasetSchema,
  metricIds: readonly string[],
  totals: ResultColumns,
  series: ResultColumns | undefined,
): KpiCardModel[] {
  const totalRows = resultRows(totals);
  const main = totalRows.find((row) => row.period === 'main');
  const previous = totalRows.find((row) => row.period === 'compare');
  const seriesRows = series ? resultRows(series) : [];
  const buckets = (period: string) =>
    seriesRows.filter((row) => row.period === period).sort((a, b) => String(a.bucket).localeCompare(String(b.bucket)));
  const mainBuckets = buckets('main');
  const compareBuckets = buckets('compare');
  return metricIds.map((id) => {
    const field = schema.fields.find((f) => f.id === id && f.type === 'metric') ?? null;
    return {
      id,
      field,
      value: field ? main?.[id] : null,
      previous: field ? previous?.[id] : null,
      series: field ? mainBuckets.map((row) => asNumber(row[id])) : [],
      compareSeries: field ? compareBuckets.map((row) => asNumber(row[id])) : [],
    };
  });
}
