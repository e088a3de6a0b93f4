import { IDEMPOTENCY_HEADER } from '../contracts/common';

/**
 * A new key for one user action: 128 random bits as hex. `crypto.getRandomValues` works on plain-http pages too,
 * where `randomUUID` does not exist.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Headers of a create or save call. Call it inside an endpoint's `query`: RTK Query builds the request once per
 * dispatch and its retries resend that request, so each user action has one key and every retry repeats it.
 */
export const idempotencyHeaders = (): Record<string, string> => ({ [IDEMPOTENCY_HEADER]: newIdempotencyKey() });
