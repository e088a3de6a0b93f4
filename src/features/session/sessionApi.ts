import { sessionResponseSchema, type SessionResponse } from '../../contracts/auth';
import { api } from '../../store/api';

/** Spec 1 §9: the session is polled every 15 minutes, also while the tab is in the background. */
export const SESSION_POLL_MS = 900_000;

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSession: build.query<SessionResponse, void>({
      // GET /session lives outside the /api prefix, so it bypasses the base URL.
      async queryFn() {
        try {
          const response = await fetch('/session', {
            credentials: 'same-origin',
            headers: { 'X-Requested-With': 'openrate' },
          });
          if (!response.ok) return { error: { status: response.status, data: null } };
          return { data: sessionResponseSchema.parse(await response.json()) };
        } catch (error) {
          return { error: { status: 'FETCH_ERROR', error: String(error) } };
        }
      },
      providesTags: ['Session'],
    }),
  }),
});

export const { useGetSessionQuery } = sessionApi;

export const isAuthenticated = (session: SessionResponse | undefined): boolean =>
  session !== undefined && !('status' in session);
