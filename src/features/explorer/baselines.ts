import { type Field } from '../../contracts/datasets';
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
