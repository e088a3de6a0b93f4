import { NonIdealState } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { INITIAL_DATA_STALE_SECONDS, useGetMeQuery } from '../features/auth/authApi';
import { Notifications } from '../features/notifications/Notifications';
import { errorStatus } from '../features/session/apiErrors';
import { isAuthenticated, SESSION_POLL_MS, useGetSessionQuery } from '../features/session/sessionApi';
import {
  InitialDataErrorPage,
  InitialDataSpinner,
  OfflinePage,
  useOnline,
} from '../features/shell/components/InitialDataStates';
import { sessionEnded, sessionStarted } from '../features/shell/shellSlice';
import { useGetWorkspaceFlagsQuery } from '../features/workspaces/workspacesApi';
import { selectCurrentWorkspaceId } from '../features/workspaces/workspacesSlice';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { guardPath, isPublicPath } from './guards';
import { NotFoundPage } from './pages/NotFoundPage';

/** The workspace id a data-model path names, whose flags decide whether the page exists. */
function dataModelWorkspaceId(pathname: string): number | null {
  const match = /^\/workspaces\/(\d+)\/settings\/data-model/.exec(pathname);
  return match ? Number(match[1]) : null;
}

/** The notice page of a suspended or cancelled workspace (spec 1); the public report page shows it too. */
export function WorkspaceBlocked({ kind }: { kind: 'suspended' | 'cancelled' }) {
  return (
    <NonIdealState
      className="or-page"
      icon="disable"
      title={kind === 'suspended' ? 'Workspace suspended' : 'Workspace cancelled'}
      description={
        kind === 'suspended'
          ? 'This workspace has been suspended. Please contact support to restore access.'
          : 'This workspace has been cancelled. Please contact support if you want to use it again.'
      }
    />
  );
}

/** How long after the connection returns a failed initial-data call is tried again. */
const RECONNECT_RETRY_MS = 1_500;

/**
 * The refetch on reconnect can itself fail while the network settles: try once more shortly after, so a page that
 * went offline recovers by itself instead of stopping on the error page.
 */
function useRetryAfterReconnect(
  online: boolean,
  session: { retryable: boolean; refetch: () => unknown },
  me: { retryable: boolean; refetch: () => unknown },
) {
  const wentOffline = useRef(!online);
  if (!online) wentOffline.current = true;
  const { retryable: sessionRetryable, refetch: refetchSession } = session;
  const { retryable: meRetryable, refetch: refetchMe } = me;
  useEffect(() => {
    if (!online || !wentOffline.current || (!sessionRetryable && !meRetryable)) return undefined;
    const timer = window.setTimeout(() => {
      wentOffline.current = false;
      if (sessionRetryable) void refetchSession();
      if (meRetryable) void refetchMe();
    }, RECONNECT_RETRY_MS);
    return () => window.clearTimeout(timer);
  }, [online, sessionRetryable, meRetryable, refetchSession, refetchMe]);
}

/** The session ending while a page is open sends the browser to /login exactly once. */
function useSessionTransitions(sessionKnown: boolean, signedIn: boolean, publicPage: boolean) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const wasAuthenticated = useRef(false);
  useEffect(() => {
    if (!sessionKnown) return;
    if (signedIn) {
      if (!wasAuthenticated.current) dispatch(sessionStarted());
      wasAuthenticated.current = true;
    } else if (wasAuthenticated.current) {
      wasAuthenticated.current = false;
      dispatch(sessionEnded());
      if (!publicPage) navigate('/login', { replace: true });
    }
  }, [sessionKnown, signedIn, publicPage, dispatch, navigate]);
}

/**
 * The root of every route: keeps the session (polled every 15 minutes, in the background too), loads the
 * initial data for signed-in pages and applies the route guards before anything renders.
 */
export function AppRoot() {
  const { pathname } = useLocation();
  const online = useOnline();
  const publicPage = isPublicPath(pathname);

  // Also checked when the tab regains focus or the connection returns: a session may end meanwhile.
  const session = useGetSessionQuery(undefined, {
    pollingInterval: SESSION_POLL_MS,
    skipPollingIfUnfocused: false,
    refetchOnFocus: true,
    refetchOnReconnect: true,
  });
  const authenticated = isAuthenticated(session.data);
  const me = useGetMeQuery(undefined, {
    skip: !authenticated || publicPage,
    refetchOnMountOrArgChange: INITIAL_DATA_STALE_SECONDS,
    refetchOnReconnect: true,
  });
  const meUnauthorized = errorStatus(me.error) === 401;
  const flagsFor = dataModelWorkspaceId(pathname);
  const flags = useGetWorkspaceFlagsQuery(flagsFor ?? 0, { skip: flagsFor === null || !authenticated });
  const currentWorkspaceId = useAppSelector(selectCurrentWorkspaceId);

  useRetryAfterReconnect(
    online,
    { retryable: session.isError, refetch: session.refetch },
    { retryable: me.isError && authenticated && !publicPage, refetch: me.refetch },
  );
  useSessionTransitions(session.data !== undefined, authenticated && !meUnauthorized, publicPage);

  const content = (() => {
    if (publicPage) return <Outlet />;
    if (session.isLoading) return online ? <InitialDataSpinner /> : <OfflinePage />;
    if (session.isError && !session.data)
      return online ? <InitialDataErrorPage onRetry={session.refetch} /> : <OfflinePage />;
    const result = guardPath(pathname, {
      authenticated: authenticated && !meUnauthorized,
      user: me.data,
      currentWorkspaceId,
      workspaceFlags: flags.data,
    });
    if (result.kind === 'loading') {
      if (!online) return <OfflinePage />;
      if (me.isError) return <InitialDataErrorPage onRetry={me.refetch} />;
      return <InitialDataSpinner />;
    }
    switch (result.kind) {
      case 'redirect':
        return <Navigate to={result.to} replace />;
      case 'notFound':
        return <NotFoundPage />;
      case 'suspended':
      case 'cancelled':
        return <WorkspaceBlocked kind={result.kind} />;
      default:
        return <Outlet />;
    }
  })();

  return (
    <>
      {content}
      <Notifications />
    </>
  );
}
