import { type BaselineTarget } from '../../contracts/campaignCollections';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type ExplorerConfig } from '../../contracts/reports';

export type BaselineTone = 'meets' | 'misses';

/** A baseline value as stored (a number, or a decimal string as the drawer's inputs keep it). */
export function baselineNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value.trim().replace(',', '.'));
  return Number.isFinite(number) ? number : null;
}

/**
 * How a cell compares with its metric's baseline: meeting it (green) or not (red); lower is better for
 * metrics with the negative_measure feature. No baseline or no value: no colour.
 */
export function baselineTone(
  value: unknown,
  field: Field | undefined,
  kpiData: ExplorerConfig['kpiData'],
): BaselineTone | null {
  if (!field || typeof value !== 'number' || !Number.isFinite(value)) return null;
  const baseline = baselineNumber(kpiData?.[field.id]);
  if (baseline === null) return null;
  const lowerIsBetter = field.features.includes('negative_measure');
  return (lowerIsBetter ? value <= baseline : value >= baseline) ? 'meets' : 'misses';
}

/** One baseline as the drawer edits it: its metric and the value as typed (percentages in percent). */
export interface BaselineRow {
  id: string;
  metric: string;
  text: string;
}

/** The metric's format: the dataset's field, else what a template row recorded. */
export type FormatOf = (metric: string) => string | null | undefined;

const inPercent = (format: string | null | undefined) => format === 'percent';

/** A stored baseline as the input shows it: a rate of 0.25 is typed and shown as 25 (percent). */
export function baselineText(value: number, format: string | null | undefined): string {
  const shown = inPercent(format) ? value * 100 : value;
  return String(Number(shown.toPrecision(12)));
}

/** The value a typed baseline stores (a rate typed as 25 is 0.25), or null when it is not a number. */
export function baselineValue(text: string, format: string | null | undefined): number | null {
  const typed = baselineNumber(text);
  if (typed === null) return null;
  return inPercent(format) ? Number((typed / 100).toPrecision(12)) : typed;
}

/** A number as the API's decimal text, never with an exponent: 1e-7 is '0.0000001'. */
export function decimalText(value: number): string {
  if (Number.isInteger(value)) return value.toFixed(0);
  return value.toFixed(15).replace(/\.?0+$/, '');
}

/** The rows of a view's baselines, in the order they were set. */
export function rowsOfKpiData(kpiData: ExplorerConfig['kpiData'], formatOf: FormatOf): BaselineRow[] {
  return Object.entries(kpiData ?? {}).flatMap(([metric, stored]) => {
    const value = baselineNumber(stored);
    return value === null ? [] : [{ id: `view-${metric}`, metric, text: baselineText(value, formatOf(metric)) }];
  });
}

/** The rows of a template: its baseline set's targets, whose values are decimal text. */
export function rowsOfTemplate(targets: BaselineTarget[], formatOf: FormatOf): BaselineRow[] {
  return targets.map((target) => ({
    id: target.id,
    metric: target.metric,
    text: baselineText(Number(target.value), formatOf(target.metric) ?? target.format),
  }));
}

/** The view config's `kpiData` of the rows; null while a value is not a number. */
export function kpiDataOf(rows: BaselineRow[], formatOf: FormatOf): Record<string, number> | null {
  const kpiData: Record<string, number> = {};
  for (const row of rows) {
    const value = baselineValue(row.text, formatOf(row.metric));
    if (value === null) return null;
    kpiData[row.metric] = value;
  }
  return kpiData;
}

/** A template's targets of the rows, values as decimal text as the API takes them; null while one is not a number. */
export function targetsOf(
  rows: BaselineRow[],
  fieldOf: (metric: string) => Field | undefined,
): BaselineTarget[] | null {
  const kpiData = kpiDataOf(rows, (metric) => fieldOf(metric)?.format);
  if (!kpiData) return null;
  return rows.map((row) => ({
    id: row.id,
    metric: row.metric,
    value: decimalText(kpiData[row.metric]),
    format: fieldOf(row.metric)?.format ?? null,
    category: fieldOf(row.metric)?.category ?? null,
  }));
}

/** What the add list offers: the dataset's metrics with the baseline feature that have no baseline yet. */
export function addableBaselineMetrics(schema: DatasetSchema, rows: BaselineRow[]): Field[] {
  const chosen = new Set(rows.map((row) => row.metric));
  return schema.fields.filter(
    (field) =>
      field.type === 'metric' &&
      field.features.includes('baseline') &&
      !field.features.includes('hide') &&
      !chosen.has(field.id),
  );
}
