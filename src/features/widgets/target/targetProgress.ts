import { type Field } from '../../../contracts/datasets';
import { type Target } from '../../../contracts/targets';
import { type FieldsById } from '../../../engine/dataModel/compile';
import { isAdditive, isGauge } from '../../../engine/fields';

/** Ratio (rate) and snapshot metrics count 0.05 as a full 100 % (spec 2 §9 "Defaults and targets"). */
export const NON_ADDITIVE_FULL_SCALE = 0.05;

/** One day of the target progress query: that day's value, the running value and the linear expectation. */
export interface ProgressPoint {
  day: string;
  value: number | null;
  cumulative: number | null;
  expected: number | null;
}

export type TargetStatus = 'success' | 'error';

/** What a target card shows besides its chart. */
export interface TargetNumbers {
  /** The running value on the card's day; null before the period starts or with no data so far. */
  current: number | null;
  /** Where linear pacing says the value should be on the card's day (the target itself for rates and snapshots). */
  expected: number | null;
  /** Share of the target reached; null shows 'N/A'. */
  percent: number | null;
  status: TargetStatus;
  /** The end date has passed: the value is final. */
  ended: boolean;
}

/**
 * The aggregations the target progress query can follow day by day (spec 2 §5 'Unsupported metric'): all of them,
 * data-model custom metrics included; a kind added later is unsupported until the query learns it.
 */
const PROGRESS_AGGREGATIONS = new Set(['sum', 'min', 'max', 'weighted_avg', 'count_distinct', 'custom']);

/** A metric a target may follow: one whose running value the progress query knows how to compute. */
export const isTargetMetric = (field: Field): boolean =>
  field.type === 'metric' && (isGauge(field) || PROGRESS_AGGREGATIONS.has(field.agg?.type ?? 'sum'));

/** A metric where a lower value is better (bounces, unsubscribes): its target is a ceiling. */
export const lowerIsBetter = (field: Field) => field.features.includes('negative_measure');

/**
 * The day of the period a card reads: today while the period runs, its end day once it has passed, and
 * null before it starts (nothing is expected yet).
 */
export function pacingDay(target: Pick<Target, 'dateStart' | 'dateEnd'>, today: string): string | null {
  if (today < target.dateStart) return null;
  return today > target.dateEnd ? target.dateEnd : today;
}

/**
 * Percent of the target reached: the value over the full scale (the target, or 0.05 for rates and snapshots).
 * 'N/A' (null) when the target is 0 or below or there is no value yet (spec 2 §5). `fields` (the dataset's) tell
 * whether a custom metric is a sum or a ratio.
 */
export function targetPercent(value: number | null, target: number, field: Field, fields?: FieldsById): number | null {
  if (target <= 0 || value === null) return null;
  return value / (isAdditive(field, fields) ? target : NON_ADDITIVE_FULL_SCALE);
}

/**
 * The card's colour (spec 2 §4): error while the value is behind the expected one, or once the period has
 * ended without reaching the target; success otherwise. For a lower-is-better metric, behind means above.
 */
export function targetStatus(
  numbers: { current: number | null; expected: number | null; target: number; ended: boolean },
  field: Field,
): TargetStatus {
  const current = numbers.current ?? 0;
  const behind = (value: number, goal: number) => (lowerIsBetter(field) ? value > goal : value < goal);
  if (numbers.expected !== null && behind(current, numbers.expected)) return 'error';
  if (numbers.ended && behind(current, numbers.target)) return 'error';
  return 'success';
}

/** The card's numbers from the progress query's days, read at today's date; `fields` as for targetPercent. */
export function targetNumbers(
  target: Pick<Target, 'dateStart' | 'dateEnd' | 'target'>,
  field: Field,
  points: readonly ProgressPoint[],
  today: string,
  fields?: FieldsById,
): TargetNumbers {
  const day = pacingDay(target, today);
  const ended = today > target.dateEnd;
  const point = day === null ? undefined : points.find((candidate) => candidate.day === day);
  const current = point?.cumulative ?? null;
  const expected = day === null ? null : (point?.expected ?? null);
  return {
    current,
    expected,
    percent: targetPercent(current, target.target, field, fields),
    status: targetStatus({ current, expected, target: target.target, ended }, field),
    ended,
  };
}
