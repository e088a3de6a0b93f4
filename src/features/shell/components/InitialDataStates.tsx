import { Button, Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useAppDispatch } from '../../../store/hooks';
import { signedOut } from '../../session/sessionActions';

/** Spec 1 §4: a stall of the initial data is reported after 5 seconds. */
export const STALL_MS = 5_000;

/** The spinner of the initial data; after 5 s it says so (and reports the stall). */
export function InitialDataSpinner() {
  const [stalled, setStalled] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setStalled(true);
      console.warn('Loading the initial data takes longer than 5 s');
    }, STALL_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <div className="or-centered" data-testid="initial-data-spinner">
      <Spinner />
      {stalled && <p className={Classes.TEXT_MUTED}>This is taking longer than usual…</p>}
    </div>
  );
}

function subscribeToConnection(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/**
 * Whether the browser believes it is online, kept live. Read at every render as well as on the browser's events: the
 * connection may drop before the first render subscribes (the page's first requests start before it).
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeToConnection,
    () => navigator.onLine,
    () => true,
  );
}

export function OfflinePage() {
  return (
    <NonIdealState
      className="or-page"
      icon="offline"
      title="No internet connection was found"
      description="Check your connection; the page continues once you are back online."
    />
  );
}

export interface InitialDataErrorPageProps {
  /** Loads the initial data again. */
  onRetry: () => void;
}

/** The generic page when the initial data cannot be loaded (spec 1 §4). */
export function InitialDataErrorPage({ onRetry }: InitialDataErrorPageProps) {
  const dispatch = useAppDispatch();
  return (
    <NonIdealState
      className="or-page"
      icon="error"
      title="Yikes, we encountered an error!"
      description={
        <ul className="or-error-options">
          <li>
            <a href="/logout" onClick={() => dispatch(signedOut())}>
              Sign in again
            </a>
          </li>
          <li>Try a different browser</li>
          <li>Check your internet connection</li>
        </ul>
      }
      action={<Button intent="primary" text="Try again" onClick={onRetry} />}
    />
  );
}
