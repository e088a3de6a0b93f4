import { localToday } from './ranges';

it("writes today in the viewer's own calendar as yyyy-MM-dd, whatever the hour", () => {
  expect(localToday(new Date(2026, 0, 5, 0, 0))).toBe('2026-01-05');
  expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  expect(localToday(new Date(2026, 11, 31, 12))).toBe('2026-12-31');
  expect(localToday(new Date(999, 8, 9, 12))).toBe('0999-09-09');
});
