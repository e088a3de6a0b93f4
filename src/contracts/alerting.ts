import { z } from 'zod';
import { filterOperators } from '../engine/filters';
import { isCalendarDate, workspaceIdParamsSchema } from './common';
import { newUuid } from './ids';

/**
 * Alerting's wire format (spec 3 §3 Alert rule, Alert violation, Alert results / preview; §5 validation; §7
 * calls). The server validates with these schemas and the client parses its answers with them.
 */

/** Datasets a rule may watch (spec 3 §3). */
export const ALERT_DATASETS = [
  'campaign_metrics_by_send_date',
  'campaign_metrics_by_event_date',
  'list_members',
  'website_metrics_ga_api',
  'ga4',
  'workspaces',
  'forms',
  'bloomreach',
] as const;
export type AlertDataset = (typeof ALERT_DATASETS)[number];
/** The event-date dataset never offers a date-field choice (spec 3 §2). */
export const EVENT_DATE_DATASET = 'campaign_metrics_by_event_date';

/** Operators a filter may use (spec 3 §3 Filter): the engine's own, so a rule filters as a widget does. */
export const alertFilterOperators = filterOperators;
export type AlertFilterOperator = (typeof alertFilterOperators)[number];

/** Operators a condition may use: tests of an aggregated metric (issue 17). */
export const alertConditionOperators = [
  'gt',
  'gte',
  'lt',
  'lte',
  'equals',
  'notEquals',
  'inRange',
  'outlierHigh',
  'outlierLow',
  'outlier',
] as const;
export type AlertConditionOperator = (typeof alertConditionOperators)[number];

/** Operators that need no values (spec 3 §5). */
export const VALUELESS_OPERATORS: readonly string[] = ['set', 'notSet'];

/** Weekdays a rule can be muted on, Monday first (spec 3 §3). */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

// Constants (spec 3 §3, §9).
export const DEFAULT_ALERT_TITLE = 'New alert';
export const DEFAULT_ALERT_DATASET: AlertDataset = 'campaign_metrics_by_send_date';
export const DEFAULT_ALERT_DATE_FIELD = 'send_date';
export const DEFAULT_ALERT_DURATION = 1;
export const MIN_ALERT_DURATION = 1;
export const MAX_ALERT_DURATION = 365;
/** Days covered by the history bar and the preview. */
export const ALERT_HISTORY_DAYS = 30;
/** Rows listed in a multi-condition result's tooltip. */
export const ALERT_TOOLTIP_ROWS = 10;
/** Rows of one day's details the server answers at most (the tooltip still shows ALERT_TOOLTIP_ROWS). */
export const MAX_ALERT_DETAIL_ROWS = 1000;
export const ALERT_SEARCH_DEBOUNCE_MS = 200;
export const ALERT_COPY_SUFFIX = ' (copy)';
export const MAX_ALERT_TITLE_LENGTH = 256;
export const MAX_ALERT_MESSAGE_LENGTH = 4000;
export const MAX_ALERT_RECIPIENTS = 50;
export const MAX_ALERT_CONDITIONS = 20;
export const MAX_ALERT_FILTERS = 50;
export const MAX_WEBHOOK_URL_LENGTH = 2048;

// Messages: the spec's own words where it has them (spec 3 §5, §8), otherwise in the same style.
export const TITLE_REQUIRED = 'Please provide a title';
export const CONDITION_REQUIRED = 'Add at least one condition';
export const INVALID_RECIPIENTS = 'Please ensure every entry is a valid e-mail address.';
export const ALERT_UPDATE_FAILED = 'Failed to update alert';
export const ALERT_HISTORY_FAILED = 'Failed to fetch alert history.';
export const REMOVE_ALERT_CONFIRM = 'Are you sure you want to remove this alert rule?';
export const DURATION_OUT_OF_RANGE = `Duration must be a number of days from ${MIN_ALERT_DURATION} to ${MAX_ALERT_DURATION}`;
export const MEMBER_AND_OPERATOR_REQUIRED = 'Every filter and condition needs a field and an operator';
export const VALUES_REQUIRED = 'Every filter and condition needs a value';
export const INVALID_WEBHOOK_URL = 'Please provide a valid webhook URL';
export const WEBHOOK_URL_NOT_PUBLIC =
  'The webhook URL must be a public address (not loopback, private, link-local or cloud metadata)';
export const WEBHOOK_SECRET_EXISTS = 'This workspace already has a webhook signing secret; rotate it to get a new one';
export const DATASET_NOT_ALLOWED = 'This dataset cannot be used for alerts';
export const TITLE_TOO_LONG = "We currently don't support more than 256 characters.";
export const ALERT_RULE_NOT_FOUND = 'Alert rule not found';
export const INVALID_ALERT_ID = 'Invalid alert id';
/** A member (dimension, filter or condition field) the dataset's schema does not have. */
export const unknownFieldMessage = (member: string) => `The field "${member}" does not exist in this dataset`;
/** A condition's field must be a metric: conditions test aggregated values. */
export const conditionNeedsMetricMessage = (member: string) => `The condition on "${member}" needs a metric`;
/** The note under a tooltip that lists only the first rows. */
export const showingFirstMessage = (total: number) => `Showing first ${ALERT_TOOLTIP_ROWS} out of ${total} results`;

/**
 * Messages the server answers word for word (no field prefix) when one is the first problem of a request, so
 * the client can show them as they are.
 */
export const ALERT_MESSAGES: ReadonlySet<string> = new Set([
  TITLE_REQUIRED,
  CONDITION_REQUIRED,
  INVALID_RECIPIENTS,
  DURATION_OUT_OF_RANGE,
  MEMBER_AND_OPERATOR_REQUIRED,
  VALUES_REQUIRED,
  INVALID_WEBHOOK_URL,
  DATASET_NOT_ALLOWED,
  TITLE_TOO_LONG,
]);

const recipientPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** True for an address the recipients field accepts. */
export const isValidRecipient = (value: string): boolean => value.length <= 254 && recipientPattern.test(value);

/** True for an http(s) URL; the server checks the address it resolves to again before each delivery. */
export function isValidWebhookUrl(value: string): boolean {
  if (value.length > MAX_WEBHOOK_URL_LENGTH) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A member, an operator and its values; set and notSet need no values (spec 3 §5). */
function memberTestSchema<const T extends readonly [string, ...string[]]>(operators: T) {
  return z
    .object({
      member: z.string({ error: MEMBER_AND_OPERATOR_REQUIRED }).trim().min(1, MEMBER_AND_OPERATOR_REQUIRED).max(256),
      operator: z.enum(operators, { error: MEMBER_AND_OPERATOR_REQUIRED }),
      values: z
        .array(z.string({ error: VALUES_REQUIRED }).max(1024))
        .max(1000)
        .default([]),
    })
    .superRefine((test, ctx) => {
      if (VALUELESS_OPERATORS.includes(test.operator)) return;
      if (test.values.length === 0 || test.values.some((value) => value.trim() === '')) {
        ctx.addIssue({ code: 'custom', message: VALUES_REQUIRED, path: ['values'] });
      }
    });
}

export const alertFilterSchema = memberTestSchema(alertFilterOperators);
export type AlertFilter = z.infer<typeof alertFilterSchema>;
export const alertConditionSchema = memberTestSchema(alertConditionOperators);
export type AlertCondition = z.infer<typeof alertConditionSchema>;

/**
 * The editable part of a rule, as the save and preview calls take it. Missing fields take the defaults of a new
 * alert (spec 3 §3); missing recipients become the caller's e-mail on the server. Strict: id, workspace and dates
 * are the server's to set.
 */
export const alertRuleInputSchema = z.strictObject({
  title: z
    .string({ error: TITLE_REQUIRED })
    .trim()
    .min(1, TITLE_REQUIRED)
    .max(MAX_ALERT_TITLE_LENGTH, TITLE_TOO_LONG)
    .default(DEFAULT_ALERT_TITLE),
  dataset: z.enum(ALERT_DATASETS, { error: DATASET_NOT_ALLOWED }).default(DEFAULT_ALERT_DATASET),
  dateField: z.string().trim().min(1).max(256).default(DEFAULT_ALERT_DATE_FIELD),
  filters: z.array(alertFilterSchema).max(MAX_ALERT_FILTERS).default([]),
  conditions: z
    .array(alertConditionSchema)
    .min(1, CONDITION_REQUIRED)
    .max(MAX_ALERT_CONDITIONS)
    .default([] as AlertCondition[]),
  dimension: z.string().trim().min(1).max(256).nullable().default(null),
  mutedDays: z
    .array(z.enum(WEEKDAYS))
    .max(WEEKDAYS.length)
    .default([])
    .transform((days) => WEEKDAYS.filter((day) => days.includes(day))),
  duration: z
    .number({ error: DURATION_OUT_OF_RANGE })
    .int(DURATION_OUT_OF_RANGE)
    .min(MIN_ALERT_DURATION, DURATION_OUT_OF_RANGE)
    .max(MAX_ALERT_DURATION, DURATION_OUT_OF_RANGE)
    .default(DEFAULT_ALERT_DURATION),
  recipients: z
    .array(z.string({ error: INVALID_RECIPIENTS }).trim().toLowerCase())
    .max(MAX_ALERT_RECIPIENTS, INVALID_RECIPIENTS)
    .refine((list) => list.every(isValidRecipient), INVALID_RECIPIENTS)
    .optional(),
  webhookUrl: z
    .string({ error: INVALID_WEBHOOK_URL })
    .trim()
    .refine((value) => value === '' || isValidWebhookUrl(value), INVALID_WEBHOOK_URL)
    .nullable()
    .default(null)
    .transform((value) => (value === '' ? null : value)),
  message: z.string().max(MAX_ALERT_MESSAGE_LENGTH).default(''),
  enabled: z.boolean().default(true),
});
export type AlertRuleInput = z.input<typeof alertRuleInputSchema>;
export type AlertRuleValues = z.output<typeof alertRuleInputSchema>;

/** One rule as the API answers it (spec 3 §3 Alert rule). */
export const alertRuleSchema = z.object({
  id: z.string(),
  workspaceId: z.number().int(),
  title: z.string(),
  dataset: z.string(),
  dateField: z.string(),
  filters: z.array(z.object({ member: z.string(), operator: z.string(), values: z.array(z.string()) })),
  conditions: z.array(z.object({ member: z.string(), operator: z.string(), values: z.array(z.string()) })),
  dimension: z.string().nullable(),
  mutedDays: z.array(z.enum(WEEKDAYS)),
  duration: z.number().int(),
  recipients: z.array(z.string()),
  webhookUrl: z.string().nullable(),
  message: z.string(),
  enabled: z.boolean(),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

/**
 * Rule ids are made by the client (a UUID) so that `PUT …/rules/{id}` creates and updates alike, and a retried
 * create lands on the same rule.
 */
export const alertRuleIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, INVALID_ALERT_ID)
  .transform((id) => id.toLowerCase());
export const newAlertRuleId = newUuid;

export const alertRuleParamsSchema = workspaceIdParamsSchema.extend({ id: alertRuleIdSchema });

/** One group's (or the whole selection's) aggregated values on one day and whether every condition held. */
export const alertDetailRowSchema = z.object({
  /** The value of the rule's dimension; null when the rule is not grouped. */
  group: z.string().nullable(),
  /** Condition members and their aggregated values. */
  values: z.record(z.string(), z.number().nullable()),
  result: z.boolean().nullable(),
});
export type AlertDetailRow = z.infer<typeof alertDetailRowSchema>;

const daySchema = z.string().refine(isCalendarDate, 'Invalid day');

/**
 * One day of a rule's history: the window `rangeStart`..`rangeEnd` (the `duration` days ending at that day),
 * true when every condition held (for at least one group when grouped), false when not, null without data.
 * `details.results` lists the groups, those that fired first, at most MAX_ALERT_DETAIL_ROWS of `details.total`.
 */
export const alertResultSchema = z.object({
  rangeStart: daySchema,
  rangeEnd: daySchema,
  result: z.boolean().nullable(),
  details: z.object({
    dimension: z.string().nullable(),
    metrics: z.array(z.string()),
    results: z.array(alertDetailRowSchema),
    total: z.number().int(),
  }),
});
export type AlertResult = z.infer<typeof alertResultSchema>;

/** The answer of the results and preview calls: the last ALERT_HISTORY_DAYS days, oldest first. */
export const alertResultsSchema = z.object({
  results: z.array(alertResultSchema),
  conditions: z.array(z.object({ member: z.string(), operator: z.string(), values: z.array(z.string()) })),
  dimension: z.string().nullable(),
});
export type AlertResults = z.infer<typeof alertResultsSchema>;

export const alertViolationStatuses = ['open', 'closed'] as const;
/** A violation opens on the day a rule's result turns true and closes on the day it turns false. */
export const alertViolationSchema = z.object({
  id: z.number().int(),
  ruleId: z.string(),
  status: z.enum(alertViolationStatuses),
  openedOn: daySchema,
  closedOn: daySchema.nullable(),
  /** The groups that fired on the opening day. */
  groups: z.array(alertDetailRowSchema),
});
export type AlertViolation = z.infer<typeof alertViolationSchema>;

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
/** One webhook call of a rule's notification, with its attempts (delivery log per rule). */
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  ruleId: z.string(),
  day: daySchema,
  url: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

// Answers.
export const alertRuleListResponseSchema = z.object({ data: z.array(alertRuleSchema) });
export const alertRuleResponseSchema = z.object({ data: alertRuleSchema });
export const alertResultsResponseSchema = z.object({ data: alertResultsSchema });
export const alertViolationListResponseSchema = z.object({ data: z.array(alertViolationSchema) });
export const webhookDeliveryListResponseSchema = z.object({ data: z.array(webhookDeliverySchema) });
/** Whether the workspace has a webhook signing secret; the secret itself is answered only when made. */
export const webhookSecretStatusResponseSchema = z.object({
  data: z.object({ configured: z.boolean(), createdAt: z.string().nullable() }),
});
/** A new signing secret, shown once. */
export const webhookSecretResponseSchema = z.object({ data: z.object({ secret: z.string(), createdAt: z.string() }) });
/** Header carrying `sha256=<hex HMAC-SHA256 of the raw body>` on every webhook call. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Openrate-Signature';

/** Development and test only: evaluate the workspace's enabled rules for one day now (default yesterday). */
export const evaluateAlertsBodySchema = z.strictObject({ day: daySchema.optional() });
export const evaluateAlertsResponseSchema = z.object({
  data: z.object({ day: daySchema, evaluated: z.number().int(), opened: z.number().int(), closed: z.number().int() }),
});
