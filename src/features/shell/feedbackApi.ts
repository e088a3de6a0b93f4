import { api } from '../../store/api';

export interface FeedbackBody {
  name: string;
  email: string;
  message: string;
}

/**
 * Feedback goes to the product's feedback tool through the server (spec 1 §7 leaves the tool's own API
 * out); the server route is not part of the contracts yet.
 */
export const feedbackApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendFeedback: build.mutation<unknown, FeedbackBody>({
      query: (body) => ({ url: '/feedback', method: 'POST', body }),
      // A send is never repeated by itself: the user sees the failure and decides.
      extraOptions: { retryCondition: () => false },
    }),
  }),
});

export const { useSendFeedbackMutation } = feedbackApi;
