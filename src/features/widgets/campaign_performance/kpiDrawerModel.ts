import { type DateRanges, type DayRange, addDays, rangeDays } from '../../../engine/dates';
import { relativeChange } from '../../../engine/format';
import { type GraphModel } from '../graphModel';

/** Ranges longer than this move the slider a week at a time instead of a day (spec 2 §9). */
export const WEEK_STEP_OVER_DAYS = 365;

export interface SliderScale {
  /** Days per slider step: 1, or 7 over 365 days. */
  step: 1 | 7;
  /** The last step index: the slider runs from 0 to `max`. */
  max: number;
}

export function sliderScale(range: DayRange): SliderScale {
  const step = rangeDays(range) > WEEK_STEP_OVER_DAYS ? 7 : 1;
  return { step, max: Math.ceil(rangeDays(range) / step) - 1 };
}

/** The first day of a slider step. */
export function stepDay(range: DayRange, scale: SliderScale, index: number): string {
  return addDays(range.start, index * scale.step);
}

const earlier = (a: string, b: string) => (a < b ? a : b);

/**
 * The part of the dashboard's ranges the slider selects, steps `from` to `to` inclusive: the main range
 * narrowed, and the comparison narrowed by the same days from its own start, so the two stay aligned.
 */
export function narrowRanges(ranges: DateRanges, scale: SliderScale, [from, to]: [number, number]): DateRanges {
  const { main, compare } = ranges;
  const start = stepDay(main, scale, from);
  const lastOfStep = addDays(stepDay(main, scale, to), scale.step - 1);
  const end = earlier(lastOfStep, main.end);
  const offset = from * scale.step;
  const days = rangeDays({ start, end });
  return {
    main: { ...main, start, end },
    compare: compare && {
      ...compare,
      start: earlier(addDays(compare.start, offset), compare.end),
      end: earlier(addDays(compare.start, offset + days - 1), compare.end),
    },
  };
}

export interface ComparisonRow {
  bucket: string;
  current: number | null;
  /** The comparison's bucket at the same position, and its value; absent without a comparison. */
  previousBucket?: string;
  previous: number | null;
  change: number | null;
}

/** The drawer's table: per bucket of the chart, the current value, the comparison's and the change. */
export function comparisonRows(model: GraphModel): ComparisonRow[] {
  const main = model.series.find((series) => series.period === 'main');
  const compare = model.series.find((series) => series.period === 'compare');
  if (!main) return [];
  return model.axis.map((bucket, index) => {
    const current = main.values[index] ?? null;
    const previous = compare?.values[index] ?? null;
    return {
      bucket,
      current,
      previousBucket: compare?.buckets[index],
      previous,
      change: compare ? relativeChange(current, previous) : null,
    };
  });
}
