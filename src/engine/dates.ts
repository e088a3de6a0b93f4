import { z } from 'zod';
import { isoDate } from './sql';

/** Main presets of spec 2 §3; the default is last_30_days. */
export const mainPresets = [
  'this_week',
  'this_month',
  'this_quarter',
  'this_year',
  'last_week',
  'last_month',
  'last_quarter',
  'last_year',
  'last_7_days',
  'last_14_days',
  'last_28_days',
  'last_30_days',
  'last_90_days',
  'custom',
] as const;
export type MainPreset = (typeof mainPresets)[number];
export const DEFAULT_MAIN_PRESET: MainPreset = 'last_30_days';

export const comparePresets = ['disabled', 'preceding_period', 'year_over_year', 'month_over_month', 'custom'] as const;
export type ComparePreset = (typeof comparePresets)[number];
export const DEFAULT_COMPARE_PRESET: ComparePreset = 'preceding_period';

/** The minimum selectable date of the date picker. */
export const MIN_DATE = '2000-01-01';

/** An inclusive range of calendar days as yyyy-MM-dd strings. */
export const dayRangeSchema = z
  .object({
    start: z.string().refine(safeIsoDate, 'Invalid date'),
    end: z.string().refine(safeIsoDate, 'Invalid date'),
  })
  .refine((range) => range.start <= range.end, {
    message: 'End date cannot be earlier than start date.',
    path: ['end'],
  });
export type DayRange = z.infer<typeof dayRangeSchema>;

function safeIsoDate(value: string): boolean {
  try {
    isoDate(value);
    return true;
  } catch {
    return false;
  }
}

/** 0 = Sunday … 6 = Saturday, as the first_day_of_week preference stores it. */
export type WeekStart = 0 | 1 | 2 | 3 | 4 | 5 | 6;

// Calendar arithmetic on UTC dates: a report's days do not depend on the viewer's time zone offset.
function parse(day: string): Date {
  const [y, m, d] = isoDate(day).split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}
function format(date: Date): string {
  return date.toISOString().slice(0, 10);
}
export function addDays(day: string, days: number): string {
  const date = parse(day);
  date.setUTCDate(date.getUTCDate() + days);
  return format(date);
}
/** Adds months, clamping to the last day of a shorter month (Mar 31 − 1 month = Feb 28/29). */
export function addMonths(day: string, months: number): string {
  const date = parse(day);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return format(target);
}
/** Number of days in an inclusive range. */
export function rangeDays(range: DayRange): number {
  return Math.round((parse(range.end).getTime() - parse(range.start).getTime()) / 86_400_000) + 1;
}
/** Day of week, 0 = Sunday. */
export function weekday(day: string): number {
  return parse(day).getUTCDay();
}
export function startOfWeek(day: string, weekStart: WeekStart): string {
  return addDays(day, -((weekday(day) - weekStart + 7) % 7));
}
function startOfMonth(day: string): string {
  return `${day.slice(0, 7)}-01`;
}
function startOfQuarter(day: string): string {
  const month = Number(day.slice(5, 7));
  return `${day.slice(0, 4)}-${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
}
function startOfYear(day: string): string {
  return `${day.slice(0, 4)}-01-01`;
}

/**
 * The range of a main preset on `today` (yyyy-MM-dd). "This" periods run from their first day to
 * today; "last" periods are the previous complete week, month, quarter or year; "last N days" are the
 * N complete days before today, because today's sends and events are still arriving.
 */
export function mainPresetRange(
  preset: Exclude<MainPreset, 'custom'>,
  today: string,
  weekStart: WeekStart = 1,
): DayRange {
  switch (preset) {
    case 'this_week':
      return { start: startOfWeek(today, weekStart), end: today };
    case 'this_month':
      return { start: startOfMonth(today), end: today };
    case 'this_quarter':
      return { start: startOfQuarter(today), end: today };
    case 'this_year':
      return { start: startOfYear(today), end: today };
    case 'last_week': {
      const start = addDays(startOfWeek(today, weekStart), -7);
      return { start, end: addDays(start, 6) };
    }
    case 'last_month': {
      const end = addDays(startOfMonth(today), -1);
      return { start: startOfMonth(end), end };
    }
    case 'last_quarter': {
      const end = addDays(startOfQuarter(today), -1);
      return { start: startOfQuarter(end), end };
    }
    case 'last_year': {
      const end = addDays(startOfYear(today), -1);
      return { start: startOfYear(end), end };
    }
    case 'last_7_days':
    case 'last_14_days':
    case 'last_28_days':
    case 'last_30_days':
    case 'last_90_days': {
      const days = Number(preset.split('_')[1]);
      return { start: addDays(today, -days), end: addDays(today, -1) };
    }
  }
}

/**
 * The comparison range of a main range: the same number of days just before it, the same days one
 * year or one month earlier, a custom range, or none when comparison is disabled.
 */
export function compareRange(main: DayRange, preset: ComparePreset, custom?: DayRange): DayRange | undefined {
  switch (preset) {
    case 'disabled':
      return undefined;
    case 'preceding_period': {
      const end = addDays(main.start, -1);
      return { start: addDays(end, -(rangeDays(main) - 1)), end };
    }
    case 'year_over_year':
      return { start: addMonths(main.start, -12), end: addMonths(main.end, -12) };
    case 'month_over_month':
      return { start: addMonths(main.start, -1), end: addMonths(main.end, -1) };
    case 'custom':
      return custom;
  }
}

export const granularities = ['day', 'week', 'month', 'quarter'] as const;
export type Granularity = (typeof granularities)[number];
export type GranularitySetting = Granularity | 'auto';
export type ChartKind = 'line' | 'bar_grouped' | 'bar_stacked';

/** Auto granularity by range length (spec 2 §9): day up to 70 days, then week up to 365 (90 for grouped bars). */
export function autoGranularity(range: DayRange, chart: ChartKind = 'line'): Granularity {
  const days = rangeDays(range);
  if (days <= 70) return 'day';
  if (days <= (chart === 'bar_grouped' ? 90 : 365)) return 'week';
  return 'month';
}

export function resolveGranularity(
  setting: GranularitySetting,
  range: DayRange,
  chart: ChartKind = 'line',
): Granularity {
  return setting === 'auto' ? autoGranularity(range, chart) : setting;
}

/** The first day of the bucket holding `day`, the same rule as the SQL of `bucketSql`. */
export function bucketStart(day: string, granularity: Granularity, weekStart: WeekStart = 1): string {
  switch (granularity) {
    case 'day':
      return day;
    case 'week':
      return startOfWeek(day, weekStart);
    case 'month':
      return startOfMonth(day);
    case 'quarter':
      return startOfQuarter(day);
  }
}

/** SQL for the first day of the bucket of a DATE expression; weeks start on the preferred weekday. */
export function bucketSql(dateExpr: string, granularity: Granularity, weekStart: WeekStart = 1): string {
  switch (granularity) {
    case 'day':
      return dateExpr;
    case 'week':
      return `(${dateExpr} - CAST((dayofweek(${dateExpr}) - ${weekStart} + 7) % 7 AS INTEGER))`;
    case 'month':
      return `CAST(date_trunc('month', ${dateExpr}) AS DATE)`;
    case 'quarter':
      return `CAST(date_trunc('quarter', ${dateExpr}) AS DATE)`;
  }
}

export interface DateRanges {
  main: DayRange & { preset: MainPreset };
  compare?: DayRange & { preset: ComparePreset };
}

/**
 * The ranges of a main preset (or custom range) and a compare preset on `today`; with no arguments, the
 * default of spec 2 §9: the last 30 days against the preceding period.
 */
export function resolveDateRanges(
  today: string,
  weekStart: WeekStart = 1,
  main: { preset: MainPreset; custom?: DayRange } = { preset: DEFAULT_MAIN_PRESET },
  compare: { preset: ComparePreset; custom?: DayRange } = { preset: DEFAULT_COMPARE_PRESET },
): DateRanges {
  const mainRange = main.preset === 'custom' ? main.custom : mainPresetRange(main.preset, today, weekStart);
  if (!mainRange) throw new Error('A custom date range needs a start and an end');
  const compareRangeValue = compareRange(mainRange, compare.preset, compare.custom);
  return {
    main: { ...mainRange, preset: main.preset },
    compare: compareRangeValue ? { ...compareRangeValue, preset: compare.preset } : undefined,
  };
}
