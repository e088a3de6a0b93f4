import { HTMLTable, Tooltip } from '@blueprintjs/core';
import { ALERT_TOOLTIP_ROWS, showingFirstMessage, type AlertResult } from '../../contracts/alerting';

const dayState = (result: boolean | null) =>
  result === true ? 'triggered' : result === false ? 'not-triggered' : 'unknown';
const dayText = (result: boolean | null) =>
  result === true ? 'Triggered' : result === false ? 'Not triggered' : 'Unknown';
const valueText = (value: number | null) => (value === null ? 'N/A' : String(value));

/**
 * The rows behind a day's result: each group (or the whole selection) with its condition values and whether
 * every condition held; the first 10, with the spec's note when there are more (spec 3 §2).
 */
export function DayDetails({ details }: { details: AlertResult['details'] }) {
  const shown = details.results.slice(0, ALERT_TOOLTIP_ROWS);
  if (shown.length === 0) return null;
  return (
    <>
      <HTMLTable compact className="or-alert-day-rows">
        <thead>
          <tr>
            {details.dimension && <th>{details.dimension}</th>}
            {details.metrics.map((metric) => (
              <th key={metric}>{metric}</th>
            ))}
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row, index) => (
            <tr key={index}>
              {details.dimension && <td>{row.group ?? 'N/A'}</td>}
              {details.metrics.map((metric) => (
                <td key={metric}>{valueText(row.values[metric] ?? null)}</td>
              ))}
              <td>{dayText(row.result)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {details.total > ALERT_TOOLTIP_ROWS && <p>{showingFirstMessage(details.total)}</p>}
    </>
  );
}

function DayTip({ day }: { day: AlertResult }) {
  const range = day.rangeStart === day.rangeEnd ? day.rangeEnd : `${day.rangeStart} – ${day.rangeEnd}`;
  return (
    <div className="or-alert-day-tip">
      <strong>{`${range}: ${dayText(day.result)}`}</strong>
      <DayDetails details={day.details} />
    </div>
  );
}

/**
 * A rule's days as a bar of cells: green not triggered, red triggered, grey unknown (spec 3 §2). Each cell's
 * tooltip gives the day and the rows behind its result.
 */
export function HistoryBar({ days, label }: { days: readonly AlertResult[]; label: string }) {
  return (
    <ol className="or-alert-history" aria-label={label}>
      {days.map((day) => (
        <li key={day.rangeEnd}>
          <Tooltip content={<DayTip day={day} />} placement="top" compact>
            <span
              className={`or-alert-day or-alert-day-${dayState(day.result)}`}
              aria-label={`${day.rangeEnd}: ${dayText(day.result)}`}
              tabIndex={0}
            />
          </Tooltip>
        </li>
      ))}
    </ol>
  );
}
