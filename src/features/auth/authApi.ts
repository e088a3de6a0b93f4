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
import { dataOf, isNeverRetried } from '../../store/httpRules';

/** Spec 1 §4: initial data is not retried on 401 and otherwise retried fewer than 2 times. */
export const retryInitialData = (error: FetchBaseQueryError, attempt: number): boolean =>
  attempt < 2 && !isNeverRetried(error.status);

/** Spec 1 §9: initial data is stale after 10 s. */
export const INITIAL_DATA_STALE_SECONDS = 10;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMe: build.query<Me, void>({
      query: () => '/me',
      responseSchema: meResponseSchema,
      providesTags: ['Me'],
      extraOptions: {
        retryCondition: (error: unknown, _args: unknown, { attempt }: { attempt: number }) =>
          retryInitialData(error as FetchBaseQueryError, attempt),
      },
    }),
    patchMe: build.mutation<Me, PatchMeBody>({
      query: (body) => ({ url: '/me', method: 'PATCH', body }),
      responseSchema: meResponseSchema,
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
      ...dataOf(userFlagsResponseSchema),
      providesTags: ['Flags'],
    }),
    getLoginOptions: build.query<LoginOptions, void>({
      query: () => '/login/options',
      responseSchema: loginOptionsResponseSchema,
    }),
    getChallenge: build.query<PowChallenge, void>({
      query: () => '/login/challenge',
      responseSchema: powChallengeSchema,
      // Every attempt needs a fresh puzzle: never serve one from the cache.
      keepUnusedDataFor: 0,
    }),
    startEmailLogin: build.mutation<EmailStartResponse, { email: string; token: string }>({
      query: (body) => ({ url: '/login/email/start', method: 'POST', body }),
      responseSchema: emailStartResponseSchema,
      // A send is never repeated by itself: the user sees the failure and decides.
      extraOptions: { retryCondition: () => false },
    }),
    checkEmailCode: build.mutation<LoginStepResponse, { token: string; code: string }>({
      query: ({ token, code }) => ({ url: `/login/email/${encodeURIComponent(token)}/check`, params: { code } }),
      responseSchema: loginStepResponseSchema,
      invalidatesTags: ['Session', 'Me'],
    }),
    verifyMfa: build.mutation<LoginStepResponse, { token: string }>({
      query: (body) => ({ url: '/login/mfa/verify', method: 'POST', body }),
      responseSchema: loginStepResponseSchema,
      invalidatesTags: ['Session', 'Me'],
    }),
    setupMfa: build.mutation<MfaSetupResponse, void>({
      query: () => ({ url: '/me/mfa/setup', method: 'POST' }),
      responseSchema: mfaSetupResponseSchema,
    }),
    enableMfa: build.mutation<{ mfaEnabled: boolean }, { secret: string; token: string }>({
      query: (body) => ({ url: '/me/mfa', method: 'POST', body }),
      responseSchema: mfaStatusResponseSchema,
      invalidatesTags: ['Me', 'Members'],
    }),
    disableMfa: build.mutation<{ mfaEnabled: boolean }, { token: string }>({
      query: (body) => ({ url: '/me/mfa', method: 'DELETE', body }),
      responseSchema: mfaStatusResponseSchema,
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
