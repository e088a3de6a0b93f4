import { createSlice } from '@reduxjs/toolkit';

/** Spec 1 §9: the thank-you screen closes itself after 3 s. */
export const FEEDBACK_THANKS_MS = 3_000;

export type FeedbackStep = 'closed' | 'form' | 'thanks';

export interface FeedbackState {
  step: FeedbackStep;
}

export const initialFeedbackState: FeedbackState = { step: 'closed' };

const feedbackSlice = createSlice({
  name: 'feedback',
  initialState: initialFeedbackState,
  reducers: {
    feedbackOpened(state) {
      state.step = 'form';
    },
    feedbackSent(state) {
      state.step = 'thanks';
    },
    feedbackClosed(state) {
      state.step = 'closed';
    },
  },
  selectors: {
    selectFeedbackStep: (state) => state.step,
  },
});

export const { feedbackOpened, feedbackSent, feedbackClosed } = feedbackSlice.actions;
export const { selectFeedbackStep } = feedbackSlice.selectors;
export const feedbackReducer = feedbackSlice.reducer;
export { feedbackSlice };
