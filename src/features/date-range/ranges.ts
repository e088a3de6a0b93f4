import { type DashboardConfig } from '../../contracts/reports';
import {
  type ComparePreset,
  type DateRanges,
  type DayRange,
  type MainPreset,
  type WeekStart,
  DEFAULT_COMPARE_PRESET,
  DEFAULT_MAIN_PRESET,
  MIN_DATE,
  comparePresets,
  compareRange,
  mainPresetRange,
  mainPresets,
} from '../../engine/dates';

export type ConfigDateRanges = NonNullable<DashboardConfig['dateRanges']>;

/**
 * The ranges the picker edits. Unlike `DateRanges`, the compare preset is kept when comparison is
 * disabled, and a range may be temporarily invalid (end before start) while the user types.
 */
export interface PickerRanges {
  main: DayRange & { preset: MainPreset };
  compare: { preset: ComparePreset; start?: string; end?: string };
}

export const mainPresetLabels: Record<MainPreset, string> = {
  this_week: 'This week',
  this_month: 'This month',
  this_quarter: 'This quarter',
  this_year: 'This year',
  last_week: 'Last week',
  last_month: 'Last month',
  last_quarter: 'Last quarter',
  last_year: 'Last year',
  last_7_days: 'Last 7 days',
  last_14_days: 'Last 14 days',
  last_28_days: 'Last 28 days',
  last_30_days: 'Last 30 days',
  last_90_days: 'Last 90 days',
  custom: 'Custom',
};

export const comparePresetLabels: Record<ComparePreset, string> = {
  disabled: 'No comparison',
  preceding_period: 'Preceding period',
  year_over_year: 'Year over year',
  month_over_month: 'Month over month',
  custom: 'Custom',
};

export const END_BEFORE_START = 'End date cannot be earlier than start date.';

/**
 * Today in the viewer's calendar, as yyyy-MM-dd. Written out rather than with date-fns's `format`, whose
 * formatter and English locale would otherwise ride in the first load of every page.
 */
export function localToday(now: Date = new Date()): string {
  const twoDigits = (value: number) => String(value).padStart(2, '0');
  return `${String(now.getFullYear()).padStart(4, '0')}-${twoDigits(now.getMonth() + 1)}-${twoDigits(now.getDate())}`;
}

/** A real calendar day written yyyy-MM-dd. */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A day the picker accepts: a real calendar day, not before the minimum date. */
export function isSelectableDay(value: unknown): value is string {
  return isCalendarDay(value) && value >= MIN_DATE;
}

const isMainPreset = (value: unknown): value is MainPreset => mainPresets.includes(value as MainPreset);
const isComparePreset = (value: unknown): value is ComparePreset => comparePresets.includes(value as ComparePreset);

function validRange(range: { start?: string | null; end?: string | null } | undefined): DayRange | undefined {
  if (!range || !isSelectableDay(range.start) || !isSelectableDay(range.end)) return undefined;
  return range.start <= range.end ? { start: range.start, end: range.end } : undefined;
}

/** The compare range implied by a compare preset, recalculated from the main range. */
export function recalculatedCompare(main: DayRange, compare: PickerRanges['compare']): PickerRanges['compare'] {
  if (compare.preset === 'custom') return compare;
  const range = compareRange(main, compare.preset);
  return range ? { preset: compare.preset, ...range } : { preset: compare.preset };
}

/**
 * The ranges of a report's saved date ranges on `today`. Presets other than custom are resolved again
 * (a dashboard saved as "last 30 days" shows the last 30 days from today); anything missing or invalid
 * falls back to the default of the last 30 days against the preceding period.
 */
export function pickerRangesOf(
  value: DashboardConfig['dateRanges'],
  today: string,
  weekStart: WeekStart,
): PickerRanges {
  const savedMain = value?.main;
  const customMain = validRange(savedMain);
  let main: PickerRanges['main'];
  if (isMainPreset(savedMain?.preset) && savedMain.preset !== 'custom') {
    main = { ...mainPresetRange(savedMain.preset, today, weekStart), preset: savedMain.preset };
  } else if (customMain) {
    main = { ...customMain, preset: 'custom' };
  } else {
    main = {
      ...mainPresetRange(DEFAULT_MAIN_PRESET as Exclude<MainPreset, 'custom'>, today, weekStart),
      preset: DEFAULT_MAIN_PRESET,
    };
  }
  const savedCompare = value?.compare;
  const customCompare = validRange(savedCompare);
  let compare: PickerRanges['compare'];
  if (isComparePreset(savedCompare?.preset) && savedCompare.preset !== 'custom') {
    compare = { preset: savedCompare.preset };
  } else if (savedCompare?.preset === 'custom' && customCompare) {
    compare = { preset: 'custom', ...customCompare };
  } else {
    compare = { preset: DEFAULT_COMPARE_PRESET };
  }
  return { main, compare: recalculatedCompare(main, compare) };
}

/** The resolved ranges widgets query with; no compare range when comparison is off or not offered. */
export function dateRangesOf(ranges: PickerRanges, comparison = true): DateRanges {
  const { start, end } = ranges.compare;
  return {
    main: ranges.main,
    compare:
      comparison && ranges.compare.preset !== 'disabled' && start && end
        ? { start, end, preset: ranges.compare.preset }
        : undefined,
  };
}

/** A report config's date ranges resolved on `today`: what the dashboard's widgets query with. */
export function resolveConfigDateRanges(
  value: DashboardConfig['dateRanges'],
  today: string,
  weekStart: WeekStart,
  comparison = true,
): DateRanges {
  return dateRangesOf(pickerRangesOf(value, today, weekStart), comparison);
}

/** The picker's ranges as a report config stores them. */
export function configRangesOf(ranges: PickerRanges): ConfigDateRanges {
  const { preset, start, end } = ranges.compare;
  return {
    main: { start: ranges.main.start, end: ranges.main.end, preset: ranges.main.preset },
    compare: start && end ? { start, end, preset } : { preset },
  };
}

export function sameRanges(a: PickerRanges, b: PickerRanges): boolean {
  return (
    a.main.preset === b.main.preset &&
    a.main.start === b.main.start &&
    a.main.end === b.main.end &&
    a.compare.preset === b.compare.preset &&
    a.compare.start === b.compare.start &&
    a.compare.end === b.compare.end
  );
}

/** The message shown on the end input, if the range is not valid. */
export function endError(range: { start?: string; end?: string }): string | undefined {
  return range.start && range.end && range.end < range.start ? END_BEFORE_START : undefined;
}
