import { z } from 'zod';
import { idFromPath, isCalendarDate } from './common';
import { DEFAULT_EXPLORER_DATASET, MAX_TITLE_LENGTH, type ReportFilter, reportFilterSchema } from './reports';

/** The datasets a target may follow (spec 2 §1). */
export const targetDatasets = [
  'campaign_metrics_by_send_date',
  'campaign_metrics_by_event_date',
  'ga4',
  'list_members',
  'workspaces',
  'mailchimp_archive',
  'forms',
  'bloomreach',
] as const;
export type TargetDataset = (typeof targetDatasets)[number];
export const targetVisualizations = ['line', 'bar'] as const;
export type TargetVisualization = (typeof targetVisualizations)[number];

/** Spec 2 §5 Target form, word for word. */
export const END_BEFORE_START = 'End date cannot be earlier than start date.';
export const TITLE_REQUIRED = 'Title is required';
export const METRIC_REQUIRED = 'Metric is required';
export const TARGET_NOT_A_NUMBER = 'Target must be a number';
export const INVALID_TARGET_DATE = 'Invalid date';
export const UNKNOWN_TARGET_DATASET = 'Unknown dataset';
export const TARGETS_PER_WORKSPACE_REACHED =
  'This workspace has reached its limit of targets, please delete targets you no longer need.';
/** A filter may nest and/or groups; this bounds the work a body can ask of the validator. */
export const MAX_TARGET_FILTERS = 50;

/** Target ids are made by the client (the PUT creates or updates), so a create can be retried safely. */
export const TARGET_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const targetIdSchema = z.string().regex(TARGET_ID_PATTERN, 'Invalid target id');

export const targetParamsSchema = z.object({
  workspaceId: idFromPath('Invalid workspace id'),
  targetId: targetIdSchema,
});

/** The public route's report id stays a plain string: a malformed id is the same not-found as a private report. */
export const publicTargetsParamsSchema = z.object({ reportId: z.string().max(32) });

const daySchema = z.string(INVALID_TARGET_DATE).refine(isCalendarDate, INVALID_TARGET_DATE);

/** The fields a user edits, with the spec's defaults (spec 2 §3 Target). */
const targetFields = {
  title: z.string(TITLE_REQUIRED).trim().min(1, TITLE_REQUIRED).max(MAX_TITLE_LENGTH),
  dataset: z.enum(targetDatasets, UNKNOWN_TARGET_DATASET).default(DEFAULT_EXPLORER_DATASET),
  metric: z.string(METRIC_REQUIRED).min(1, METRIC_REQUIRED),
  target: z.number(TARGET_NOT_A_NUMBER).default(0),
  dateStart: daySchema,
  dateEnd: daySchema,
  visualization: z.enum(targetVisualizations).default('line'),
  filters: z.array(reportFilterSchema).max(MAX_TARGET_FILTERS).default([]),
};

/** The end must come after the start (spec 2 §5); the message sits on dateEnd. */
const endAfterStart = (target: { dateStart: string; dateEnd: string }) => target.dateEnd > target.dateStart;

/**
 * The body of `PUT /workspaces/{id}/targets/{id}`: the target without its ids, which come from the path.
 * Unknown keys are refused (strict), so a body cannot name another workspace.
 */
export const targetBodySchema = z
  .strictObject(targetFields)
  .refine(endAfterStart, { message: END_BEFORE_START, path: ['dateEnd'] });
export type TargetBody = z.input<typeof targetBodySchema>;

/** The report filter schema with its input typed like its output, as RTK Query's responseSchema expects. */
const filterSchema = reportFilterSchema as z.ZodType<ReportFilter, ReportFilter>;

export const targetSchema = z.object({
  id: targetIdSchema,
  workspaceId: z.number().int(),
  title: z.string(),
  dataset: z.enum(targetDatasets),
  metric: z.string(),
  target: z.number(),
  dateStart: z.string(),
  dateEnd: z.string(),
  visualization: z.enum(targetVisualizations),
  filters: z.array(filterSchema),
});
export type Target = z.infer<typeof targetSchema>;

export const targetResponseSchema = z.object({ data: targetSchema });
export const targetListResponseSchema = z.object({ data: z.array(targetSchema) });

/** Targets ordered as the spec lists them: by dateEnd, latest first, then by title (spec 2 §4). */
export function compareTargets(a: Pick<Target, 'dateEnd' | 'title'>, b: Pick<Target, 'dateEnd' | 'title'>): number {
  if (a.dateEnd !== b.dateEnd) return a.dateEnd < b.dateEnd ? 1 : -1;
  return a.title.localeCompare(b.title);
}

/** The target ids the target widgets of a dashboard config reference, in order, without repeats. */
export function targetIdsOfConfig(config: unknown): string[] {
  const widgets = (config as { widgets?: unknown } | null)?.widgets;
  if (!Array.isArray(widgets)) return [];
  const ids = widgets.flatMap((widget: { type?: unknown; targets?: unknown }) =>
    widget?.type === 'target' && Array.isArray(widget.targets) ? widget.targets.map(String) : [],
  );
  return [...new Set(ids)].filter((id) => TARGET_ID_PATTERN.test(id));
}
