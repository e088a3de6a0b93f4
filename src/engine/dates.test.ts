import {
  type MainPreset,
  autoGranularity,
  bucketStart,
  compareRange,
  mainPresetRange,
  rangeDays,
  resolveDateRanges,
  resolveGranularity,
  dayRangeSchema,
} from './dates';

// Wednesday 15 May 2024.
const today = '2024-05-15';

describe('main presets', () => {
  test.each<[Exclude<MainPreset, 'custom'>, 0 | 1, string, string]>([
    ['this_week', 1, '2024-05-13', '2024-05-15'],
    ['this_week', 0, '2024-05-12', '2024-05-15'],
    ['last_week', 1, '2024-05-06', '2024-05-12'],
    ['last_week', 0, '2024-05-05', '2024-05-11'],
    ['this_month', 1, '2024-05-01', '2024-05-15'],
    ['last_month', 1, '2024-04-01', '2024-04-30'],
    ['this_quarter', 1, '2024-04-01', '2024-05-15'],
    ['last_quarter', 1, '2024-01-01', '2024-03-31'],
    ['this_year', 1, '2024-01-01', '2024-05-15'],
    ['last_year', 1, '2023-01-01', '2023-12-31'],
    ['last_7_days', 1, '2024-05-08', '2024-05-14'],
    ['last_14_days', 1, '2024-05-01', '2024-05-14'],
    ['last_28_days', 1, '2024-04-17', '2024-05-14'],
    ['last_30_days', 1, '2024-04-15', '2024-05-14'],
    ['last_90_days', 1, '2024-02-15', '2024-05-14'],
  ])('%s (week starts on %i)', (preset, weekStart, start, end) => {
    expect(mainPresetRange(preset, today, weekStart)).toEqual({ start, end });
  });

  test('a week starting on Saturday, on a Saturday, starts that day', () => {
    expect(mainPresetRange('this_week', '2024-05-18', 6)).toEqual({ start: '2024-05-18', end: '2024-05-18' });
  });

  test('last quarter across a year boundary', () => {
    expect(mainPresetRange('last_quarter', '2024-02-10')).toEqual({ start: '2023-10-01', end: '2023-12-31' });
  });

  test('last N days cover N days', () => {
    expect(rangeDays(mainPresetRange('last_30_days', today))).toBe(30);
  });
});

describe('comparison ranges', () => {
  test.each([
    ['preceding_period', { start: '2024-04-01', end: '2024-04-30' }, { start: '2024-03-02', end: '2024-03-31' }],
    ['preceding_period', { start: '2024-03-01', end: '2024-03-01' }, { start: '2024-02-29', end: '2024-02-29' }],
    ['year_over_year', { start: '2024-02-01', end: '2024-02-29' }, { start: '2023-02-01', end: '2023-02-28' }],
    ['month_over_month', { start: '2024-03-31', end: '2024-03-31' }, { start: '2024-02-29', end: '2024-02-29' }],
    ['month_over_month', { start: '2024-01-01', end: '2024-01-31' }, { start: '2023-12-01', end: '2023-12-31' }],
  ] as const)('%s of %j', (preset, main, expected) => {
    expect(compareRange(main, preset)).toEqual(expected);
  });

  test('disabled has no comparison; custom is the given range', () => {
    const main = { start: '2024-04-01', end: '2024-04-30' };
    expect(compareRange(main, 'disabled')).toBeUndefined();
    expect(compareRange(main, 'custom', { start: '2020-01-01', end: '2020-01-05' })).toEqual({
      start: '2020-01-01',
      end: '2020-01-05',
    });
  });

  test('a range ending before it starts is refused with the spec message', () => {
    const result = dayRangeSchema.safeParse({ start: '2024-05-02', end: '2024-05-01' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('End date cannot be earlier than start date.');
    expect(dayRangeSchema.safeParse({ start: '2024-02-30', end: '2024-03-01' }).success).toBe(false);
  });
});

describe('granularity', () => {
  const days = (n: number) => ({ start: '2024-01-01', end: new Date(Date.UTC(2024, 0, n)).toISOString().slice(0, 10) });
  test.each([
    [70, 'line', 'day'],
    [71, 'line', 'week'],
    [365, 'line', 'week'],
    [366, 'line', 'month'],
    [90, 'bar_grouped', 'week'],
    [91, 'bar_grouped', 'month'],
    [70, 'bar_grouped', 'day'],
    [365, 'bar_stacked', 'week'],
    [366, 'bar_stacked', 'month'],
  ] as const)('%i days on %s: %s', (n, chart, expected) => {
    expect(rangeDays(days(n))).toBe(n);
    expect(autoGranularity(days(n), chart)).toBe(expected);
  });

  test('an explicit granularity wins over auto', () => {
    expect(resolveGranularity('quarter', days(10))).toBe('quarter');
  });

  test.each([
    ['2024-05-15', 'week', 1, '2024-05-13'],
    ['2024-05-12', 'week', 1, '2024-05-06'],
    ['2024-05-12', 'week', 0, '2024-05-12'],
    ['2024-05-15', 'week', 3, '2024-05-15'],
    ['2024-05-14', 'week', 3, '2024-05-08'],
    ['2024-05-15', 'month', 1, '2024-05-01'],
    ['2024-05-15', 'quarter', 1, '2024-04-01'],
    ['2024-12-31', 'quarter', 1, '2024-10-01'],
  ] as const)('bucket of %s by %s (week start %i) is %s', (day, granularity, weekStart, expected) => {
    expect(bucketStart(day, granularity, weekStart)).toBe(expected);
  });
});

describe('defaults', () => {
  test('the last 30 days against the preceding period', () => {
    expect(resolveDateRanges(today)).toEqual({
      main: { start: '2024-04-15', end: '2024-05-14', preset: 'last_30_days' },
      compare: { start: '2024-03-16', end: '2024-04-14', preset: 'preceding_period' },
    });
  });
  test('a custom main range without comparison', () => {
    const custom = { start: '2024-01-01', end: '2024-01-10' };
    expect(resolveDateRanges(today, 1, { preset: 'custom', custom }, { preset: 'disabled' })).toEqual({
      main: { ...custom, preset: 'custom' },
      compare: undefined,
    });
  });
});
