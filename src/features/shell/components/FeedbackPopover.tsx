import { Button, Classes, PopoverNext } from '@blueprintjs/core';
import { useCallback } from 'react';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { feedbackClosed, feedbackOpened, feedbackSent, selectFeedbackStep } from '../feedbackSlice';
import { FeedbackForm, FeedbackThanks } from './FeedbackForm';

/** The sidebar's Feedback entry: a short form, then a thank-you screen that closes itself. */
export function FeedbackPopover({ workspaceId }: { workspaceId: number }) {
  const dispatch = useAppDispatch();
  const step = useAppSelector(selectFeedbackStep);
  const close = useCallback(() => dispatch(feedbackClosed()), [dispatch]);

  return (
    <PopoverNext
      shouldReturnFocusOnClose={false}
      isOpen={step !== 'closed'}
      onClose={close}
      placement="right-end"
      content={
        step === 'thanks' ? (
          <FeedbackThanks onDone={close} />
        ) : (
          <FeedbackForm
            workspaceId={workspaceId}
            sendClassName={Classes.POPOVER_DISMISS_OVERRIDE}
            onSent={() => dispatch(feedbackSent())}
          />
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
