import { Button, Classes, FormGroup, PopoverNext, ProgressBar, TextArea } from '@blueprintjs/core';
import { useEffect, useState, type FormEvent } from 'react';
import { FEEDBACK_MAX_LENGTH } from '../../../contracts/feedback';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { notificationShown } from '../../notifications/notificationsSlice';
import { useSendFeedbackMutation } from '../feedbackApi';
import { FEEDBACK_THANKS_MS, feedbackClosed, feedbackOpened, feedbackSent, selectFeedbackStep } from '../feedbackSlice';

/** Grows from 0 to 1 over the thank-you screen's lifetime. */
function useElapsed(durationMs: number): number {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = window.setInterval(() => setElapsed(Math.min(1, (Date.now() - started) / durationMs)), 100);
    return () => window.clearInterval(timer);
  }, [durationMs]);
  return elapsed;
}

function Thanks() {
  const dispatch = useAppDispatch();
  const elapsed = useElapsed(FEEDBACK_THANKS_MS);
  useEffect(() => {
    const timer = window.setTimeout(() => dispatch(feedbackClosed()), FEEDBACK_THANKS_MS);
    return () => window.clearTimeout(timer);
  }, [dispatch]);
  return (
    <div className="or-feedback">
      <p>Thank you for your feedback!</p>
      <ProgressBar value={elapsed} stripes={false} intent="primary" />
    </div>
  );
}

/** The sidebar's Feedback entry: a short form, then a thank-you screen that closes itself. */
export function FeedbackPopover({ workspaceId }: { workspaceId: number }) {
  const dispatch = useAppDispatch();
  const step = useAppSelector(selectFeedbackStep);
  const [message, setMessage] = useState('');
  const [sendFeedback, { isLoading }] = useSendFeedbackMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await sendFeedback({ message: message.trim(), workspaceId }).unwrap();
      setMessage('');
      dispatch(feedbackSent());
    } catch {
      dispatch(notificationShown('Failed to submit feedback.', 'danger'));
    }
  };

  return (
    <PopoverNext
      shouldReturnFocusOnClose={false}
      isOpen={step !== 'closed'}
      onClose={() => dispatch(feedbackClosed())}
      placement="right-end"
      content={
        step === 'thanks' ? (
          <Thanks />
        ) : (
          <form className="or-feedback" onSubmit={(event) => void onSubmit(event)}>
            <FormGroup label="Your feedback" labelFor="feedback-message">
              <TextArea
                id="feedback-message"
                fill
                autoFocus
                maxLength={FEEDBACK_MAX_LENGTH}
                value={message}
                onChange={(event) => setMessage(event.currentTarget.value)}
              />
            </FormGroup>
            <Button
              className={Classes.POPOVER_DISMISS_OVERRIDE}
              type="submit"
              intent="primary"
              text="Send"
              disabled={!message.trim()}
              loading={isLoading}
            />
          </form>
        )
      }
    >
      <Button
        variant="minimal"
        alignText="left"
        icon="chat"
        text="Feedback"
        onClick={() => dispatch(feedbackOpened())}
      />
    </PopoverNext>
  );
}
