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

export const memberListResponseSchema = z.object({ data: z.array(memberSchema) });
export const memberResponseSchema = z.object({ data: memberSchema });

export const memberParamsSchema = workspaceIdParamsSchema.extend({ memberId: idFromPath('Invalid member id') });

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
] as const;
export type RegistrationErrorReason = (typeof registrationErrorReasons)[number];
