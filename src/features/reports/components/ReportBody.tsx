import { useCallback, useRef } from 'react';
import { type DashboardConfig, type ExplorerConfig, type Report, type ReportConfig } from '../../../contracts/reports';
import { useAppDispatch } from '../../../store/hooks';
import { DashboardView } from '../../dashboard/DashboardView';
import { ExplorerView } from '../../explorer/ExplorerView';
import { can } from '../reportsApi';
import { documentEdited } from '../state/reportDocumentSlice';

export interface ReportBodyProps {
  /** The server copy, for its type, workspace and access level. */
  report: Report;
  reportKey: string;
  /** The local document's config. */
  config: ReportConfig;
}

/** The report page's body: the dashboard canvas, or an explorer view's grid. */
export function ReportBody({ report, reportKey: key, config }: ReportBodyProps) {
  const dispatch = useAppDispatch();
  // Debounced grid edits (resizes) apply to the config as it is when they land, not as it was rendered.
  const latest = useRef(config);
  latest.current = config;
  const onConfigChange = useCallback(
    (next: DashboardConfig) => dispatch(documentEdited({ key, config: next })),
    [dispatch, key],
  );
  const onExplorerEdit = useCallback(
    (edit: (current: ExplorerConfig) => ExplorerConfig) =>
      dispatch(documentEdited({ key, config: edit(latest.current as ExplorerConfig) })),
    [dispatch, key],
  );
  if (report.type === 'dashboard') {
    return (
      <DashboardView
        reportKey={key}
        config={config as DashboardConfig}
        canEdit={can.write(report.access_level)}
        scope={{ workspaceId: report.workspace_id }}
        onConfigChange={onConfigChange}
      />
    );
  }
  return (
    <ExplorerView
      config={config as ExplorerConfig}
      scope={{ workspaceId: report.workspace_id }}
      canEdit={can.write(report.access_level)}
      onEdit={onExplorerEdit}
    />
  );
}
