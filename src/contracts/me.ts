import { z } from 'zod';
import { idFromPath, idSchema } from './common';
import { memberSchema } from './members';
import { workspaceSchema } from './workspaces';

/** GET /api/me: the initial data of spec 1 §3. */
export const meResponseSchema = z.object({
  memberId: z.number().int(),
  email: z.string(),
  name: z.string(),
  workspaces: z.array(workspaceSchema),
  onboardingRequired: z.boolean(),
  mfaEnabled: z.boolean(),
  /** Product-staff admin (e-mail on the product's own domain). */
  isStaff: z.boolean(),
  needsName: z.boolean(),
  needsWorkspace: z.boolean(),
  needsOnboarding: z.boolean(),
  firstDayOfWeek: z.number().int().min(0).max(6),
  showGettingStarted: z.boolean(),
  /** Set while a staff admin acts as this user. */
  impersonatedBy: z.object({ id: z.number().int(), email: z.string() }).nullable(),
});
export type Me = z.infer<typeof meResponseSchema>;

export const userNameSchema = z
  .string({ error: 'Your name should contain at least 1 character' })
  .trim()
  .min(1, 'Your name should contain at least 1 character')
  .max(256, "We currently don't support more than 256 characters.");

/** PATCH /api/me: only these fields; anything else is refused. */
export const patchMeBodySchema = z.strictObject({
  name: userNameSchema.optional(),
  firstDayOfWeek: z.number().int().min(0).max(6).optional(),
  showGettingStarted: z.boolean().optional(),
});
export type PatchMeBody = z.infer<typeof patchMeBodySchema>;

/**
 * A staff member acting as a user may look around, but the account's name, two-factor settings and e-mail
 * subscriptions stay the holder's to change (403 with this message).
 */
export const IMPERSONATION_READ_ONLY = 'Only the account holder can change this, not staff acting as them.';

/** GET /api/me/flags */
export const userFlagsResponseSchema = z.object({ data: z.array(z.string()) });

/** POST /api/me/mfa/setup */
export const mfaSetupResponseSchema = z.object({
  secret: z.string(),
  uri: z.string(),
  /** QR code of `uri` as a data: URL (PNG). */
  qr: z.string(),
});
export type MfaSetupResponse = z.infer<typeof mfaSetupResponseSchema>;

/** POST /api/me/mfa (enable) */
export const mfaEnableBodySchema = z.strictObject({
  secret: z.string().min(16).max(128),
  token: z.string().min(6, 'invalid_token').max(20, 'invalid_token'),
});
/** DELETE /api/me/mfa (disable) */
export const mfaDisableBodySchema = z.strictObject({
  token: z.string().min(6, 'invalid_token').max(20, 'invalid_token'),
});
export const mfaStatusResponseSchema = z.object({ mfaEnabled: z.boolean() });

/** POST /api/signup (older onboarding form, spec 1 §5). */
export const signupBodySchema = z.strictObject({
  name: userNameSchema,
  company: z
    .string({ error: 'The company name should contain at least 1 character' })
    .trim()
    .min(1, 'The company name should contain at least 1 character')
    .max(30, "We currently don't support more than 30 characters."),
  esp: z
    .array(z.string().trim().min(1).max(100), { error: 'To proceed, choose at least one automation tool' })
    .min(1, 'To proceed, choose at least one automation tool')
    .max(50),
  newsletter_opt_in: z.boolean(),
});
export type SignupBody = z.infer<typeof signupBodySchema>;

/** Reporting subscriptions (weekly summary per workspace). */
export const subscriptionPayloadSchema = z.strictObject({
  type: z.literal('weeklySummary'),
  workspaceId: idSchema,
});
export const reportingSubscriptionSchema = z.object({
  id: z.number().int(),
  memberId: z.number().int(),
  payload: z.object({ type: z.literal('weeklySummary'), workspaceId: z.number().int() }),
});
export type ReportingSubscription = z.infer<typeof reportingSubscriptionSchema>;
export const subscriptionListResponseSchema = z.object({ data: z.array(reportingSubscriptionSchema) });
export const subscriptionResponseSchema = z.object({ data: reportingSubscriptionSchema });
export const subscriptionBodySchema = z.strictObject({
  id: idSchema.optional(),
  memberId: idSchema.optional(),
  payload: subscriptionPayloadSchema,
});
export const subscriptionParamsSchema = z.object({ id: idFromPath('Invalid subscription id') });

/** GET /api/admin/workspaces/{id}/members (staff only): whom staff may pick to impersonate. */
export const adminMemberListResponseSchema = z.object({ data: z.array(memberSchema) });
export type AdminMemberList = z.infer<typeof adminMemberListResponseSchema>;

/** POST /api/admin/impersonate (staff only) */
export const impersonateBodySchema = z.strictObject({ userId: idSchema });
export const impersonateResponseSchema = z.object({
  user_id: z.number().int(),
  expires_at: z.string(),
  impersonated_by: z.number().int(),
});
export type ImpersonateResponse = z.infer<typeof impersonateResponseSchema>;
