import { Callout } from '@blueprintjs/core';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthLayout } from '../components/AuthLayout';
import { loginErrorPageMessage, registrationErrorMessage } from '../loginMessages';

interface ErrorPageProps {
  title: string;
  /** The query parameter that names the error. */
  param: string;
  messageOf: (code: string | null) => string;
}

/** A sign-in or registration failure: the message the query parameter chooses, and the way back to sign in. */
function ErrorPage({ title, param, messageOf }: ErrorPageProps) {
  const [params] = useSearchParams();
  return (
    <AuthLayout title={title}>
      <Callout intent="danger">{messageOf(params.get(param))}</Callout>
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}

/** /login/error: the message chosen by the `error` query parameter. */
export function LoginErrorPage() {
  return <ErrorPage title="Sign-in failed" param="error" messageOf={loginErrorPageMessage} />;
}

/** /registration-error: the message chosen by the `reason` query parameter. */
export function RegistrationErrorPage() {
  return <ErrorPage title="Oops, something went wrong!" param="reason" messageOf={registrationErrorMessage} />;
}
