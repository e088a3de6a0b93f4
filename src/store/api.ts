import {
  createApi,
  fetchBaseQuery,
  retry,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import type { z } from 'zod';
import { isNeverRetried, REQUESTED_WITH } from './httpRules';

/** At most 6 attempts in all for data calls (spec 1 §4, §9). */
export const MAX_ATTEMPTS = 6;

const fetchOptions = {
  credentials: 'same-origin',
  // Looked up per call, so tests and older browsers can provide fetch after this module loads.
  fetchFn: (input: RequestInfo, init?: RequestInit) => fetch(input, init),
  prepareHeaders(headers: Headers) {
    headers.set(REQUESTED_WITH.name, REQUESTED_WITH.value);
    return headers;
  },
} as const;
const apiQuery = fetchBaseQuery({ baseUrl: '/api', ...fetchOptions });
const rootQuery = fetchBaseQuery(fetchOptions);

/** `outsideApi`: the few endpoints served outside the /api prefix (GET /session). */
type ApiExtraOptions = { outsideApi?: boolean };

const rawBaseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  ApiExtraOptions,
  FetchBaseQueryMeta
> = (args, baseApi, extraOptions) => (extraOptions?.outsideApi ? rootQuery : apiQuery)(args, baseApi, extraOptions);

export function shouldRetry(error: FetchBaseQueryError | undefined, attempt: number): boolean {
  if (attempt >= MAX_ATTEMPTS) return false;
  if (!error) return false;
  // A 429 (a bound on sign-in attempts or on what an account creates a day) lasts far longer than retries wait.
  if (typeof error.status === 'number') return !isNeverRetried(error.status) && error.status !== 429;
  return error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR';
}

const baseQuery = retry(rawBaseQuery, {
  retryCondition: (error, _args, { attempt }) => shouldRetry(error as FetchBaseQueryError, attempt),
});

/**
 * A contract's schema as an endpoint's `responseSchema`: RTK Query keeps what a schema outputs (its defaults filled
 * in); its typing wants the input alike, which a schema with defaults is not.
 */
export const answer = <S extends z.ZodType>(schema: S) => schema as unknown as z.ZodType<z.output<S>, z.output<S>>;

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
