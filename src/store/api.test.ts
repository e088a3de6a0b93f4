import { shouldRetry } from './api';

describe('REST retries', () => {
  // 429: a bound that lasts far longer than the retries would wait (a day's creations, sign-in attempts).
  it.each([400, 401, 403, 404, 429])('never retries a %i', (status) => {
    expect(shouldRetry({ status, data: {} }, 1)).toBe(false);
  });

  it('retries server errors and network failures up to 6 attempts in all', () => {
    expect(shouldRetry({ status: 500, data: {} }, 1)).toBe(true);
    expect(shouldRetry({ status: 'FETCH_ERROR', error: 'offline' }, 5)).toBe(true);
    expect(shouldRetry({ status: 503, data: {} }, 6)).toBe(false);
  });

  it('does not retry a response it could not parse', () => {
    expect(shouldRetry({ status: 'PARSING_ERROR', originalStatus: 200, data: '', error: 'bad json' }, 1)).toBe(false);
  });
});
