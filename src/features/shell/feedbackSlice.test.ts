import { feedbackClosed, feedbackOpened, feedbackReducer, feedbackSent, initialFeedbackState } from './feedbackSlice';

describe('feedback popover', () => {
  it('goes from the form to the thank-you screen and closes', () => {
    const opened = feedbackReducer(initialFeedbackState, feedbackOpened());
    expect(opened.step).toBe('form');
    const thanked = feedbackReducer(opened, feedbackSent());
    expect(thanked.step).toBe('thanks');
    expect(feedbackReducer(thanked, feedbackClosed()).step).toBe('closed');
  });
});
