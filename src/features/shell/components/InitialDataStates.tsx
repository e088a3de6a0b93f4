import { Button, Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
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

/** Whether the browser believes it is online, kept live. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
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
