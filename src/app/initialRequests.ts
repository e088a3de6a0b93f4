import { matchPath } from 'react-router-dom';
import { type DashboardConfig, type Report, datasetOfWidget } from '../contracts/reports';
import { authApi } from '../features/auth/authApi';
import { datasetsApi } from '../features/datasets/datasetsApi';
import { reportRefOf, reportsApi } from '../features/reports/reportsApi';
import { isAuthenticated, sessionApi } from '../features/session/sessionApi';
import { type AppDispatch } from '../store/store';
import { isPublicPath } from './guards';
import { signedInHere } from './signedInHere';

/** A report page's address (src/app/router.tsx). */
export const REPORT_PAGE_PATH = '/workspaces/:workspaceId/reports/:objectType/:objectId';

/**
 * The schemas of the datasets a dashboard's widgets read (a target card reads its target's), asked for as soon as
 * its report has arrived. A widget's dataset load starts with its schema (loadDataset.ts), and the widgets mount only
 * once the dashboard's code has run: on the demo's cold open the schema's answer then waited for the page's busy
 * thread, and the file's request went out 0.3 s after the widgets mounted. The load reuses a schema this fresh.
 */
function askForDatasetSchemas(dispatch: AppDispatch, report: Report): void {
  if (report.type !== 'dashboard') return;
  const { widgets } = report.config as DashboardConfig;
  const datasets = new Set(
    (Array.isArray(widgets) ? widgets : []).map((widget) =>
      widget.type === 'target' ? null : datasetOfWidget(widget),
    ),
  );
  for (const datasetId of datasets) {
    if (datasetId) {
      const ref = { workspaceId: report.workspace_id, datasetId };
      dispatch(datasetsApi.endpoints.getDatasetSchema.initiate(ref, { subscribe: false }));
    }
  }
}

/**
 * The first screen's data, asked for all at once as the page starts instead of one answer after another as each
 * component mounts (the session, then the account once the session is known, then the report once the guards
 * pass): the session always; the account and, on a report's address, the report as soon as a signed-in visitor is
 * expected: at once when this browser probably holds a signed-in session (signedInHere.ts: someone signed in here last
 * time and did not sign out, or the server's signed-in hint is among `cookies`), otherwise once the session's answer
 * says so; a dashboard's datasets' schemas once its report has arrived. `onVisitor` runs then too (or at once on a public page): the query engine starts there,
 * so a signed-out visitor sent to the sign-in page never downloads it. The components subscribe to the same cache
 * entries when they mount, so nothing is asked twice; an answer that failed (a session that ended meanwhile: 401)
 * is asked for again when they do, and a component skipped for a signed-out visitor never reads it.
 */
export function startInitialRequests(
  dispatch: AppDispatch,
  pathname: string,
  storage: Pick<Storage, 'getItem'>,
  onVisitor: () => void = () => undefined,
  cookies = '',
) {
  const session = dispatch(sessionApi.endpoints.getSession.initiate(undefined, { subscribe: false }));
  if (isPublicPath(pathname)) {
    onVisitor();
    return;
  }
  const signedIn = () => {
    dispatch(authApi.endpoints.getMe.initiate(undefined, { subscribe: false }));
    const match = matchPath(REPORT_PAGE_PATH, pathname);
    const report = match && reportRefOf(match.params);
    if (report) {
      void dispatch(reportsApi.endpoints.getReport.initiate(report, { subscribe: false })).then(({ data }) => {
        if (data) askForDatasetSchemas(dispatch, data);
      });
    }
    onVisitor();
  };
  if (signedInHere(storage, cookies)) signedIn();
  else
    void session.then(({ data }) => {
      if (isAuthenticated(data)) signedIn();
    });
}
