import { sessionResponseSchema, type SessionResponse } from '../../contracts/auth';
import { api } from '../../store/api';

/** Spec 1 §9: the session is polled every 15 minutes, also while the tab is in the background. */
export const SESSION_POLL_MS = 900_000;

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSession: build.query<SessionResponse, void>({
      // GET /session lives outside the /api prefix; it is polled, so a failed poll is not repeated by itself.
      query: () => '/session',
      responseSchema: sessionResponseSchema,
      extraOptions: { outsideApi: true, retryCondition: () => false },
      providesTags: ['Session'],
    }),
  }),
});

export const { useGetSessionQuery } = sessionApi;

export const isAuthenticated = (session: SessionResponse | undefined): boolean =>
  session !== undefined && !('status' in session);
