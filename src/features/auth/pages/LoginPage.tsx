import { AnchorButton, Classes } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { AuthLayout } from '../components/AuthLayout';

/**
 * Google sign-in appears only when the server has it configured. The server does not yet tell the client
 * whether it is (no contract for it), so the button stays off until it does.
 */
export const GOOGLE_SIGN_IN_ENABLED = false;

/** /login: the welcome screen. */
export function LoginPage() {
  return (
    <AuthLayout title="Welcome to Openrate">
      <div className="or-auth-actions">
        <Link
          className={`${Classes.BUTTON} ${Classes.LARGE} ${Classes.INTENT_PRIMARY} ${Classes.FILL}`}
          to="/login/email"
        >
          Continue with Email
        </Link>
        {GOOGLE_SIGN_IN_ENABLED && (
          <AnchorButton large fill icon="log-in" href="/api/login/google" text="Continue with Google" />
        )}
      </div>
      <p className={Classes.TEXT_MUTED}>
        By continuing you agree to our{' '}
        <a href="https://openrate.app/terms" target="_blank" rel="noreferrer">
          terms of service
        </a>{' '}
        and the{' '}
        <a href="https://openrate.app/data-processing-agreement" target="_blank" rel="noreferrer">
          data processing agreement
        </a>
        .
      </p>
    </AuthLayout>
  );
}
