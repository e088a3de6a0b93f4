import { type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import {
  emailStartResponseSchema,
  loginOptionsResponseSchema,
  loginStepResponseSchema,
  powChallengeSchema,
  type EmailStartResponse,
  type LoginOptions,
  type LoginStepResponse,
  type PowChallenge,
} from '../../contracts/auth';
import {
  meResponseSchema,
  mfaSetupResponseSchema,
  mfaStatusResponseSchema,
  userFlagsResponseSchema,
  type Me,
  type MfaSetupResponse,
  type PatchMeBody,
  type SignupBody,
} from '../../contracts/me';
import { api } from '../../store/api';
import { parseWith } from '../session/apiErrors';

/** Spec 1 §4: initial data is not retried on 401 and otherwise retried fewer than 2 times. */
export const retryInitialData = (error: FetchBaseQueryError, attempt: number): boolean =>
  attempt < 2 && error.status !== 401 && error.status !== 403 && error.status !== 404 && error.status !== 400;

/** Spec 1 §9: initial data is stale after 10 s. */
export const INITIAL_DATA_STALE_SECONDS = 10;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMe: build.query<Me, void>({
      query: () => '/me',
      transformResponse: parseWith(meResponseSchema),
      providesTags: ['Me'],
      extraOptions: {
        retryCondition: (error: unknown, _args: unknown, { attempt }: { attempt: number }) =>
          retryInitialData(error as FetchBaseQueryError, attempt),
      },
    }),
    patchMe: build.mutation<Me, PatchMeBody>({
      query: (body) => ({ url: '/me', method: 'PATCH', body }),
      transformResponse: parseWith(meResponseSchema),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(authApi.util.upsertQueryData('getMe', undefined, data));
        } catch {
          // The caller shows the failure; the cached user stays as it was.
        }
      },
    }),
    getUserFlags: build.query<string[], void>({
      query: () => '/me/flags',
      transformResponse: (raw: unknown) => userFlagsResponseSchema.parse(raw).data,
      providesTags: ['Flags'],
    }),
    getLoginOptions: build.query<LoginOptions, void>({
      query: () => '/login/options',
      transformResponse: parseWith(loginOptionsResponseSchema),
    }),
    getChallenge: build.query<PowChallenge, void>({
      query: () => '/login/challenge',
      transformResponse: parseWith(powChallengeSchema),
      // Every attempt needs a fresh puzzle: never serve one from the cache.
      keepUnusedDataFor: 0,
    }),
    startEmailLogin: build.mutation<EmailStartResponse, { email: string; token: string }>({
      query: (body) => ({ url: '/login/email/start', method: 'POST', body }),
      transformResponse: parseWith(emailStartResponseSchema),
      // A send is never repeated by itself: the user sees the failure and decides.
      extraOptions: { retryCondition: () => false },
    }),
    checkEmailCode: build.mutation<LoginStepResponse, { token: string; code: string }>({
      query: ({ token, code }) => ({ url: `/login/email/${encodeURIComponent(token)}/check`, params: { code } }),
      transformResponse: parseWith(loginStepResponseSchema),
      invalidatesTags: ['Session', 'Me'],
    }),
    verifyMfa: build.mutation<LoginStepResponse, { token: string }>({
      query: (body) => ({ url: '/login/mfa/verify', method: 'POST', body }),
      transformResponse: parseWith(loginStepResponseSchema),
      invalidatesTags: ['Session', 'Me'],
    }),
    setupMfa: build.mutation<MfaSetupResponse, void>({
      query: () => ({ url: '/me/mfa/setup', method: 'POST' }),
      transformResponse: parseWith(mfaSetupResponseSchema),
    }),
    enableMfa: build.mutation<{ mfaEnabled: boolean }, { secret: string; token: string }>({
      query: (body) => ({ url: '/me/mfa', method: 'POST', body }),
      transformResponse: parseWith(mfaStatusResponseSchema),
      invalidatesTags: ['Me', 'Members'],
    }),
    disableMfa: build.mutation<{ mfaEnabled: boolean }, { token: string }>({
      query: (body) => ({ url: '/me/mfa', method: 'DELETE', body }),
      transformResponse: parseWith(mfaStatusResponseSchema),
      invalidatesTags: ['Me', 'Members'],
    }),
    signup: build.mutation<{ ok: true }, SignupBody>({
      query: (body) => ({ url: '/signup', method: 'POST', body }),
      invalidatesTags: ['Me'],
    }),
  }),
});

export const {
  useGetMeQuery,
  usePatchMeMutation,
  useGetUserFlagsQuery,
  useGetLoginOptionsQuery,
  useLazyGetChallengeQuery,
  useStartEmailLoginMutation,
  useCheckEmailCodeMutation,
  useVerifyMfaMutation,
  useSetupMfaMutation,
  useEnableMfaMutation,
  useDisableMfaMutation,
  useSignupMutation,
} = authApi;
