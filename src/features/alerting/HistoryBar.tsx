import { HTMLTable, Tooltip } from '@blueprintjs/core';
import { ALERT_TOOLTIP_ROWS, showingFirstMessage, type AlertResult } from '../../contracts/alerting';
import { type Locale } from '../../contracts/common';
import { type DatasetSchema } from '../../contracts/datasets';
import { formatField } from '../../engine/format';
import { fieldText } from '../widget-config/settingsOptions';

/** Labels and number formats of the rule's dataset; ids and plain numbers without it. */
export interface DetailFormat {
  schema: DatasetSchema | undefined;
  locale: Locale;
}

const dayState = (result: boolean | null) =>
  result === true ? 'triggered' : result === false ? 'not-triggered' : 'unknown';
const dayText = (result: boolean | null) =>
  result === true ? 'Triggered' : result === false ? 'Not triggered' : 'Unknown';

/**
 * The rows behind a day's result: each group (or the whole selection) with its condition values and whether
 * every condition held; the first 10, with the spec's note when there are more (spec 3 §2).
 */
export function DayDetails({ details, format }: { details: AlertResult['details']; format: DetailFormat }) {
  const shown = details.results.slice(0, ALERT_TOOLTIP_ROWS);
  if (shown.length === 0) return null;
  const field = (id: string) => format.schema?.fields.find((candidate) => candidate.id === id);
  const label = (id: string) => {
    const known = field(id);
    return known ? fieldText(known) : id;
  };
  return (
    <>
      <HTMLTable compact className="or-alert-day-rows">
        <thead>
          <tr>
            {details.dimension && <th>{label(details.dimension)}</th>}
            {details.metrics.map((metric) => (
              <th key={metric}>{label(metric)}</th>
            ))}
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row, index) => (
            <tr key={index}>
              {details.dimension && <td>{row.group ?? 'N/A'}</td>}
              {details.metrics.map((metric) => (
                <td key={metric}>{formatField(row.values[metric] ?? null, field(metric), format.locale)}</td>
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

function DayTip({ day, format }: { day: AlertResult; format: DetailFormat }) {
  const range = day.rangeStart === day.rangeEnd ? day.rangeEnd : `${day.rangeStart} – ${day.rangeEnd}`;
  return (
    <div className="or-alert-day-tip">
      <strong>{`${range}: ${dayText(day.result)}`}</strong>
      <DayDetails details={day.details} format={format} />
    </div>
  );
}

/**
 * A rule's days as a bar of cells: green not triggered, red triggered, grey unknown (spec 3 §2). Each cell's
 * tooltip gives the day and the rows behind its result.
 */
export function HistoryBar({
  days,
  label,
  format,
}: {
  days: readonly AlertResult[];
  label: string;
  format: DetailFormat;
}) {
  return (
    <ol className="or-alert-history" aria-label={label}>
      {days.map((day) => (
        <li key={day.rangeEnd}>
          <Tooltip content={<DayTip day={day} format={format} />} placement="top" compact>
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
