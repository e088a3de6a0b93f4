import { Button, Callout, FormGroup, InputGroup, NonIdealState } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { loginEmailSchema } from '../../../contracts/auth';
import { solveChallenge } from '../../../contracts/solveChallenge';
import { errorCode } from '../../session/apiErrors';
import { useLazyGetChallengeQuery, useStartEmailLoginMutation } from '../authApi';
import { AuthLayout } from '../components/AuthLayout';
import { emailStartFailure, type EmailStartFailure } from '../loginMessages';

/** /login/email: e-mail entry; the bot check (a proof of work) is solved in the page before sending. */
export function LoginEmailPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState(params.get('hint') ?? '');
  const [solving, setSolving] = useState(false);
  const [failure, setFailure] = useState<EmailStartFailure | null>(null);
  const [getChallenge] = useLazyGetChallengeQuery();
  const [startEmailLogin, { isLoading }] = useStartEmailLoginMutation();
  const valid = loginEmailSchema.safeParse(email).success;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setFailure(null);
    setSolving(true);
    try {
      const challenge = await getChallenge().unwrap();
      const token = await solveChallenge(challenge);
      if (token === null) {
        setFailure(emailStartFailure('invalid_token'));
        return;
      }
      const answer = await startEmailLogin({ email: loginEmailSchema.parse(email), token }).unwrap();
      navigate(`/login/email/${encodeURIComponent(answer.token)}`, { state: { email: loginEmailSchema.parse(email) } });
    } catch (error) {
      setFailure(emailStartFailure(errorCode(error)));
    } finally {
      setSolving(false);
    }
  };

  if (failure?.kind === 'bot') {
    return (
      <AuthLayout title="Sign in">
        <NonIdealState icon="shield" description={failure.message} action={<Link to="/login">Back to sign in</Link>} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign in with e-mail">
      {failure?.kind === 'fatal' && (
        <Callout intent="danger" title={failure.title}>
          {failure.message}
        </Callout>
      )}
      <form onSubmit={(event) => void onSubmit(event)}>
        <FormGroup
          label="Email address"
          labelFor="login-email"
          intent={failure?.kind === 'field' ? 'danger' : 'none'}
          helperText={failure?.kind === 'field' ? failure.message : undefined}
        >
          <InputGroup
            id="login-email"
            type="email"
            size="large"
            autoFocus
            autoComplete="email"
            value={email}
            onValueChange={setEmail}
          />
        </FormGroup>
        <Button
          type="submit"
          intent="primary"
          size="large"
          fill
          disabled={!valid}
          loading={solving || isLoading}
          text="Continue"
        />
      </form>
    </AuthLayout>
  );
}
