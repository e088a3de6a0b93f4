import { Callout, HTMLTable } from '@blueprintjs/core';
import { useCallback } from 'react';
import {
  type DashboardConfig,
  DEFAULT_EXPLORER_DATASET,
  explorerConfigSchema,
  type Report,
  type ReportConfig,
} from '../../../contracts/reports';
import { useAppDispatch } from '../../../store/hooks';
import { DashboardView } from '../../dashboard/DashboardView';
import { documentEdited } from '../../report-document/reportDocumentSlice';
import { can } from '../reportsApi';

export interface ReportBodyProps {
  /** The server copy, for its type, workspace and access level. */
  report: Report;
  reportKey: string;
  /** The local document's config. */
  config: ReportConfig;
}

/** The report page's body: the dashboard canvas, or an explorer view's summary. */
export function ReportBody({ report, reportKey: key, config }: ReportBodyProps) {
  const dispatch = useAppDispatch();
  const onConfigChange = useCallback(
    (next: DashboardConfig) => dispatch(documentEdited({ key, config: next })),
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
  return <ExplorerSummary config={config} />;
}

function ExplorerSummary({ config }: { config: ReportConfig }) {
  const parsed = explorerConfigSchema.safeParse(config);
  const explorer = parsed.success ? parsed.data : null;
  return (
    <div className="or-report-explorer">
      <Callout icon="info-sign" title="The explorer grid is not available yet">
        This explorer view can be opened, shared and saved, but its data grid comes in a later version of Openrate.
      </Callout>
      <HTMLTable compact>
        <tbody>
          <tr>
            <th scope="row">Dataset</th>
            <td>{explorer?.dataset ?? DEFAULT_EXPLORER_DATASET}</td>
          </tr>
          <tr>
            <th scope="row">Date field</th>
            <td>{explorer?.dateField ?? 'None'}</td>
          </tr>
        </tbody>
      </HTMLTable>
    </div>
  );
}
