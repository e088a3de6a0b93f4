import { getWeek } from 'date-fns';
import { type WeekStart, addDays, addMonths, startOfWeek } from '../../engine/dates';

export interface CalendarWeek {
  /** The week's first day (may fall in the previous month). */
  start: string;
  number: number;
  /** Seven cells; null where the day belongs to another month. */
  days: (string | null)[];
}

/**
 * Week number of a week starting on `start`: ISO numbering when weeks start on Monday, otherwise the
 * week holding 1 January is week 1, as calendars starting on Sunday number them.
 */
export function weekNumber(start: string, weekStart: WeekStart): number {
  const [y, m, d] = start.split('-').map(Number);
  return getWeek(new Date(y, m - 1, d), { weekStartsOn: weekStart, firstWeekContainsDate: weekStart === 1 ? 4 : 1 });
}

/** The weeks of the month starting on `first` (yyyy-MM-01), each as seven cells. */
export function monthWeeks(first: string, weekStart: WeekStart): CalendarWeek[] {
  const next = addMonths(first, 1);
  const weeks: CalendarWeek[] = [];
  for (let start = startOfWeek(first, weekStart); start < next; start = addDays(start, 7)) {
    const days = Array.from({ length: 7 }, (_, index) => addDays(start, index)).map((day) =>
      day.slice(0, 7) === first.slice(0, 7) ? day : null,
    );
    weeks.push({ start, number: weekNumber(start, weekStart), days });
  }
  return weeks;
}

const WEEKDAY_NAMES = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];

/** The weekday column headings, starting on the first day of week. */
export function weekdayHeadings(weekStart: WeekStart): string[] {
  return Array.from({ length: 7 }, (_, index) => WEEKDAY_NAMES[(weekStart + index) % 7]);
}
