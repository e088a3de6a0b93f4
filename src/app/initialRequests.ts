import { matchPath } from 'react-router-dom';
import { authApi } from '../features/auth/authApi';
import { reportRefOf, reportsApi } from '../features/reports/reportsApi';
import { sessionApi } from '../features/session/sessionApi';
import { LAST_MEMBER_KEY } from '../features/session/userDataPersistence';
import { type AppDispatch } from '../store/store';
import { isPublicPath } from './guards';

/** A report page's address (src/app/router.tsx). */
export const REPORT_PAGE_PATH = '/workspaces/:workspaceId/reports/:objectType/:objectId';

/**
 * The first screen's data, asked for all at once as the page starts instead of one answer after another as each
 * component mounts (the session, then the account once the session is known, then the report once the guards
 * pass): the session always; when someone signed in in this browser last time (and did not sign out), their
 * account and, on a report's address, the report. The components subscribe to the same cache entries when they
 * mount, so nothing is asked twice; an answer that failed (a session that ended meanwhile: 401) is asked for again
 * when they do, and a component skipped for a signed-out visitor never reads it.
 */
export function startInitialRequests(dispatch: AppDispatch, pathname: string, storage: Pick<Storage, 'getItem'>) {
  dispatch(sessionApi.endpoints.getSession.initiate(undefined, { subscribe: false }));
  if (isPublicPath(pathname) || storage.getItem(LAST_MEMBER_KEY) === null) return;
  dispatch(authApi.endpoints.getMe.initiate(undefined, { subscribe: false }));
  const match = matchPath(REPORT_PAGE_PATH, pathname);
  const report = match && reportRefOf(match.params);
  if (report) dispatch(reportsApi.endpoints.getReport.initiate(report, { subscribe: false }));
}
