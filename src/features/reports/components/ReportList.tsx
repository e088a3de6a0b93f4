import { Button, H4, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { type ReportSummary } from '../../../contracts/reports';
import { can } from '../reportsApi';
import { type ReportGroup } from '../state/selectors';
import { reportPath } from '../useReportActions';
import { ReportTypeIcon, TruncatedLabel } from './ReportLabel';

export type RowAction = 'share' | 'rename' | 'delete' | 'duplicate';

export interface ReportListProps {
  workspaceId: number;
  groups: ReportGroup[];
  /** BCP 47 tag the modification times are written in; undefined is the browser's. */
  locale: string | undefined;
  onAction: (action: RowAction, report: ReportSummary) => void;
}

/** The reports home list: rows in their groups, each with its permission-gated menu (spec 2 §2, §6). */
export function ReportList({ workspaceId, groups, locale, onAction }: ReportListProps) {
  const modified = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className="or-report-list">
      {groups.map((group) => (
        <section key={group.label ?? 'all'} aria-label={group.label ?? 'Reports'}>
          {group.label && <H4 className="or-report-group">{group.label}</H4>}
          <ul>
            {group.reports.map((report) => (
              <li key={`${report.type}/${report.id}`} className="or-report-row">
                <ReportTypeIcon type={report.type} />
                <Link className="or-report-row-title" to={reportPath(workspaceId, report)}>
                  <TruncatedLabel text={report.title} />
                </Link>
                <span className="or-report-row-modified">
                  {`Modified ${modified.format(new Date(report.modified_at))}`}
                  {report.modified_by ? ` by ${report.modified_by.name}` : ''}
                </span>
                <PopoverNext
                  // One per report row: no portal until its menu first opens.
                  lazy
                  shouldReturnFocusOnClose={false}
                  placement="bottom-end"
                  content={
                    <Menu>
                      {can.share(report.access_level) && (
                        <MenuItem icon="share" text="Share" onClick={() => onAction('share', report)} />
                      )}
                      {can.write(report.access_level) && (
                        <MenuItem icon="edit" text="Rename" onClick={() => onAction('rename', report)} />
                      )}
                      {can.delete(report.access_level) && (
                        <MenuItem icon="trash" text="Delete" onClick={() => onAction('delete', report)} />
                      )}
                      <MenuItem icon="duplicate" text="Duplicate" onClick={() => onAction('duplicate', report)} />
                    </Menu>
                  }
                >
                  <Button variant="minimal" icon="more" aria-label={`Actions for ${report.title}`} />
                </PopoverNext>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
