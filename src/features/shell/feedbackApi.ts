import { okResponseSchema, type OkResponse } from '../../contracts/common';
import { type FeedbackBody } from '../../contracts/feedback';
import { api } from '../../store/api';
import { idempotencyHeaders } from '../../store/idempotency';

/** Feedback goes to the feedback tool through the server, which adds who sent it (spec 1 §7). */
export const feedbackApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendFeedback: build.mutation<OkResponse, FeedbackBody>({
      query: (body) => ({ url: '/feedback', method: 'POST', body, headers: idempotencyHeaders() }),
      responseSchema: okResponseSchema,
      // A send is never repeated by itself: the user sees the failure and decides.
      extraOptions: { retryCondition: () => false },
    }),
  }),
});

export const { useSendFeedbackMutation } = feedbackApi;
