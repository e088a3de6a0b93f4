import { useCallback, useRef } from 'react';
import { type ExplorerConfig } from '../../contracts/reports';
import { useAppDispatch } from '../../store/hooks';
import { can } from '../reports/reportsApi';
import { type ReportTypeView, type ReportViewProps } from '../reports/reportViews';
import { documentEdited } from '../reports/state/reportDocumentSlice';
import { ExplorerView } from './ExplorerView';

/** An explorer view's report page: the grid; the toolbar has no explorer-only buttons. */
export const explorerReportView: ReportTypeView = { View: ExplorerReportBody, dateComparison: false };

function ExplorerReportBody({ report, reportKey: key, config }: ReportViewProps) {
  const dispatch = useAppDispatch();
  // Debounced grid edits (resizes) apply to the config as it is when they land, not as it was rendered.
  const latest = useRef(config);
  latest.current = config;
  const onEdit = useCallback(
    (edit: (current: ExplorerConfig) => ExplorerConfig) =>
      dispatch(documentEdited({ key, config: edit(latest.current as ExplorerConfig) })),
    [dispatch, key],
  );
  return (
    <ExplorerView
      config={config as ExplorerConfig}
      scope={{ workspaceId: report.workspace_id }}
      canEdit={can.write(report.access_level)}
      onEdit={onEdit}
    />
  );
}
