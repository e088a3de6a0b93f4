import { z } from 'zod';
import { emailSchema } from './common';

/** GET /session (outside /api). */
export const sessionResponseSchema = z.union([
  z.object({ status: z.literal('unauthenticated') }),
  z.object({
    user_id: z.number().int(),
    expires_at: z.string(),
    impersonated_by: z.number().int().optional(),
  }),
]);
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** GET /api/login/options: the sign-in methods this server offers besides e-mail. */
export const loginOptionsResponseSchema = z.object({ google: z.boolean() });
export type LoginOptions = z.infer<typeof loginOptionsResponseSchema>;

/** GET /api/login/challenge: a proof-of-work puzzle (ALTCHA style). */
export const powChallengeSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string(),
  salt: z.string(),
  signature: z.string(),
  maxnumber: z.number().int().positive(),
});
export type PowChallenge = z.infer<typeof powChallengeSchema>;

/** What the solver sends back, base64 of this JSON, as `token`. */
export const powSolutionSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().max(128),
  number: z.number().int().nonnegative(),
  salt: z.string().max(256),
  signature: z.string().max(128),
});
export type PowSolution = z.infer<typeof powSolutionSchema>;

/** Error codes of the sign-in flow (spec 1 §8). */
export const loginErrorCodes = [
  'invalid_email',
  'invalid_token',
  'invalid_link',
  'invalid_device',
  'invalid_code',
  'unknown',
] as const;
export type LoginErrorCode = (typeof loginErrorCodes)[number];

/** POST /api/login/email/start. The e-mail must be one string: arrays and repeats are refused. */
export const emailStartBodySchema = z.strictObject({
  email: z.string({ error: 'invalid_email' }).max(1000, 'invalid_email'),
  token: z.string({ error: 'invalid_token' }).max(4096, 'invalid_token'),
});
export type EmailStartBody = z.infer<typeof emailStartBodySchema>;
export const loginEmailSchema = emailSchema;

/** The answer names the sign-in request; the secret code travels only by e-mail. */
export const emailStartResponseSchema = z.object({ token: z.string() });
export type EmailStartResponse = z.infer<typeof emailStartResponseSchema>;

export const emailCheckParamsSchema = z.object({ token: z.string().min(1).max(200) });
export const emailCheckQuerySchema = z.object({ code: z.string().max(200).optional() });

/** GET /api/login/email/{token}/check and POST /api/login/mfa/verify, when asked for JSON. */
export const loginStepResponseSchema = z.object({ status: z.enum(['signed_in', 'mfa_required']) });
export type LoginStepResponse = z.infer<typeof loginStepResponseSchema>;

export const mfaVerifyBodySchema = z.strictObject({ token: z.string().max(20) });

/** Minimum length of the manual e-mail code (spec 1 §9). */
export const EMAIL_CODE_MIN_LENGTH = 10;

/** Development-only GET /api/dev/outbox. */
export const outboxMessageSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  link: z.string().nullable(),
  code: z.string().nullable(),
  created_at: z.string(),
});
export const outboxResponseSchema = z.object({ data: z.array(outboxMessageSchema) });
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
