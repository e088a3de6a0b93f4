import { type SerializedError } from '@reduxjs/toolkit';
import { type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { LIMIT_MESSAGES } from '../../contracts/common';

/** The HTTP status of a failed call, or undefined for network and parsing failures. */
export function errorStatus(error: FetchBaseQueryError | SerializedError | undefined): number | undefined {
  if (!error || !('status' in error)) return undefined;
  if (typeof error.status === 'number') return error.status;
  if (error.status === 'PARSING_ERROR') return error.originalStatus;
  return undefined;
}

/** The server's `{error}` text of a failed call (a 400's known error), if any. */
export function errorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object' || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  if (data && typeof data === 'object' && 'error' in data && typeof data.error === 'string') return data.error;
  return undefined;
}

/** The server's message when a bound on what an account creates was reached, if that is why the call failed. */
export function limitMessage(error: unknown): string | undefined {
  const message = errorCode(error);
  return message !== undefined && LIMIT_MESSAGES.has(message) ? message : undefined;
}
