import { AnchorButton, Classes } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { useGetLoginOptionsQuery } from '../authApi';
import { AuthLayout } from '../components/AuthLayout';

/** /login: the welcome screen. */
export function LoginPage() {
  // Google sign-in appears only once the server confirms it is configured: a button that can only fail is worse
  // than none, so while asking, and when the answer fails, it stays hidden.
  const { data: options } = useGetLoginOptionsQuery();
  return (
    <AuthLayout title="Welcome to Openrate">
      <div className="or-auth-actions">
        <Link
          className={`${Classes.BUTTON} ${Classes.LARGE} ${Classes.INTENT_PRIMARY} ${Classes.FILL}`}
          to="/login/email"
        >
          Continue with Email
        </Link>
        {options?.google === true && (
          <AnchorButton size="large" fill icon="log-in" href="/api/login/google" text="Continue with Google" />
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
