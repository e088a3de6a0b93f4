/** Where sign-in trouble is reported (spec 1 §8 names a contact address without fixing it). */
export const SUPPORT_EMAIL = 'support@openrate.app';

/** Messages of the /login/error page by its `error` query parameter (spec 1 §8). */
export function loginErrorPageMessage(code: string | null): string {
  switch (code) {
    case 'invalid_link':
      return 'The link is invalid or expired. Please request a new one.';
    case 'invalid_device':
      return 'This link can only be used on the original browser or device.';
    case 'invalid_code':
      return 'The code entered is invalid. Please check and try again.';
    default:
      return 'An unexpected error occurred. Please try again.';
  }
}

/** The 'Check your email' page's message for its `error` parameter or a failed manual code. */
export const checkEmailMessage = (code: string): string =>
  code === 'invalid_code' ? 'Invalid code provided' : 'Unexpected error occurred. Please try login again.';

export type EmailStartFailure =
  | { kind: 'field'; message: string }
  | { kind: 'bot'; message: string }
  | { kind: 'fatal'; title: string; message: string };

/** How the e-mail entry page reacts to a failed start (spec 1 §8). */
export function emailStartFailure(code: string | undefined): EmailStartFailure {
  if (code === 'invalid_email') return { kind: 'field', message: 'Please enter a valid email address.' };
  if (code === 'invalid_token' || code === '600010') {
    return { kind: 'bot', message: 'Potential bot or unusual visitor behavior is detected.' };
  }
  return {
    kind: 'fatal',
    title: 'Error happened while validation session.',
    message: `Please try to initiate a new login, or contact us at ${SUPPORT_EMAIL}.`,
  };
}

/** Two-factor token errors (setup, disable and sign-in). */
export const mfaTokenMessage = (code: string | undefined): string =>
  code === 'invalid_token' ? 'Your token is invalid or expired' : 'Unknown error';

/** The registration-error page by its `reason` parameter. */
export function registrationErrorMessage(reason: string | null): string {
  switch (reason) {
    case 'token_not_found':
      return 'The registration was not found in the database.';
    case 'token_already_used':
      return 'The registration link has already been used.';
    case 'token_expired':
      return 'The registration link has expired.';
    case 'account_already_exists':
      return 'This account already exists.';
    case 'sign_in_to_accept':
      return 'This invitation is for an existing account. Sign in with the invited email address, then open the invitation link again.';
    default:
      return 'Unknown error';
  }
}
