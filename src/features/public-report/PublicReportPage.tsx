import './publicReport.css';
import { Button, Classes, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { WorkspaceBlocked } from '../../app/AppRoot';
import { dashboardConfigSchema, type DashboardConfig } from '../../contracts/reports';
import { DashboardView, INVALID_DASHBOARD } from '../dashboard/DashboardView';
import {
  type PublicReport,
  REPORT_POLL_MS,
  useGetPublicFlagsQuery,
  useGetPublicReportQuery,
  useGetPublicWorkspaceQuery,
} from '../reports/reportsApi';
import { errorStatus } from '../session/apiErrors';
import {
  explorerSummaryOf,
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
  const summary = explorerSummaryOf(report.config);
  if (!summary) return <NonIdealState icon="error" title="Invalid explorer configuration" />;
  return (
    <dl className="or-public-summary">
      <dt>Dataset</dt>
      <dd>{summary.dataset}</dd>
      <dt>Date field</dt>
      <dd>{summary.dateField ?? <span className={Classes.TEXT_MUTED}>None</span>}</dd>
      <dt>Columns</dt>
      <dd>{summary.columns.length > 0 ? summary.columns.join(', ') : 'All columns'}</dd>
      {summary.pivotMode && (
        <>
          <dt>Pivot mode</dt>
          <dd>On</dd>
        </>
      )}
    </dl>
  );
}
