import { Button, FormGroup, ProgressBar, TextArea } from '@blueprintjs/core';
import { useEffect, useState, type FormEvent } from 'react';
import { FEEDBACK_MAX_LENGTH } from '../../../contracts/feedback';
import { useAppDispatch } from '../../../store/hooks';
import { notificationShown } from '../../notifications/notificationsSlice';
import { useSendFeedbackMutation } from '../feedbackApi';
import { FEEDBACK_THANKS_MS } from '../feedbackSlice';

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

/** The thank-you screen (spec 1 §9): closes itself after 3 s, with a progress bar counting down. */
export function FeedbackThanks({ onDone }: { onDone(): void }) {
  const elapsed = useElapsed(FEEDBACK_THANKS_MS);
  useEffect(() => {
    const timer = window.setTimeout(onDone, FEEDBACK_THANKS_MS);
    return () => window.clearTimeout(timer);
  }, [onDone]);
  return (
    <div className="or-feedback">
      <p>Thank you for your feedback!</p>
      <ProgressBar value={elapsed} stripes={false} intent="primary" />
    </div>
  );
}

export interface FeedbackFormProps {
  workspaceId: number;
  /** What the message starts with, e.g. the widget and error a 'Create ticket' link reports. */
  initialMessage?: string;
  onSent(): void;
  /** The sidebar's popover closes when Send is clicked; the drawer stays. */
  sendClassName?: string;
}

/** The feedback message form of the sidebar popover and the feedback drawer. */
export function FeedbackForm({ workspaceId, initialMessage = '', onSent, sendClassName }: FeedbackFormProps) {
  const dispatch = useAppDispatch();
  const [message, setMessage] = useState(initialMessage);
  const [sendFeedback, { isLoading }] = useSendFeedbackMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await sendFeedback({ message: message.trim(), workspaceId }).unwrap();
      setMessage('');
      onSent();
    } catch {
      dispatch(notificationShown('Failed to submit feedback.', 'danger'));
    }
  };

  return (
    <form className="or-feedback" onSubmit={(event) => void onSubmit(event)}>
      <FormGroup label="Your feedback" labelFor="feedback-message">
        <TextArea
          id="feedback-message"
          fill
          autoFocus
          rows={initialMessage ? 8 : undefined}
          maxLength={FEEDBACK_MAX_LENGTH}
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
      </FormGroup>
      <Button
        className={sendClassName}
        type="submit"
        intent="primary"
        text="Send"
        disabled={!message.trim()}
        loading={isLoading}
      />
    </form>
  );
}

/** What a 'Create ticket' link reports: the widget and its error, ahead of the user's own words. */
export function ticketMessage(widget: string | null, error: string | null): string {
  const lines = [widget && `Widget: ${widget}`, error && `Error: ${error}`].filter(Boolean);
  return lines.length ? `${lines.join('\n')}\n\n` : '';
}

/** The feedback drawer (drawer.type=feedback): the same form, prefilled from the link that opened it. */
export function FeedbackDrawerBody({
  workspaceId,
  widget,
  error,
  onDone,
}: {
  workspaceId: number;
  widget: string | null;
  error: string | null;
  onDone(): void;
}) {
  const [sent, setSent] = useState(false);
  return sent ? (
    <FeedbackThanks onDone={onDone} />
  ) : (
    <FeedbackForm
      workspaceId={workspaceId}
      initialMessage={ticketMessage(widget, error)}
      onSent={() => setSent(true)}
    />
  );
}
