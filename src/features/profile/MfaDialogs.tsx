import { Button, Callout, Classes, Code, Dialog, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useAppDispatch } from '../../store/hooks';
import { useDisableMfaMutation, useEnableMfaMutation, useSetupMfaMutation } from '../auth/authApi';
import { SixDigitInput } from '../auth/components/SixDigitInput';
import { mfaTokenMessage } from '../auth/loginMessages';
import { notificationShown } from '../notifications/notificationsSlice';
import { errorCode } from '../session/apiErrors';

export interface MfaDialogProps {
  /** Closes the dialog. */
  onClose: () => void;
}

/** The message of a failed two-factor call: a bad token is named, anything else is a failure (spec 1 §8). */
function mfaFailure(error: unknown): string {
  const code = errorCode(error);
  return code === 'invalid_token' ? mfaTokenMessage(code) : 'Failed to disable two-factor authentication';
}

/**
 * A six-digit code's submission: on success the toast and the dialog's close, on failure the message in the dialog
 * and, unless the code was merely wrong, the failure toast (the same for setup and disable, spec 1 §8).
 */
function useMfaCodeSubmit(submit: ((token: string) => Promise<unknown>) | null, success: string, onClose: () => void) {
  const dispatch = useAppDispatch();
  const [error, setError] = useState<string | null>(null);
  const onComplete = async (token: string) => {
    if (!submit) return false;
    setError(null);
    try {
      await submit(token);
      dispatch(notificationShown(success, 'success'));
      onClose();
      return true;
    } catch (failure) {
      setError(mfaFailure(failure));
      if (errorCode(failure) !== 'invalid_token') {
        dispatch(notificationShown('Failed to disable Multi factor authentication', 'danger'));
      }
      return false;
    }
  };
  return { error, onComplete };
}

/** Two-factor setup: QR code, the key behind 'Can't scan the QR code?', then a self-submitting code. */
export function MfaSetupDialog({ onClose }: MfaDialogProps) {
  const [setupMfa, setup] = useSetupMfaMutation();
  const [enableMfa] = useEnableMfaMutation();
  const [showKey, setShowKey] = useState(false);

  useEffect(() => {
    void setupMfa();
  }, [setupMfa]);

  const secret = setup.data?.secret;
  const { error, onComplete } = useMfaCodeSubmit(
    // The code field shows only once the setup answered with the secret.
    secret ? (token) => enableMfa({ secret, token }).unwrap() : null,
    'Two-factor authentication enabled',
    onClose,
  );

  return (
    <Dialog isOpen title="Set up two-factor authentication" onClose={onClose} style={{ minWidth: 400 }}>
      <div className={Classes.DIALOG_BODY}>
        {setup.isLoading && <Spinner />}
        {setup.isError && <Callout intent="danger">{mfaFailure(setup.error)}</Callout>}
        {setup.data && (
          <>
            <p>Scan this QR code with your authenticator app, then enter the six-digit code it shows.</p>
            <img className="or-mfa-qr" src={setup.data.qr} alt="QR code for your authenticator app" />
            <p>
              <Button
                variant="minimal"
                size="small"
                text="Can't scan the QR code?"
                onClick={() => setShowKey((shown) => !shown)}
              />
            </p>
            {showKey && (
              <p>
                Enter this key in your app: <Code data-testid="mfa-secret">{setup.data.secret}</Code>
              </p>
            )}
            {error && <Callout intent="danger">{error}</Callout>}
            <SixDigitInput label="Authentication code" onComplete={onComplete} />
          </>
        )}
      </div>
    </Dialog>
  );
}

/** Turning two-factor off needs a current code. */
export function MfaDisableDialog({ onClose }: MfaDialogProps) {
  const [disableMfa] = useDisableMfaMutation();
  const { error, onComplete } = useMfaCodeSubmit(
    (token) => disableMfa({ token }).unwrap(),
    'Multi factor authentication disabled',
    onClose,
  );

  return (
    <Dialog isOpen title="Disable two-factor authentication" onClose={onClose} style={{ minWidth: 400 }}>
      <div className={Classes.DIALOG_BODY}>
        <p>Enter the six-digit code from your authenticator app to turn two-factor authentication off.</p>
        {error && <Callout intent="danger">{error}</Callout>}
        <SixDigitInput label="Authentication code" onComplete={onComplete} />
      </div>
    </Dialog>
  );
}
