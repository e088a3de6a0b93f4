import { Callout } from '@blueprintjs/core';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthLayout } from '../components/AuthLayout';
import { loginErrorPageMessage, registrationErrorMessage } from '../loginMessages';

/** /login/error: the message chosen by the `error` query parameter. */
export function LoginErrorPage() {
  const [params] = useSearchParams();
  return (
    <AuthLayout title="Sign-in failed">
      <Callout intent="danger">{loginErrorPageMessage(params.get('error'))}</Callout>
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}

/** /registration-error: the message chosen by the `reason` query parameter. */
export function RegistrationErrorPage() {
  const [params] = useSearchParams();
  return (
    <AuthLayout title="Oops, something went wrong!">
      <Callout intent="danger">{registrationErrorMessage(params.get('reason'))}</Callout>
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
