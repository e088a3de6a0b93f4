import { createApi, fetchBaseQuery, retry, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';

/**
 * Statuses that a retry can never fix: the spec forbids retrying 400, 401, 403 and 404; a 429 (a bound on sign-in
 * attempts or on what an account creates a day) lasts far longer than the retries would wait.
 */
const NO_RETRY_STATUSES = new Set([400, 401, 403, 404, 429]);
/** At most 6 attempts in all for data calls (spec 1 §4, §9). */
export const MAX_ATTEMPTS = 6;

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  credentials: 'same-origin',
  // Looked up per call, so tests and older browsers can provide fetch after this module loads.
  fetchFn: (input, init) => fetch(input, init),
  prepareHeaders(headers) {
    // The server refuses state-changing calls without it (CSRF defence together with the Origin check).
    headers.set('X-Requested-With', 'openrate');
    return headers;
  },
});

export function shouldRetry(error: FetchBaseQueryError | undefined, attempt: number): boolean {
  if (attempt >= MAX_ATTEMPTS) return false;
  if (!error) return false;
  if (typeof error.status === 'number') return !NO_RETRY_STATUSES.has(error.status);
  return error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR';
}

const baseQuery = retry(rawBaseQuery, {
  retryCondition: (error, _args, { attempt }) => shouldRetry(error as FetchBaseQueryError, attempt),
});

/**
 * The one REST api of the product. Features add their endpoints with `api.injectEndpoints`,
 * so tag invalidation crosses features.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [
    'Me',
    'Flags',
    'Session',
    'Workspace',
    'Members',
    'Settings',
    'Annotations',
    'ReportingSubscriptions',
    'Integrations',
    'Datasets',
    'Schema',
    'CustomFields',
    'Reports',
    'Report',
    'Targets',
    'Baselines',
    'AlertRules',
    'AlertViolations',
    'Engagement',
  ],
  endpoints: () => ({}),
});
