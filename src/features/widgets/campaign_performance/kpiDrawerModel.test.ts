import { type DateRanges, addDays } from '../../../engine/dates';
import { narrowRanges, sliderScale, stepDay } from './kpiDrawerModel';

describe('range slider steps', () => {
  test.each([
    [{ start: '2024-01-01', end: '2024-01-31' }, 1, 30],
    // 365 days still step by day; one more and the slider steps by week.
    [{ start: '2023-01-01', end: '2023-12-31' }, 1, 364],
    [{ start: '2023-01-01', end: '2024-01-01' }, 7, 52],
    [{ start: '2022-01-01', end: '2023-12-31' }, 7, 104],
  ] as const)('%o: %i day(s) per step, up to step %i', (range, step, max) => {
    expect(sliderScale(range)).toEqual({ step, max });
  });
});

describe('narrowing the ranges', () => {
  const ranges: DateRanges = {
    main: { start: '2024-02-01', end: '2024-02-29', preset: 'last_month' },
    compare: { start: '2024-01-03', end: '2024-01-31', preset: 'preceding_period' },
  };

  test('by days: the main range and the comparison move together', () => {
    const scale = sliderScale(ranges.main);
    expect(narrowRanges(ranges, scale, [2, 9])).toEqual({
      main: { start: '2024-02-03', end: '2024-02-10', preset: 'last_month' },
      compare: { start: '2024-01-05', end: '2024-01-12', preset: 'preceding_period' },
    });
    expect(narrowRanges(ranges, scale, [0, scale.max])).toEqual(ranges);
  });

  test('by weeks: the last step ends with the range, not past it', () => {
    const long: DateRanges = { main: { start: '2023-01-01', end: '2024-01-10', preset: 'custom' } };
    const scale = sliderScale(long.main);
    expect(scale.step).toBe(7);
    expect(stepDay(long.main, scale, 3)).toBe(addDays('2023-01-01', 21));
    expect(narrowRanges(long, scale, [1, scale.max])).toEqual({
      main: { start: '2023-01-08', end: '2024-01-10', preset: 'custom' },
      compare: undefined,
    });
    expect(narrowRanges(long, scale, [0, 0]).main).toMatchObject({ start: '2023-01-01', end: '2023-01-07' });
  });
});
