import { z } from 'zod';
import { idSchema } from './common';

/** Longest feedback message accepted, in characters. */
export const FEEDBACK_MAX_LENGTH = 5000;

/**
 * POST /api/feedback. Who sent it comes from the session, not the body; the workspace is the one the user
 * was looking at, if any.
 */
export const feedbackBodySchema = z.strictObject({
  message: z
    .string()
    .trim()
    .min(1, 'Feedback cannot be empty')
    // Characters as a person counts them: an emoji is one, not two UTF-16 units.
    .refine((message) => Array.from(message).length <= FEEDBACK_MAX_LENGTH, {
      message: `Feedback cannot be longer than ${FEEDBACK_MAX_LENGTH} characters`,
    }),
  workspaceId: idSchema.optional(),
});
export type FeedbackBody = z.input<typeof feedbackBodySchema>;
