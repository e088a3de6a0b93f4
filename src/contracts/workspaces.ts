import { z } from 'zod';
import {
  idFromPath,
  idSchema,
  localeSchema,
  roleSchema,
  workspaceIdParamsSchema,
  workspaceStatusSchema,
} from './common';

/** A workspace as the current user sees it (spec 1 §3). */
export const workspaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  displayName: z.string(),
  status: workspaceStatusSchema,
  role: roleSchema,
  agency: z.boolean(),
  licenseId: z.number().int().nullable(),
  licenseType: z.enum(['agency', 'other']).nullable(),
  licenseHolder: z.string().nullable(),
  /** Asset id of the logo, served from /api/assets/workspaces/{id}/{logo}. */
  logo: z.string().nullable(),
  locale: localeSchema,
  createdAt: z.string(),
  features: z.array(z.string()),
  activationRequested: z.boolean(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

/** A workspace in the agency and staff listings (the caller need not be a member). */
export const workspaceSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: workspaceStatusSchema,
  locale: localeSchema,
  licenseId: z.number().int().nullable(),
  licenseHolder: z.string().nullable(),
  createdAt: z.string(),
  memberCount: z.number().int(),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;
export const workspaceListResponseSchema = z.object({ data: z.array(workspaceSummarySchema) });

/** Onboarding and agency pages: 1 to 64 characters (spec 1 §5). */
export const workspaceNameSchema = z
  .string({ error: 'Name cannot be empty' })
  .trim()
  .min(1, 'Name cannot be empty')
  .max(64, "We currently don't support more than 64 characters.");

/** POST /api/workspaces */
export const createWorkspaceBodySchema = z.strictObject({
  name: workspaceNameSchema,
  license_id: idSchema.optional(),
});
export const createWorkspaceResponseSchema = z.object({ id: z.number().int() });

/** PUT /api/workspaces/{id}/settings */
export const workspaceSettingsBodySchema = z.strictObject({
  name: workspaceNameSchema,
  locale: localeSchema,
  logo: z.string().max(100).nullable().optional(),
});
export type WorkspaceSettingsBody = z.infer<typeof workspaceSettingsBodySchema>;

export const workspaceResponseSchema = workspaceSchema;

/** POST /api/workspaces/{id}/assets */
export const assetResponseSchema = z.object({ asset_id: z.string() });
export const assetParamsSchema = workspaceIdParamsSchema.extend({
  logo: z.string().regex(/^[A-Za-z0-9_-]{8,64}\.png$/, 'Not found'),
});

/** GET /api/workspaces/{id}/flags */
export const flagsResponseSchema = z.object({ data: z.array(z.string()) });

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TOO_BIG = 'This file is too big, please try a file smaller than 2 MB.';
export const LOGO_UNPROCESSABLE = 'Unable to process this file, try another.';

export const licenseIdParamsSchema = z.object({ licenseId: idFromPath('Invalid license id') });

/** DELETE /api/workspaces/{id}: where the user goes next (spec 1 §4). */
export const deleteWorkspaceResponseSchema = z.object({
  next_workspace_id: z.number().int().nullable(),
  redirect: z.string(),
});
export type DeleteWorkspaceResponse = z.infer<typeof deleteWorkspaceResponseSchema>;
