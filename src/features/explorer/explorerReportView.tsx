import { useCallback } from 'react';
import { type ExplorerConfig } from '../../contracts/reports';
import { useAppDispatch } from '../../store/hooks';
import { can } from '../reports/reportsApi';
import { type ReportTypeView, type ReportViewProps } from '../reports/reportViews';
import { documentEdited, selectDocument } from '../reports/state/reportDocumentSlice';
import { ExplorerView } from './ExplorerView';

/** An explorer view's report page: the grid; the toolbar has no explorer-only buttons. */
export const explorerReportView: ReportTypeView = { View: ExplorerReportBody, dateComparison: false };

type ExplorerEdit = (current: ExplorerConfig) => ExplorerConfig;

/**
 * Applies `edit` to the view's config as the store holds it when the edit lands, not as the page last rendered it:
 * a debounced resize, or two edits dispatched before React renders again, each build on the one before.
 */
export function explorerEdited(key: string, edit: ExplorerEdit) {
  return (dispatch: (action: ReturnType<typeof documentEdited>) => void, getState: () => object) => {
    const current = selectDocument(getState(), key)?.config;
    if (current) dispatch(documentEdited({ key, config: edit(current as ExplorerConfig) }));
  };
}

function ExplorerReportBody({ report, reportKey: key, config }: ReportViewProps) {
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
