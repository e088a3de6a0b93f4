import { z } from 'zod';
import { catalogue } from './catalogue';
import { workspaceIdParamsSchema } from './common';

/** Targets a baseline set holds at most (every baseline metric of the catalogue fits many times over). */
export const MAX_BASELINE_TARGETS = 200;
export const BASELINE_VALUE_NOT_A_NUMBER = 'Baseline value must be a number';
export const unknownBaselineMetric = (metric: string) => `Metric not found: "${metric}"`;

/** The metrics a baseline may be set for: catalogue metrics with the `baseline` feature (DATA-CATALOGUE). */
export const baselineMetrics: ReadonlySet<string> = new Set(
  catalogue.flatMap((dataset) =>
    dataset.fields.filter((field) => field.type === 'metric' && field.features.includes('baseline')).map((f) => f.id),
  ),
);

const collectionId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');

export const baselineTargetSchema = z.strictObject({
  id: collectionId,
  metric: z
    .string()
    .refine((metric) => baselineMetrics.has(metric), { error: (issue) => unknownBaselineMetric(String(issue.input)) }),
  /** A decimal number as text, as the form stores it. */
  value: z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, BASELINE_VALUE_NOT_A_NUMBER),
  format: z.string().max(32).nullish(),
  category: z.string().max(128).nullish(),
});
export type BaselineTarget = z.infer<typeof baselineTargetSchema>;

export const baselineSetSchema = z.strictObject({
  id: collectionId,
  targets: z.array(baselineTargetSchema).max(MAX_BASELINE_TARGETS),
});

/** Body of PUT: the collection as the drawer holds it; the path's id wins over any id in the body. */
export const campaignCollectionBodySchema = z.strictObject({
  id: collectionId.optional(),
  name: z.string().trim().min(1, 'Please provide a name').max(256),
  rules: z.array(z.record(z.string(), z.unknown())).max(100).default([]),
  baselineSet: baselineSetSchema,
  createdAt: z.string().optional(),
  lastUpdatedAt: z.string().optional(),
});
export type CampaignCollectionBody = z.infer<typeof campaignCollectionBodySchema>;

export const campaignCollectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  rules: z.array(z.record(z.string(), z.unknown())),
  baselineSet: z.object({ id: z.string(), targets: z.array(baselineTargetSchema) }),
});
export type CampaignCollection = z.infer<typeof campaignCollectionSchema>;

export const campaignCollectionListSchema = z.object({ campaignCollections: z.array(campaignCollectionSchema) });
export const campaignCollectionResponseSchema = z.object({ data: campaignCollectionSchema });

export const campaignCollectionParamsSchema = workspaceIdParamsSchema.extend({ collectionId });
