import { z } from 'zod';
import { idFromPath, idSchema, isCalendarDate, workspaceIdParamsSchema } from './common';

export const MIN_ANNOTATION_DATE = '2000-01-01';

const dateSchema = z
  .string({ error: 'Please select a date range' })
  .refine(isCalendarDate, 'Please select a date range')
  .refine((value) => value >= MIN_ANNOTATION_DATE, 'Please select a date range');

/** Body of POST and PUT; id and workspace_id may be echoed back but never override the path. */
export const annotationBodySchema = z
  .strictObject({
    id: idSchema.optional(),
    workspace_id: idSchema.optional(),
    severity: z.enum(['note', 'critical']).default('note'),
    message: z.string({ error: 'Please provide a message' }).trim().min(1, 'Please provide a message').max(2000),
    date_start: dateSchema,
    date_end: dateSchema,
  })
  .refine((value) => value.date_start <= value.date_end, {
    message: 'Start date of period must be before the end date',
    path: ['date_end'],
  });
export type AnnotationBody = z.infer<typeof annotationBodySchema>;

export const annotationSchema = z.object({
  id: z.number().int(),
  workspace_id: z.number().int(),
  severity: z.enum(['note', 'critical']),
  message: z.string(),
  date_start: z.string(),
  date_end: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
  created_by_id: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  created_by_email: z.string().nullable(),
});
export type Annotation = z.infer<typeof annotationSchema>;
export const annotationListResponseSchema = z.object({ data: z.array(annotationSchema) });
export const annotationResponseSchema = z.object({ data: annotationSchema });

export const annotationParamsSchema = workspaceIdParamsSchema.extend({
  annotationId: idFromPath('Invalid annotation id'),
});
