import { Button, Classes } from '@blueprintjs/core';
import { format } from 'date-fns';
import { type WeekStart, MIN_DATE, addMonths } from '../../engine/dates';
import { monthWeeks, weekdayHeadings } from './calendar';

export interface RangeCalendarProps {
  /** The first month shown, yyyy-MM-01. */
  firstMonth: string;
  /** How many months are shown side by side. */
  monthCount: number;
  weekStart: WeekStart;
  /** The range of the current period, highlighted. */
  start?: string;
  end?: string;
  /** The other period's range, shown faintly (the comparison on the main tab and the reverse). */
  other?: { start?: string; end?: string };
  onDayClick(day: string): void;
  /** Called with the first day of the clicked week. */
  onWeekClick(start: string): void;
  /** Called with the first day of the clicked month. */
  onMonthClick(first: string): void;
  onShift(months: number): void;
}

const MIN_MONTH = `${MIN_DATE.slice(0, 7)}-01`;

function monthTitle(first: string): string {
  const [y, m] = first.split('-').map(Number);
  return format(new Date(y, m - 1, 1), 'MMMM yyyy');
}

/** A calendar of one to three months with clickable week numbers and month titles. */
export function RangeCalendar(props: RangeCalendarProps) {
  const { firstMonth, monthCount } = props;
  const months = Array.from({ length: monthCount }, (_, index) => addMonths(firstMonth, index));
  return (
    <div className="or-range-calendar">
      <Button
        className="or-range-calendar-prev"
        variant="minimal"
        icon="chevron-left"
        aria-label="Previous month"
        disabled={firstMonth <= MIN_MONTH}
        onClick={() => props.onShift(-1)}
      />
      {months.map((month) => (
        <MonthTable key={month} {...props} month={month} />
      ))}
      <Button
        className="or-range-calendar-next"
        variant="minimal"
        icon="chevron-right"
        aria-label="Next month"
        onClick={() => props.onShift(1)}
      />
    </div>
  );
}

/** One month: its title (picks the month), the weekday headings, and per week its number (picks it) and days. */
function MonthTable(props: RangeCalendarProps & { month: string }) {
  const { month, weekStart, start, end, other } = props;
  return (
    <table className="or-range-month">
      <caption>
        <Button
          variant="minimal"
          size="small"
          className="or-range-month-title"
          title="Select this month"
          onClick={() => props.onMonthClick(month)}
        >
          {monthTitle(month)}
        </Button>
      </caption>
      <thead>
        <tr>
          <th className={Classes.TEXT_MUTED} aria-label="Week" />
          {weekdayHeadings(weekStart).map((heading) => (
            <th key={heading} className={Classes.TEXT_MUTED}>
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {monthWeeks(month, weekStart).map((week) => (
          <tr key={week.start}>
            <td>
              <button
                type="button"
                className="or-range-week"
                title="Select this week"
                aria-label={`Week ${week.number}`}
                onClick={() => props.onWeekClick(week.start)}
              >
                {week.number}
              </button>
            </td>
            {week.days.map((day, index) => (
              <td key={day ?? `empty-${index}`}>
                {day && (
                  <button
                    type="button"
                    className={dayClass(day, start, end, other)}
                    aria-label={day}
                    aria-pressed={within(day, { start, end })}
                    disabled={day < MIN_DATE}
                    onClick={() => props.onDayClick(day)}
                  >
                    {Number(day.slice(8))}
                  </button>
                )}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const within = (day: string, range?: { start?: string; end?: string }) =>
  Boolean(range?.start && range.end && day >= range.start && day <= range.end);

function dayClass(day: string, start?: string, end?: string, other?: { start?: string; end?: string }): string {
  const classes = ['or-range-day'];
  if (within(day, other)) classes.push('or-range-day-other');
  if (within(day, { start, end })) classes.push('or-range-day-in');
  if (day === start) classes.push('or-range-day-start');
  if (day === end) classes.push('or-range-day-end');
  return classes.join(' ');
}
