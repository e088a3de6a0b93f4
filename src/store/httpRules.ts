import { type z } from 'zod';

/** The server refuses state-changing calls without this header (CSRF defence together with the Origin check). */
export const REQUESTED_WITH = { name: 'X-Requested-With', value: 'openrate' } as const;
export const requestedWithHeaders = (): Record<string, string> => ({ [REQUESTED_WITH.name]: REQUESTED_WITH.value });

/** Statuses a retry can never fix: the spec forbids retrying 400, 401, 403 and 404 (spec 1 §4, spec 3 §9). */
const NEVER_RETRIED = new Set([400, 401, 403, 404]);
export const isNeverRetried = (status: unknown): boolean => typeof status === 'number' && NEVER_RETRIED.has(status);

/**
 * The one spelling for `{ data }` answers: the envelope is checked against its contract before the endpoint
 * keeps its `data` (RTK Query's `rawResponseSchema`; `responseSchema` when the answer is kept whole).
 */
export function dataOf<T>(schema: z.ZodType<{ data: T }>) {
  return { rawResponseSchema: schema, transformResponse: (envelope: { data: T }): T => envelope.data };
}
