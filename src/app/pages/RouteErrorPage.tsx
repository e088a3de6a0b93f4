import { Button, NonIdealState } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { OfflinePage, useOnline } from '../../features/shell/components/InitialDataStates';
import { NotFoundPage } from './NotFoundPage';

/**
 * The router's error element: a 404 response renders the not-found page; a failure while the browser is offline (a
 * page's code that could not be fetched) the offline page, and the page loads again once the connection is back;
 * anything else the generic error page.
 */
export function RouteErrorPage({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const error = useRouteError();
  const online = useOnline();
  const wentOffline = useRef(false);
  useEffect(() => {
    if (!online) wentOffline.current = true;
    else if (wentOffline.current) reload();
  }, [online, reload]);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (!online) return <OfflinePage />;
  return (
    <NonIdealState
      icon="error"
      title="Yikes, we encountered an error!"
      description="Please try again. If the problem persists, sign in again, try a different browser or check your internet connection."
      action={<Button text="Try again" onClick={reload} />}
    />
  );
}
