import { Button, Card, H2, H4, NonIdealState, Spinner } from '@blueprintjs/core';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { signedOut } from '../../features/session/sessionActions';
import { useAppDispatch } from '../../store/hooks';

/** /error: the generic error page. */
export function ErrorPage() {
  return (
    <NonIdealState
      className="or-page"
      icon="error"
      title="Yikes, we encountered an error!"
      description="Please try again. If the problem persists, sign in again, try a different browser or check your internet connection."
      action={<Button text="Try again" onClick={() => window.location.assign('/')} />}
    />
  );
}

/** /info/no-workspaces: a signed-in user who belongs to no workspace. */
export function NoWorkspacesPage() {
  return (
    <NonIdealState
      className="or-page"
      icon="office"
      title="No workspace yet"
      description="To use the product you should be a member of at least 1 workspace."
      action={<Link to="/onboarding">Set up a workspace</Link>}
    />
  );
}

const changes = [
  { title: 'Baselines', when: 'September 2023', text: 'Compare metrics against a baseline of earlier periods.' },
  { title: 'High/Low widget', when: 'August 2023', text: 'Show the highest and lowest values of a metric.' },
  { title: 'Shareable Explorer views', when: 'July 2023', text: 'Share an Explorer view with a link.' },
];

/** /changes: Recent Changes. */
export function ChangesPage() {
  return (
    <main className="or-page or-narrow">
      <H2>Recent Changes</H2>
      {changes.map((change) => (
        <Card key={change.title} className="or-change">
          <H4>
            {change.title} <small>({change.when})</small>
          </H4>
          <p>{change.text}</p>
        </Card>
      ))}
    </main>
  );
}

/** /logout and /impersonate/exit are server pages: reached inside the app, the browser goes there for real. */
export function ServerNavigation() {
  const { pathname } = useLocation();
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (/^\/logout\/?$/.test(pathname)) dispatch(signedOut());
    window.location.replace(pathname);
  }, [dispatch, pathname]);
  return <Spinner className="or-page-spinner" />;
}
