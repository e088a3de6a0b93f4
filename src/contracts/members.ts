import { z } from 'zod';
import { emailSchema, idFromPath, idSchema, roleSchema, workspaceIdParamsSchema } from './common';

export const memberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  mfaEnabled: z.boolean(),
  lastSeen: z.string().nullable(),
});
export type Member = z.infer<typeof memberSchema>;

/**
 * A pending invitation: only the address the admin typed, never anything of an account that may hold it (name,
 * two-factor state, last seen), until the invitee accepts through the link mailed to them.
 */
export const invitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleSchema,
  invitedAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** GET /api/workspaces/{id}/members: accepted members, and the invitations still pending. */
export const memberListResponseSchema = z.object({
  data: z.array(memberSchema),
  invitations: z.array(invitationSchema),
});
export const memberResponseSchema = z.object({ data: memberSchema });
export const invitationResponseSchema = z.object({ data: invitationSchema });

export const memberParamsSchema = workspaceIdParamsSchema.extend({ memberId: idFromPath('Invalid member id') });
export const invitationIdParamsSchema = workspaceIdParamsSchema.extend({
  invitationId: idFromPath('Invalid invitation id'),
});

export const ALREADY_MEMBER = 'This person is already a member of the workspace.';
export const STAFF_NOT_INVITABLE = 'Openrate staff accounts cannot be invited into a workspace.';
/** A workspace admin's power over a member's account ends where the member's other workspaces begin. */
export const MFA_OTHER_WORKSPACES =
  'This member also belongs to workspaces you do not administer: only they can turn off their two-factor authentication.';
export const STAFF_MFA = "Openrate staff accounts' two-factor authentication cannot be removed here.";

/** POST /api/workspaces/{id}/members */
export const inviteBodySchema = z.strictObject({
  email: emailSchema,
  role: roleSchema.default('member'),
});

export const memberNameBodySchema = z.strictObject({
  name: z
    .string({ error: 'Name cannot be empty' })
    .trim()
    .min(1, 'Name cannot be empty')
    .max(256, "We currently don't support more than 256 characters."),
});

export const memberRoleBodySchema = z.strictObject({ role: roleSchema });

/** DELETE /api/workspaces/{id}/members */
export const removeMemberBodySchema = z.strictObject({ member_id: idSchema });

export const invitationParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** Reasons the registration error page shows (spec 1 §8), as `?reason=` of /registration-error. */
export const registrationErrorReasons = [
  'token_not_found',
  'token_already_used',
  'token_expired',
  'account_already_exists',
  /** The invitation is for an account that exists: it is accepted only while signed in as that account. */
  'sign_in_to_accept',
] as const;
export type RegistrationErrorReason = (typeof registrationErrorReasons)[number];
