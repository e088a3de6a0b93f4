import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  type ComparePreset,
  type DayRange,
  type MainPreset,
  type WeekStart,
  MIN_DATE,
  addDays,
  addMonths,
  compareRange,
  mainPresetRange,
  startOfWeek,
} from '../../engine/dates';
import {
  type ConfigDateRanges,
  type PickerRanges,
  configRangesOf,
  endError,
  isCalendarDay,
  isSelectableDay,
  recalculatedCompare,
  sameRanges,
} from './ranges';

export type Period = 'main' | 'compare';
export type Side = 'start' | 'end';
export type MonthCount = 1 | 2 | 3;

/** The date-range picker popup (spec 2 §4 Date picker). One picker is open at a time. */
export interface DateRangeState {
  open: boolean;
  period: Period;
  side: Side;
  /** The first month the calendar shows, as yyyy-MM-01. */
  firstMonth: string;
  monthCount: MonthCount;
  /** Whether the Comparison tab is offered (dashboards only). */
  comparisonAllowed: boolean;
  /** Presets resolve on this day, fixed when the popup opens. */
  today: string;
  weekStart: WeekStart;
  draft: PickerRanges | null;
  committed: PickerRanges | null;
}

export const initialDateRangeState: DateRangeState = {
  open: false,
  period: 'main',
  side: 'start',
  firstMonth: `${MIN_DATE.slice(0, 7)}-01`,
  monthCount: 1,
  comparisonAllowed: false,
  today: MIN_DATE,
  weekStart: 1,
  draft: null,
  committed: null,
};

const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const MIN_MONTH = monthOf(MIN_DATE);

/** The first visible month that shows `day`'s month last, never before the minimum date's month. */
function firstMonthShowing(day: string, count: MonthCount): string {
  const first = addMonths(monthOf(day), -(count - 1));
  return first < MIN_MONTH ? MIN_MONTH : first;
}

function periodRange(draft: PickerRanges, period: Period): Partial<DayRange> {
  return period === 'main' ? draft.main : draft.compare;
}

/** Sets the range of the current period as picked by hand: the preset becomes custom. */
function setCustomRange(state: DateRangeState, draft: PickerRanges, range: DayRange) {
  if (state.period === 'main') {
    draft.main = { ...range, preset: 'custom' };
    draft.compare = recalculatedCompare(draft.main, draft.compare);
  } else {
    draft.compare = { ...range, preset: 'custom' };
  }
}

/**
 * A whole week or month picked from the calendar. For the main range the current and the previous
 * week or month map to their this/last presets, so the dashboard keeps following the calendar.
 */
function pickPeriod(
  state: DateRangeState,
  range: DayRange,
  presets: { current: Exclude<MainPreset, 'custom'>; previous: Exclude<MainPreset, 'custom'> },
) {
  const draft = state.draft;
  if (!draft) return;
  const clamped = { start: range.start < MIN_DATE ? MIN_DATE : range.start, end: range.end };
  state.side = 'start';
  if (state.period === 'main') {
    for (const preset of [presets.current, presets.previous]) {
      const presetRange = mainPresetRange(preset, state.today, state.weekStart);
      if (presetRange.start === clamped.start) {
        draft.main = { ...presetRange, preset };
        draft.compare = recalculatedCompare(draft.main, draft.compare);
        return;
      }
    }
  }
  setCustomRange(state, draft, clamped);
}

const dateRangeSlice = createSlice({
  name: 'dateRange',
  initialState: initialDateRangeState,
  reducers: {
    opened(
      state,
      action: PayloadAction<{ ranges: PickerRanges; comparisonAllowed: boolean; today: string; weekStart: WeekStart }>,
    ) {
      const { ranges, comparisonAllowed, today, weekStart } = action.payload;
      Object.assign(state, {
        open: true,
        period: 'main',
        side: 'start',
        comparisonAllowed,
        today,
        weekStart,
        draft: ranges,
        committed: ranges,
        firstMonth: firstMonthShowing(ranges.main.end, state.monthCount),
      });
    },
    monthCountChanged(state, action: PayloadAction<MonthCount>) {
      if (action.payload === state.monthCount) return;
      const lastMonth = addMonths(state.firstMonth, state.monthCount - 1);
      state.monthCount = action.payload;
      state.firstMonth = firstMonthShowing(lastMonth, action.payload);
    },
    monthsShifted(state, action: PayloadAction<number>) {
      const first = addMonths(state.firstMonth, action.payload);
      state.firstMonth = first < MIN_MONTH ? MIN_MONTH : first;
    },
    periodChanged(state, action: PayloadAction<Period>) {
      if (action.payload === 'compare' && !state.comparisonAllowed) return;
      state.period = action.payload;
      state.side = 'start';
      const end = state.draft && periodRange(state.draft, action.payload).end;
      if (end) state.firstMonth = firstMonthShowing(end, state.monthCount);
    },
    sideChanged(state, action: PayloadAction<Side>) {
      state.side = action.payload;
    },
    mainPresetPicked(state, action: PayloadAction<MainPreset>) {
      const draft = state.draft;
      if (!draft) return;
      const preset = action.payload;
      const range = preset === 'custom' ? draft.main : mainPresetRange(preset, state.today, state.weekStart);
      draft.main = { start: range.start, end: range.end, preset };
      draft.compare = recalculatedCompare(draft.main, draft.compare);
      state.side = 'start';
      state.firstMonth = firstMonthShowing(draft.main.end, state.monthCount);
    },
    comparePresetPicked(state, action: PayloadAction<ComparePreset>) {
      const draft = state.draft;
      if (!draft) return;
      const preset = action.payload;
      if (preset === 'custom') {
        const { start, end } = draft.compare;
        // A custom comparison starts from the range shown so far, or the preceding period.
        const range = start && end ? { start, end } : compareRange(draft.main, 'preceding_period');
        draft.compare = { preset, ...range };
      } else {
        draft.compare = recalculatedCompare(draft.main, { preset });
      }
      state.side = 'start';
      if (preset === 'disabled') state.period = 'main';
      else if (draft.compare.end) state.firstMonth = firstMonthShowing(draft.compare.end, state.monthCount);
    },
    /** A day clicked in the calendar: sets the current side, then the other side is next. */
    dayPicked(state, action: PayloadAction<string>) {
      const draft = state.draft;
      const day = action.payload;
      if (!draft || !isSelectableDay(day)) return;
      const { start, end } = periodRange(draft, state.period);
      let range: DayRange;
      if (state.side === 'start') range = { start: day, end: end && end >= day ? end : day };
      // An end before the start starts the range there instead, ending where it started before.
      else if (start && day >= start) range = { start, end: day };
      else range = { start: day, end: start ?? day };
      setCustomRange(state, draft, range);
      state.side = state.side === 'start' ? 'end' : 'start';
    },
    /** A day typed into the From or To input. The range may end up invalid; the end input then says so. */
    dayTyped(state, action: PayloadAction<{ side: Side; day: string }>) {
      const draft = state.draft;
      const { side, day } = action.payload;
      if (!draft || !isSelectableDay(day)) return;
      const current = periodRange(draft, state.period);
      const range = { start: current.start ?? day, end: current.end ?? day, [side]: day };
      setCustomRange(state, draft, range);
      state.side = side;
      state.firstMonth = firstMonthShowing(day, state.monthCount);
    },
    /** A week number clicked: `payload` is the week's first day. */
    weekPicked(state, action: PayloadAction<string>) {
      if (!isCalendarDay(action.payload)) return;
      const start = startOfWeek(action.payload, state.weekStart);
      if (addDays(start, 6) < MIN_DATE) return;
      pickPeriod(state, { start, end: addDays(start, 6) }, { current: 'this_week', previous: 'last_week' });
    },
    /** A month title clicked: `payload` is any day of that month. */
    monthPicked(state, action: PayloadAction<string>) {
      if (!isSelectableDay(action.payload)) return;
      const start = monthOf(action.payload);
      const end = addDays(addMonths(start, 1), -1);
      pickPeriod(state, { start, end }, { current: 'this_month', previous: 'last_month' });
    },
    applied(state) {
      if (!state.draft || selectDraftError({ dateRange: state })) return;
      state.committed = state.draft;
      state.open = false;
    },
    canceled(state) {
      state.draft = state.committed;
      state.open = false;
      state.period = 'main';
    },
  },
});

type WithDateRange = { dateRange: DateRangeState };

/** The end input's message when that period's range ends before it starts. */
export function selectEndError(root: WithDateRange, period: Period): string | undefined {
  const { draft } = root.dateRange;
  return draft ? endError(periodRange(draft, period)) : undefined;
}

/** Why Apply is not possible now, if it is not. */
export function selectDraftError(root: WithDateRange): string | undefined {
  return selectEndError(root, 'main') ?? selectEndError(root, 'compare');
}

/** What Apply hands to the report: the draft ranges when they differ from the committed ones, else null. */
export function selectAppliedChange(root: WithDateRange): ConfigDateRanges | null {
  const { draft, committed } = root.dateRange;
  if (!draft || selectDraftError(root)) return null;
  return committed && sameRanges(draft, committed) ? null : configRangesOf(draft);
}

export const selectDateRangePicker = (root: WithDateRange) => root.dateRange;

export const {
  opened,
  monthCountChanged,
  monthsShifted,
  periodChanged,
  sideChanged,
  mainPresetPicked,
  comparePresetPicked,
  dayPicked,
  dayTyped,
  weekPicked,
  monthPicked,
  applied,
  canceled,
} = dateRangeSlice.actions;
export const dateRangeReducer = dateRangeSlice.reducer;
export { dateRangeSlice };
