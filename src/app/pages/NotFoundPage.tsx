import { NonIdealState } from '@blueprintjs/core';
import { Link } from 'react-router-dom';

/** Shown for any path no route knows (spec 1 §2.1). */
export function NotFoundPage() {
  return (
    <NonIdealState
      icon="search"
      title="Page not found"
      description="The page you were looking for could not be found."
      action={<Link to="/">Go to the start page</Link>}
    />
  );
}
