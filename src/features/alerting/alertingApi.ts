import { z } from 'zod';
import {
  alertResultsSchema,
  alertRuleSchema,
  alertViolationSchema,
  type AlertResults,
  type AlertRule,
  type AlertRuleInput,
  type AlertViolation,
  webhookDeliverySchema,
  type WebhookDelivery,
  webhookSecretResponseSchema,
  webhookSecretStatusResponseSchema,
} from '../../contracts/alerting';
import { api } from '../../store/api';
import { idempotencyHeaders } from '../../store/idempotency';

const rulesTag = (workspaceId: number) => ({ type: 'AlertRules' as const, id: workspaceId });
const resultsTag = (ruleId: string) => ({ type: 'AlertRules' as const, id: `results/${ruleId}` });
const deliveriesTag = (ruleId: string) => ({ type: 'AlertRules' as const, id: `deliveries/${ruleId}` });
const secretTag = (workspaceId: number) => ({ type: 'AlertRules' as const, id: `webhook-secret/${workspaceId}` });
type SecretStatus = z.infer<typeof webhookSecretStatusResponseSchema>['data'];
type NewSecret = z.infer<typeof webhookSecretResponseSchema>['data'];
const violationsTag = (workspaceId: number) => ({ type: 'AlertViolations' as const, id: workspaceId });

const base = (workspaceId: number) => `/workspaces/${workspaceId}/alerting`;

/**
 * Spec 3 §7 alerting calls. Answers come as `{ data }`; what is kept is checked against the contract's schemas.
 */
export const alertingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAlertRules: build.query<AlertRule[], number>({
      query: (workspaceId) => `${base(workspaceId)}/rules`,
      transformResponse: (raw: { data: AlertRule[] }) => raw.data,
      responseSchema: z.array(alertRuleSchema),
      providesTags: (_result, _error, workspaceId) => [rulesTag(workspaceId)],
    }),
    getAlertResults: build.query<AlertResults, { workspaceId: number; ruleId: string }>({
      query: ({ workspaceId, ruleId }) => `${base(workspaceId)}/rules/${encodeURIComponent(ruleId)}/results`,
      transformResponse: (raw: { data: AlertResults }) => raw.data,
      responseSchema: alertResultsSchema,
      providesTags: (_result, _error, { ruleId }) => [resultsTag(ruleId)],
    }),
    /** The last 30 days of an unsaved rule: a PUT because the rule travels in the body. */
    previewAlertRule: build.query<AlertResults, { workspaceId: number; body: AlertRuleInput }>({
      query: ({ workspaceId, body }) => ({ url: `${base(workspaceId)}/rules/preview`, method: 'PUT', body }),
      transformResponse: (raw: { data: AlertResults }) => raw.data,
      responseSchema: alertResultsSchema,
    }),
    getAlertViolations: build.query<AlertViolation[], number>({
      query: (workspaceId) => `${base(workspaceId)}/violations`,
      transformResponse: (raw: { data: AlertViolation[] }) => raw.data,
      responseSchema: z.array(alertViolationSchema),
      providesTags: (_result, _error, workspaceId) => [violationsTag(workspaceId)],
    }),
    /** A rule's webhook delivery log, newest first. */
    getWebhookDeliveries: build.query<WebhookDelivery[], { workspaceId: number; ruleId: string }>({
      query: ({ workspaceId, ruleId }) => `${base(workspaceId)}/rules/${encodeURIComponent(ruleId)}/deliveries`,
      transformResponse: (raw: { data: WebhookDelivery[] }) => raw.data,
      responseSchema: z.array(webhookDeliverySchema),
      providesTags: (_result, _error, { ruleId }) => [deliveriesTag(ruleId)],
    }),
    /** Whether the workspace has a webhook signing secret (never the secret). */
    getWebhookSecret: build.query<SecretStatus, number>({
      query: (workspaceId) => `${base(workspaceId)}/webhook-secret`,
      transformResponse: (raw: { data: SecretStatus }) => raw.data,
      responseSchema: webhookSecretStatusResponseSchema.shape.data,
      providesTags: (_result, _error, workspaceId) => [secretTag(workspaceId)],
    }),
    /** Makes (or rotates) the signing secret: its answer is the only time the secret is readable. */
    makeWebhookSecret: build.mutation<NewSecret, { workspaceId: number; rotate: boolean }>({
      query: ({ workspaceId, rotate }) => ({
        url: `${base(workspaceId)}/webhook-secret${rotate ? '/rotate' : ''}`,
        method: 'POST',
      }),
      transformResponse: (raw: { data: NewSecret }) => raw.data,
      responseSchema: webhookSecretResponseSchema.shape.data,
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [secretTag(workspaceId)]),
    }),
    /** Create and update alike (spec 3 §7): the id is chosen by the client, so a repeat does not duplicate. */
    saveAlertRule: build.mutation<unknown, { workspaceId: number; ruleId: string; body: AlertRuleInput }>({
      query: ({ workspaceId, ruleId, body }) => ({
        url: `${base(workspaceId)}/rules/${encodeURIComponent(ruleId)}`,
        method: 'PUT',
        body,
        headers: idempotencyHeaders(),
      }),
      // Saving updates the list, refreshes violations and resets that rule's results (spec 3 §4).
      invalidatesTags: (_result, error, { workspaceId, ruleId }) =>
        error ? [] : [rulesTag(workspaceId), violationsTag(workspaceId), resultsTag(ruleId), deliveriesTag(ruleId)],
    }),
    deleteAlertRule: build.mutation<unknown, { workspaceId: number; ruleId: string }>({
      query: ({ workspaceId, ruleId }) => ({
        url: `${base(workspaceId)}/rules/${encodeURIComponent(ruleId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, error, { workspaceId }) =>
        error ? [] : [rulesTag(workspaceId), violationsTag(workspaceId)],
    }),
  }),
});

export const {
  useGetAlertRulesQuery,
  useGetAlertResultsQuery,
  usePreviewAlertRuleQuery,
  useGetAlertViolationsQuery,
  useSaveAlertRuleMutation,
  useDeleteAlertRuleMutation,
  useGetWebhookDeliveriesQuery,
  useGetWebhookSecretQuery,
  useMakeWebhookSecretMutation,
} = alertingApi;
