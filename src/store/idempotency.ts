import { IDEMPOTENCY_HEADER } from '../contracts/common';
import { randomHex } from '../contracts/ids';

/** A new key for one user action: 128 random bits as hex. */
export const newIdempotencyKey = (): string => randomHex(16);

/**
 * Headers of a create or save call. Call it inside an endpoint's `query`: RTK Query builds the request once per
 * dispatch and its retries resend that request, so each user action has one key and every retry repeats it.
 */
export const idempotencyHeaders = (): Record<string, string> => ({ [IDEMPOTENCY_HEADER]: newIdempotencyKey() });
