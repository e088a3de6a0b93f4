import {
  type DateRangeState,
  applied,
  canceled,
  comparePresetPicked,
  dateRangeReducer,
  dayPicked,
  dayTyped,
  initialDateRangeState,
  mainPresetPicked,
  monthCountChanged,
  monthPicked,
  monthsShifted,
  opened,
  periodChanged,
  selectAppliedChange,
  selectEndError,
  sideChanged,
  weekPicked,
} from './dateRangeSlice';
import { type PickerRanges, pickerRangesOf, resolveConfigDateRanges } from './ranges';

// Wednesday 15 May 2024; weeks start on Monday.
const today = '2024-05-15';
const last30: PickerRanges = {
  main: { start: '2024-04-15', end: '2024-05-14', preset: 'last_30_days' },
  compare: { start: '2024-03-16', end: '2024-04-14', preset: 'preceding_period' },
};

function openPicker(ranges: PickerRanges = last30, comparisonAllowed = true): DateRangeState {
  return dateRangeReducer(initialDateRangeState, opened({ ranges, comparisonAllowed, today, weekStart: 1 }));
}
const change = (state: DateRangeState) => selectAppliedChange({ dateRange: state });

describe('opening', () => {
  test('opens on the main tab with the start side and the given ranges as draft and committed', () => {
    const state = openPicker();
    expect(state).toMatchObject({ open: true, period: 'main', side: 'start', draft: last30, committed: last30 });
  });

  test('the calendar shows the month of the main end last', () => {
    let state = dateRangeReducer(initialDateRangeState, monthCountChanged(3));
    state = dateRangeReducer(state, opened({ ranges: last30, comparisonAllowed: true, today, weekStart: 1 }));
    expect(state.firstMonth).toBe('2024-03-01');
    expect(dateRangeReducer(state, monthCountChanged(1)).firstMonth).toBe('2024-05-01');
  });

  test('months move back and forward but never before January 2000', () => {
    const state = openPicker();
    expect(dateRangeReducer(state, monthsShifted(-1)).firstMonth).toBe('2024-04-01');
    expect(dateRangeReducer(state, monthsShifted(2)).firstMonth).toBe('2024-07-01');
    expect(dateRangeReducer(state, monthsShifted(-1000)).firstMonth).toBe('2000-01-01');
  });
});

describe('presets', () => {
  test('a main preset resolves on today and recalculates the compare range', () => {
    const state = dateRangeReducer(openPicker(), mainPresetPicked('last_week'));
    expect(state.draft).toEqual({
      main: { start: '2024-05-06', end: '2024-05-12', preset: 'last_week' },
      compare: { start: '2024-04-29', end: '2024-05-05', preset: 'preceding_period' },
    });
  });

  test('the main custom preset keeps the dates', () => {
    const state = dateRangeReducer(openPicker(), mainPresetPicked('custom'));
    expect(state.draft?.main).toEqual({ ...last30.main, preset: 'custom' });
  });

  test('year over year and month over month compare ranges', () => {
    let state = dateRangeReducer(openPicker(), comparePresetPicked('year_over_year'));
    expect(state.draft?.compare).toEqual({ start: '2023-04-15', end: '2023-05-14', preset: 'year_over_year' });
    state = dateRangeReducer(state, comparePresetPicked('month_over_month'));
    expect(state.draft?.compare).toEqual({ start: '2024-03-15', end: '2024-04-14', preset: 'month_over_month' });
  });

  test('a custom compare range starts from the range shown and is not recalculated from the main range', () => {
    let state = dateRangeReducer(openPicker(), comparePresetPicked('custom'));
    expect(state.draft?.compare).toEqual({ ...last30.compare, preset: 'custom' });
    state = dateRangeReducer(state, mainPresetPicked('last_week'));
    expect(state.draft?.compare).toEqual({ ...last30.compare, preset: 'custom' });
  });

  test('a custom compare range after disabled starts as the preceding period', () => {
    let state = dateRangeReducer(openPicker(), comparePresetPicked('disabled'));
    expect(state.draft?.compare).toEqual({ preset: 'disabled' });
    state = dateRangeReducer(state, comparePresetPicked('custom'));
    expect(state.draft?.compare).toEqual({ ...last30.compare, preset: 'custom' });
  });

  test('disabling comparison returns to the main tab', () => {
    let state = dateRangeReducer(openPicker(), periodChanged('compare'));
    expect(state.period).toBe('compare');
    state = dateRangeReducer(state, comparePresetPicked('disabled'));
    expect(state.period).toBe('main');
  });

  test('the comparison tab cannot be opened where comparison is not offered', () => {
    const state = dateRangeReducer(openPicker(last30, false), periodChanged('compare'));
    expect(state.period).toBe('main');
  });
});

describe('picking days', () => {
  test('picking a date sets the preset to custom and flips the side', () => {
    let state = dateRangeReducer(openPicker(), dayPicked('2024-04-01'));
    expect(state.side).toBe('end');
    expect(state.draft?.main).toEqual({ start: '2024-04-01', end: '2024-05-14', preset: 'custom' });
    state = dateRangeReducer(state, dayPicked('2024-04-10'));
    expect(state.side).toBe('start');
    expect(state.draft?.main).toEqual({ start: '2024-04-01', end: '2024-04-10', preset: 'custom' });
  });

  test('the compare range is recalculated from a picked main range', () => {
    let state = dateRangeReducer(openPicker(), dayPicked('2024-04-01'));
    state = dateRangeReducer(state, dayPicked('2024-04-10'));
    expect(state.draft?.compare).toEqual({ start: '2024-03-22', end: '2024-03-31', preset: 'preceding_period' });
  });

  test('a start after the end moves the end along', () => {
    const state = dateRangeReducer(openPicker(), dayPicked('2024-06-01'));
    expect(state.draft?.main).toEqual({ start: '2024-06-01', end: '2024-06-01', preset: 'custom' });
  });

  test('an end picked before the start starts the range there', () => {
    let state = dateRangeReducer(openPicker(), sideChanged('end'));
    state = dateRangeReducer(state, dayPicked('2024-04-01'));
    expect(state.draft?.main).toEqual({ start: '2024-04-01', end: '2024-04-15', preset: 'custom' });
    expect(state.side).toBe('start');
  });

  test('on the comparison tab a picked day makes the compare range custom and leaves the main range', () => {
    let state = dateRangeReducer(openPicker(), periodChanged('compare'));
    state = dateRangeReducer(state, dayPicked('2024-01-01'));
    state = dateRangeReducer(state, dayPicked('2024-01-31'));
    expect(state.draft).toEqual({
      main: last30.main,
      compare: { start: '2024-01-01', end: '2024-01-31', preset: 'custom' },
    });
  });

  test.each(['2024-02-30', '2024-13-01', 'yesterday', '', '1999-12-31'])('ignores the invalid date %p', (day) => {
    const state = openPicker();
    expect(dateRangeReducer(state, dayPicked(day))).toEqual(state);
    expect(dateRangeReducer(state, dayTyped({ side: 'start', day }))).toEqual(state);
  });

  test('2000-01-01 is the first selectable day', () => {
    const state = dateRangeReducer(openPicker(), dayTyped({ side: 'start', day: '2000-01-01' }));
    expect(state.draft?.main.start).toBe('2000-01-01');
  });
});

describe('typed dates', () => {
  test('a typed end before the start is kept with the message on the end, and Apply does nothing', () => {
    const state = dateRangeReducer(openPicker(), dayTyped({ side: 'end', day: '2024-04-01' }));
    expect(state.draft?.main).toEqual({ start: '2024-04-15', end: '2024-04-01', preset: 'custom' });
    expect(selectEndError({ dateRange: state }, 'main')).toBe('End date cannot be earlier than start date.');
    expect(change(state)).toBeNull();
    expect(dateRangeReducer(state, applied())).toEqual(state);
  });

  test('typing a start sets it without flipping the side and shows its month', () => {
    const state = dateRangeReducer(openPicker(), dayTyped({ side: 'start', day: '2023-01-10' }));
    expect(state.draft?.main).toEqual({ start: '2023-01-10', end: '2024-05-14', preset: 'custom' });
    expect(state.side).toBe('start');
    expect(state.firstMonth).toBe('2023-01-01');
  });
});

describe('week and month selection', () => {
  test('the current week maps to this week', () => {
    const state = dateRangeReducer(openPicker(), weekPicked('2024-05-13'));
    expect(state.draft?.main).toEqual({ start: '2024-05-13', end: '2024-05-15', preset: 'this_week' });
  });

  test('the previous week maps to last week', () => {
    const state = dateRangeReducer(openPicker(), weekPicked('2024-05-06'));
    expect(state.draft?.main).toEqual({ start: '2024-05-06', end: '2024-05-12', preset: 'last_week' });
  });

  test('an older week is a custom range of seven days', () => {
    const state = dateRangeReducer(openPicker(), weekPicked('2024-04-22'));
    expect(state.draft?.main).toEqual({ start: '2024-04-22', end: '2024-04-28', preset: 'custom' });
  });

  test('weeks follow the first day of week', () => {
    const sundays = dateRangeReducer(
      initialDateRangeState,
      opened({ ranges: last30, comparisonAllowed: true, today, weekStart: 0 }),
    );
    expect(dateRangeReducer(sundays, weekPicked('2024-05-12')).draft?.main).toEqual({
      start: '2024-05-12',
      end: '2024-05-15',
      preset: 'this_week',
    });
  });

  test('the current and the previous month map to this and last month; others are custom', () => {
    const state = openPicker();
    expect(dateRangeReducer(state, monthPicked('2024-05-01')).draft?.main).toEqual({
      start: '2024-05-01',
      end: '2024-05-15',
      preset: 'this_month',
    });
    expect(dateRangeReducer(state, monthPicked('2024-04-01')).draft?.main).toEqual({
      start: '2024-04-01',
      end: '2024-04-30',
      preset: 'last_month',
    });
    expect(dateRangeReducer(state, monthPicked('2024-02-01')).draft?.main).toEqual({
      start: '2024-02-01',
      end: '2024-02-29',
      preset: 'custom',
    });
  });

  test('on the comparison tab a week or month is always a custom compare range', () => {
    const state = dateRangeReducer(openPicker(), periodChanged('compare'));
    expect(dateRangeReducer(state, monthPicked('2024-04-01')).draft?.compare).toEqual({
      start: '2024-04-01',
      end: '2024-04-30',
      preset: 'custom',
    });
    expect(dateRangeReducer(state, weekPicked('2024-05-13')).draft?.compare).toEqual({
      start: '2024-05-13',
      end: '2024-05-19',
      preset: 'custom',
    });
  });

  test('the first week of 2000 starts on 2000-01-01', () => {
    const state = dateRangeReducer(openPicker(), weekPicked('1999-12-27'));
    expect(state.draft?.main).toEqual({ start: '2000-01-01', end: '2000-01-02', preset: 'custom' });
  });
});

describe('apply and cancel', () => {
  test('Apply without changes hands nothing over and closes', () => {
    let state = dateRangeReducer(openPicker(), mainPresetPicked('last_week'));
    state = dateRangeReducer(state, mainPresetPicked('last_30_days'));
    expect(change(state)).toBeNull();
    expect(dateRangeReducer(state, applied()).open).toBe(false);
  });

  test('Apply hands over the changed ranges and commits them', () => {
    let state = dateRangeReducer(openPicker(), mainPresetPicked('last_week'));
    expect(change(state)).toEqual({
      main: { start: '2024-05-06', end: '2024-05-12', preset: 'last_week' },
      compare: { start: '2024-04-29', end: '2024-05-05', preset: 'preceding_period' },
    });
    state = dateRangeReducer(state, applied());
    expect(state.open).toBe(false);
    expect(state.committed).toEqual(state.draft);
    expect(change(state)).toBeNull();
  });

  test('disabled comparison is handed over without dates', () => {
    const state = dateRangeReducer(openPicker(), comparePresetPicked('disabled'));
    expect(change(state)?.compare).toEqual({ preset: 'disabled' });
  });

  test('Cancel restores the committed ranges and closes', () => {
    let state = dateRangeReducer(openPicker(), dayPicked('2024-01-01'));
    state = dateRangeReducer(state, periodChanged('compare'));
    state = dateRangeReducer(state, canceled());
    expect(state).toMatchObject({ open: false, period: 'main', draft: last30, committed: last30 });
  });
});

describe('saved ranges', () => {
  test('presets resolve again on today; custom ranges are kept', () => {
    expect(
      pickerRangesOf(
        {
          main: { start: '2020-01-01', end: '2020-01-30', preset: 'last_30_days' },
          compare: { preset: 'preceding_period' },
        },
        today,
        1,
      ),
    ).toEqual(last30);
    expect(
      pickerRangesOf(
        {
          main: { start: '2024-01-01', end: '2024-01-31', preset: 'custom' },
          compare: { start: '2023-01-01', end: '2023-01-15', preset: 'custom' },
        },
        today,
        1,
      ),
    ).toEqual({
      main: { start: '2024-01-01', end: '2024-01-31', preset: 'custom' },
      compare: { start: '2023-01-01', end: '2023-01-15', preset: 'custom' },
    });
  });

  test('missing or invalid ranges fall back to the last 30 days against the preceding period', () => {
    expect(pickerRangesOf(undefined, today, 1)).toEqual(last30);
    expect(pickerRangesOf({ main: { start: '2024-05-10', end: '2024-05-01', preset: 'custom' } }, today, 1)).toEqual(
      last30,
    );
    expect(pickerRangesOf({ main: { preset: 'next_year' }, compare: { preset: 'sometimes' } }, today, 1)).toEqual(
      last30,
    );
  });

  test('widgets get no compare range when comparison is disabled or not offered', () => {
    const disabled = { main: { preset: 'last_30_days' }, compare: { preset: 'disabled' } };
    expect(resolveConfigDateRanges(disabled, today, 1).compare).toBeUndefined();
    expect(resolveConfigDateRanges(undefined, today, 1, false).compare).toBeUndefined();
    expect(resolveConfigDateRanges(undefined, today, 1).compare).toEqual(last30.compare);
  });
});
