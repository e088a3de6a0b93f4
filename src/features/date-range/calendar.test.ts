import { monthWeeks, weekdayHeadings } from './calendar';

describe('calendar grid', () => {
  test('May 2024 with weeks on Monday: ISO week numbers, days outside the month left empty', () => {
    const weeks = monthWeeks('2024-05-01', 1);
    expect(weeks.map((week) => [week.start, week.number])).toEqual([
      ['2024-04-29', 18],
      ['2024-05-06', 19],
      ['2024-05-13', 20],
      ['2024-05-20', 21],
      ['2024-05-27', 22],
    ]);
    expect(weeks[0].days).toEqual([null, null, '2024-05-01', '2024-05-02', '2024-05-03', '2024-05-04', '2024-05-05']);
    expect(weeks[4].days).toEqual(['2024-05-27', '2024-05-28', '2024-05-29', '2024-05-30', '2024-05-31', null, null]);
  });

  test('weeks on Sunday: the week holding 1 January is week 1', () => {
    const weeks = monthWeeks('2023-01-01', 0);
    expect(weeks[0]).toMatchObject({ start: '2023-01-01', number: 1 });
    expect(weekdayHeadings(0)).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']);
    expect(weekdayHeadings(1)[0]).toBe('Mo');
  });

  test('the last ISO week of a year can be week 1 of the next', () => {
    expect(monthWeeks('2024-12-01', 1).at(-1)).toMatchObject({ start: '2024-12-30', number: 1 });
  });
});
