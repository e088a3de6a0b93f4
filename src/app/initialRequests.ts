import { matchPath } from 'react-router-dom';
import { type DashboardConfig } from '../contracts/reports';
import { authApi } from '../features/auth/authApi';
import { reportRefOf, reportsApi } from '../features/reports/reportsApi';
import { isAuthenticated, sessionApi } from '../features/session/sessionApi';
import { type AppDispatch } from '../store/store';
import { isPublicPath } from './guards';
import { signedInHere } from './signedInHere';

/** A report page's address (src/app/router.tsx). */
export const REPORT_PAGE_PATH = '/workspaces/:workspaceId/reports/:objectType/:objectId';

/**
 * The first screen's data, asked for all at once as the page starts instead of one answer after another as each
 * component mounts (the session, then the account once the session is known, then the report once the guards
 * pass): the session always; the account and, on a report's address, the report as soon as a signed-in visitor is
 * expected: at once when this browser probably holds a signed-in session (signedInHere.ts: someone signed in here last
 * time and did not sign out, or the server's signed-in hint is among `cookies`), otherwise once the session's answer
 * says so; a dashboard's datasets' schemas once its report has arrived. `onVisitor` runs then too (or at once on a
 * public page): the query engine starts there, so a signed-out visitor sent to the sign-in page never downloads it.
 * The components subscribe to the same cache entries when they mount, so nothing is asked twice; an answer that
 * failed (a session that ended meanwhile: 401) is asked for again when they do, and a component skipped for a
 * signed-out visitor never reads it.
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
        // Its own chunk: the sign-in page's first load stays within its budget (bench/README.md, `bench:bundle`).
        if (data?.type === 'dashboard') {
          import(/* webpackChunkName: "schemas-ahead" */ './datasetSchemasAhead')
            .then(({ askForDatasetSchemas }) =>
              askForDatasetSchemas(dispatch, data.workspace_id, data.config as DashboardConfig),
            )
            .catch(() => undefined);
        }
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
