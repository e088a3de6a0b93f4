import { Callout } from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { errorCode } from '../../session/apiErrors';
import { useGetSessionQuery } from '../../session/sessionApi';
import { useVerifyMfaMutation } from '../authApi';
import { AuthLayout } from '../components/AuthLayout';
import { SixDigitInput } from '../components/SixDigitInput';
import { mfaTokenMessage } from '../loginMessages';

/** /login/mfa: the two-factor step; the code submits itself once complete. */
export function MfaPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(params.get('error'));
  const [verifyMfa] = useVerifyMfaMutation();
  const { refetch: refetchSession } = useGetSessionQuery();

  const onComplete = async (token: string) => {
    setError(null);
    try {
      await verifyMfa({ token }).unwrap();
      await refetchSession();
      navigate('/', { replace: true });
      return true;
    } catch (failure) {
      setError(errorCode(failure) ?? 'unknown');
      return false;
    }
  };

  return (
    <AuthLayout title="Two-factor authentication">
      <p>Enter the six-digit code from your authenticator app.</p>
      {error && <Callout intent="danger">{mfaTokenMessage(error)}</Callout>}
      <SixDigitInput label="Authentication code" onComplete={onComplete} />
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
