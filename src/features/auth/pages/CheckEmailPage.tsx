import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { EMAIL_CODE_MIN_LENGTH } from '../../../contracts/auth';
import { errorCode } from '../../session/apiErrors';
import { useGetSessionQuery } from '../../session/sessionApi';
import { useCheckEmailCodeMutation } from '../authApi';
import { AuthLayout } from '../components/AuthLayout';
import { checkEmailMessage } from '../loginMessages';

/** /login/email/{token}: 'Check your email', with the code typed by hand as the alternative to the link. */
export function CheckEmailPage() {
  const { token = '' } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const email = (location.state as { email?: string } | null)?.email;
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(params.get('error'));
  const [checkEmailCode, { isLoading }] = useCheckEmailCodeMutation();
  const { refetch: refetchSession } = useGetSessionQuery();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const { status } = await checkEmailCode({ token, code: code.trim() }).unwrap();
      if (status === 'mfa_required') {
        navigate('/login/mfa', { replace: true });
        return;
      }
      await refetchSession();
      navigate('/', { replace: true });
    } catch (failure) {
      const code = errorCode(failure) ?? 'unknown';
      // A dead link or another browser cannot be fixed by retyping: the error page explains it.
      if (code === 'invalid_link' || code === 'invalid_device') {
        navigate(`/login/error?error=${code}`, { replace: true });
        return;
      }
      setError(code);
    }
  };

  return (
    <AuthLayout title="Check your email">
      <p>
        We sent a sign-in link{email ? ` to ${email}` : ''}. Follow it in this browser, or type the code from the e-mail
        below.
      </p>
      {error && (
        <Callout intent="danger" data-testid="check-email-error">
          {checkEmailMessage(error)}
        </Callout>
      )}
      <form onSubmit={(event) => void onSubmit(event)}>
        <FormGroup label="Code" labelFor="login-code">
          <InputGroup id="login-code" size="large" autoComplete="one-time-code" value={code} onValueChange={setCode} />
        </FormGroup>
        <Button
          type="submit"
          intent="primary"
          size="large"
          fill
          disabled={code.trim().length < EMAIL_CODE_MIN_LENGTH}
          loading={isLoading}
          text="Sign in"
        />
      </form>
      <p>
        <Link to="/login/email">Use another e-mail address</Link>
      </p>
    </AuthLayout>
  );
}
