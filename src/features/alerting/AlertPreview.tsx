import { Callout, Spinner } from '@blueprintjs/core';
import { type AlertRuleInput } from '../../contracts/alerting';
import { alertMessages } from './alertForm';
import { usePreviewAlertRuleQuery } from './alertingApi';
import { DayDetails, type DetailFormat, HistoryBar } from './HistoryBar';

/** How often an unsaved rule would have triggered over the last 30 days, with the triggered days' details. */
interface AlertPreviewProps {
  workspaceId: number;
  body: AlertRuleInput;
  format: DetailFormat;
}

export function AlertPreview({ workspaceId, body, format }: AlertPreviewProps) {
  const { currentData, isError } = usePreviewAlertRuleQuery({ workspaceId, body });
  if (isError)
    return (
      <Callout intent="danger" compact>
        {alertMessages.historyFailed}
      </Callout>
    );
  if (!currentData) return <Spinner size={20} aria-label="Loading the preview" />;
  const triggered = currentData.results.filter((day) => day.result === true);
  return (
    <div className="or-alert-preview">
      <HistoryBar days={currentData.results} label="Preview" format={format} />
      <p>{`Triggered on ${triggered.length} of ${currentData.results.length} days.`}</p>
      {triggered.map((day) => (
        <details key={day.rangeEnd}>
          <summary>{day.rangeEnd}</summary>
          <DayDetails details={day.details} format={format} />
        </details>
      ))}
    </div>
  );
}
