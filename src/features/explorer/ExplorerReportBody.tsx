import { useCallback } from 'react';
import { type ExplorerConfig } from '../../contracts/reports';
import { useAppDispatch } from '../../store/hooks';
import { can } from '../reports/reportsApi';
import { type ReportViewProps } from '../reports/reportViews';
import { type ExplorerEdit, explorerEdited } from './explorerReportView';
import { ExplorerView } from './ExplorerView';

/** An explorer view's body on its report page (loaded with its own chunk, see explorerReportView.tsx). */
export function ExplorerReportBody({ report, reportKey: key, config }: ReportViewProps) {
  const dispatch = useAppDispatch();
  const onEdit = useCallback((edit: ExplorerEdit) => dispatch(explorerEdited(key, edit)), [dispatch, key]);
  return (
    <ExplorerView
      config={config as ExplorerConfig}
      scope={{ workspaceId: report.workspace_id }}
      canEdit={can.write(report.access_level)}
      onEdit={onEdit}
    />
  );
}
