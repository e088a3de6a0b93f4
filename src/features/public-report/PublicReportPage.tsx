import './publicReport.css';
import { Button, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { WorkspaceBlocked } from '../../app/AppRoot';
import { dashboardConfigSchema, type DashboardConfig, explorerConfigSchema } from '../../contracts/reports';
import { DashboardView, INVALID_DASHBOARD } from '../dashboard/DashboardView';
import { ExplorerView } from '../explorer/ExplorerView';
import {
  type PublicReport,
  REPORT_POLL_MS,
  useGetPublicFlagsQuery,
  useGetPublicReportQuery,
  useGetPublicWorkspaceQuery,
} from '../reports/reportsApi';
import { errorStatus } from '../session/apiErrors';
import {
  NO_OR_INVALID_URL,
  type PublicCall,
  publicPageOf,
  publicReportIdOf,
  VIEW_NOT_FOUND,
} from './publicReportRules';

const callOf = (data: unknown, error: Parameters<typeof errorStatus>[0]): PublicCall => ({
  hasData: data !== undefined,
  error: error === undefined ? undefined : (errorStatus(error) ?? 'failed'),
});

/** The public page keeps no local edits: the dashboard is shown read-only. */
const ignoreChange = (_config: DashboardConfig) => undefined;
const ignoreExplorerEdit = () => undefined;

/**
 * /reports/{reportId}: a publicly shared report, read-only and without sign-in (spec 2 §2 Routes). Refetched
 * every 10 s, so a link turned off makes the page fail at the next refetch.
 */
export function PublicReportPage() {
  const { reportId: param } = useParams();
  const reportId = publicReportIdOf(param);
  const arg = reportId ?? skipToken;
  const options = { pollingInterval: REPORT_POLL_MS };
  const report = useGetPublicReportQuery(arg, options);
  // The dashboard's widgets read the workspace's locale and flags from these same cache entries.
  const workspace = useGetPublicWorkspaceQuery(arg, options);
  const flags = useGetPublicFlagsQuery(arg, options);

  const page = publicPageOf(reportId, callOf(report.data, report.error), {
    ...callOf(workspace.data, workspace.error),
    status: workspace.data?.status,
  });
  switch (page) {
    case 'invalid':
      return <NonIdealState className="or-page" icon="link" title={NO_OR_INVALID_URL} />;
    case 'notFound':
      return <NonIdealState className="or-page" icon="search" title={VIEW_NOT_FOUND} />;
    case 'suspended':
    case 'cancelled':
      return <WorkspaceBlocked kind={page} />;
    case 'error':
      return (
        <NonIdealState
          className="or-page"
          icon="error"
          title="The report could not be loaded"
          action={
            <Button
              text="Try again"
              onClick={() => {
                void report.refetch();
                void workspace.refetch();
                void flags.refetch();
              }}
            />
          }
        />
      );
    case 'loading':
      return <Spinner className="or-page-spinner" />;
  }
  if (!report.data || !workspace.data || reportId === null) return null;
  return (
    <div className="or-public-report">
      <header className="or-public-titlebar">
        <span className="or-public-avatar" aria-hidden>
          {workspace.data.displayName.slice(0, 1).toUpperCase()}
        </span>
        <span>{workspace.data.displayName}</span>
      </header>
      <main className="or-public-body">
        <H2>{report.data.title}</H2>
        <PublicReportBody report={report.data} workspaceId={workspace.data.id} reportId={reportId} />
      </main>
    </div>
  );
}

interface PublicReportBodyProps {
  report: PublicReport;
  workspaceId: number;
  reportId: number;
}

function PublicReportBody({ report, workspaceId, reportId }: PublicReportBodyProps) {
  // Stable between polls: the widgets' queries depend on the scope.
  const scope = useMemo(() => ({ workspaceId, publicReportId: reportId }), [workspaceId, reportId]);
  const dashboard = useMemo(() => dashboardConfigSchema.safeParse(report.config), [report.config]);
  const explorer = useMemo(() => explorerConfigSchema.safeParse(report.config), [report.config]);
  if (report.type === 'dashboard') {
    if (!dashboard.success) return <NonIdealState icon="error" title={INVALID_DASHBOARD} />;
    return (
      <DashboardView
        reportKey={`public/${reportId}`}
        config={dashboard.data}
        canEdit={false}
        scope={scope}
        onConfigChange={ignoreChange}
      />
    );
  }
  if (!explorer.success) return <NonIdealState icon="error" title="Invalid explorer configuration" />;
  // A public view is read-only: no menus, resizing, panels or edits.
  return <ExplorerView config={explorer.data} scope={scope} canEdit={false} onEdit={ignoreExplorerEdit} />;
}
