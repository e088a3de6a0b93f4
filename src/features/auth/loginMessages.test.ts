import { type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { retryInitialData } from './authApi';
import {
  checkEmailMessage,
  emailStartFailure,
  loginErrorPageMessage,
  mfaTokenMessage,
  registrationErrorMessage,
} from './loginMessages';

describe('sign-in messages (spec 1 §8)', () => {
  it.each([
    ['invalid_link', 'The link is invalid or expired. Please request a new one.'],
    ['invalid_device', 'This link can only be used on the original browser or device.'],
    ['invalid_code', 'The code entered is invalid. Please check and try again.'],
    ['unknown', 'An unexpected error occurred. Please try again.'],
    [null, 'An unexpected error occurred. Please try again.'],
  ])('login error %p', (code, message) => expect(loginErrorPageMessage(code)).toBe(message));

  it('reacts to e-mail start failures by kind', () => {
    expect(emailStartFailure('invalid_email')).toEqual({
      kind: 'field',
      message: 'Please enter a valid email address.',
    });
    expect(emailStartFailure('invalid_token').message).toBe('Potential bot or unusual visitor behavior is detected.');
    expect(emailStartFailure('600010').kind).toBe('bot');
    expect(emailStartFailure(undefined)).toMatchObject({
      kind: 'fatal',
      title: 'Error happened while validation session.',
    });
  });

  it('names bad codes and tokens', () => {
    expect(checkEmailMessage('invalid_code')).toBe('Invalid code provided');
    expect(checkEmailMessage('invalid_link')).toBe('Unexpected error occurred. Please try login again.');
    expect(mfaTokenMessage('invalid_token')).toBe('Your token is invalid or expired');
    expect(mfaTokenMessage('other')).toBe('Unknown error');
    expect(registrationErrorMessage('token_expired')).toBe('The registration link has expired.');
    expect(registrationErrorMessage('account_already_exists')).toBe('This account already exists.');
    expect(registrationErrorMessage('sign_in_to_accept')).toMatch(
      /^This invitation is for an existing account\. Sign in/,
    );
  });

  it('retries the initial data fewer than 2 times and never on 401', () => {
    const error = (status: number): FetchBaseQueryError => ({ status, data: null });
    expect(retryInitialData(error(500), 1)).toBe(true);
    expect(retryInitialData(error(500), 2)).toBe(false);
    expect(retryInitialData(error(401), 1)).toBe(false);
  });
});
