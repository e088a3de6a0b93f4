import { Icon, Tooltip, type IconName } from '@blueprintjs/core';
import { type ReportType } from '../../../contracts/reports';
import { needsTooltip } from '../state/selectors';

export const reportTypeIcon: Record<ReportType, IconName> = { dashboard: 'dashboard', explorer_view: 'th' };
export const reportTypeLabel: Record<ReportType, string> = { dashboard: 'Dashboard', explorer_view: 'Explorer view' };

export interface TruncatedLabelProps {
  text: string;
  /** Extra class of the label. */
  className?: string;
}

/** A label cut off with an ellipsis; longer than 20 characters, it shows in full in a tooltip (spec 2 §2). */
export function TruncatedLabel({ text, className }: TruncatedLabelProps) {
  const label = <span className={`or-truncated ${className ?? ''}`}>{text}</span>;
  return needsTooltip(text) ? (
    <Tooltip content={text} hoverOpenDelay={400} className="or-truncated-target">
      {label}
    </Tooltip>
  ) : (
    label
  );
}

export interface ReportTypeIconProps {
  type: ReportType;
}

export function ReportTypeIcon({ type }: ReportTypeIconProps) {
  return <Icon icon={reportTypeIcon[type]} title={reportTypeLabel[type]} />;
}
