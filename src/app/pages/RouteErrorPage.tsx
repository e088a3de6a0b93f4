import { Button, NonIdealState } from '@blueprintjs/core';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { NotFoundPage } from './NotFoundPage';

/** The router's error element: a 404 response renders the not-found page, anything else the generic error page. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <NonIdealState
      icon="error"
      title="Yikes, we encountered an error!"
      description="Please try again. If the problem persists, sign in again, try a different browser or check your internet connection."
      action={<Button text="Try again" onClick={() => window.location.reload()} />}
    />
  );
}
