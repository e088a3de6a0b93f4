import { getCatalogueDataset } from '../../contracts/catalogue';
import { emailSchema } from '../../contracts/common';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ReportFilter } from '../../contracts/reports';
import { type FilterIssues, isFilterOperator, operatorLabels, validateFilters } from '../widget-config/filterRules';
import { fieldText } from '../widget-config/settingsOptions';

/** Spec 3 §3 Alert rule: the datasets a rule may watch. */
export const alertDatasets = [
  'campaign_metrics_by_send_date',
  'campaign_metrics_by_event_date',
  'list_members',
  'website_metrics_ga_api',
  'ga4',
  'workspaces',
  'forms',
  'bloomreach',
] as const;

export const EVENT_DATE_DATASET = 'campaign_metrics_by_event_date';
export const MIN_DURATION = 1;
export const MAX_DURATION = 365;
/** History and preview cover 30 days; result tooltips list 10 rows (spec 3 §9). */
export const HISTORY_DAYS = 30;
export const TOOLTIP_ROWS = 10;

export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];

/** What the drawer edits: an alert rule without its server-kept fields (spec 3 §3). */
export interface AlertDraft {
  title: string;
  dataset: string;
  dateField: string | null;
  filters: ReportFilter[];
  conditions: ReportFilter[];
  dimension: string | null;
  mutedDays: Weekday[];
  /** Kept as typed, so an emptied input stays empty until the user types again. */
  duration: string;
  recipients: string[];
  webhookUrl: string;
  message: string;
  enabled: boolean;
}

/** Spec 3 §5 messages, word for word. */
export const alertMessages = {
  title: 'Please provide a title',
  conditions: 'Add at least one condition',
  recipients: 'Please ensure every entry is a valid e-mail address.',
  duration: `Enter a whole number of days from ${MIN_DURATION} to ${MAX_DURATION}`,
  webhookUrl: 'Enter a valid http(s) URL or leave it empty',
  dimension: 'This field is not in the dataset',
  saveFailed: 'Failed to update alert',
  historyFailed: 'Failed to fetch alert history.',
  removeConfirm: 'Are you sure you want to remove this alert rule?',
} as const;

/** The defaults of a new alert (spec 3 §3), recipients the current user. */
export const newAlertDraft = (email: string): AlertDraft => ({
  title: 'New alert',
  dataset: 'campaign_metrics_by_send_date',
  dateField: 'send_date',
  filters: [],
  conditions: [],
  dimension: null,
  mutedDays: [],
  duration: '1',
  recipients: email ? [email] : [],
  webhookUrl: '',
  message: '',
  enabled: true,
});

/** Duplicate: the same rule under a new id, ' (copy)' after its title (spec 3 §3). */
export const copyOfDraft = (draft: AlertDraft): AlertDraft => ({ ...draft, title: `${draft.title} (copy)` });

/** The date fields a rule may count its days by; the choice is offered only when there are two or more. */
export const alertDateFields = (schema: DatasetSchema) =>
  schema.fields.filter(
    (field) => field.type === 'dimension' && field.format === 'date' && !field.features.includes('hide'),
  );

export const showsDateField = (schema: DatasetSchema) =>
  schema.id !== EVENT_DATE_DATASET && alertDateFields(schema).length >= 2;

export interface AlertIssues {
  title?: string;
  conditions?: string;
  duration?: string;
  recipients?: string;
  webhookUrl?: string;
  dimension?: string;
  filterRows: FilterIssues[];
  conditionRows: FilterIssues[];
}

const isHttpUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/** The alert form's rules (spec 3 §5); without a schema the members are not checked yet. */
export function alertIssues(draft: AlertDraft, schema: DatasetSchema | undefined): AlertIssues {
  const duration = Number(draft.duration);
  const rows = (filters: ReportFilter[]) => (schema ? validateFilters(schema, filters) : filters.map(() => ({})));
  const issues: AlertIssues = { filterRows: rows(draft.filters), conditionRows: rows(draft.conditions) };
  if (!draft.title.trim()) issues.title = alertMessages.title;
  if (draft.conditions.length === 0) issues.conditions = alertMessages.conditions;
  if (!/^\d+$/.test(draft.duration.trim()) || duration < MIN_DURATION || duration > MAX_DURATION) {
    issues.duration = alertMessages.duration;
  }
  if (draft.recipients.some((entry) => !emailSchema.safeParse(entry).success)) {
    issues.recipients = alertMessages.recipients;
  }
  if (draft.webhookUrl.trim() && !isHttpUrl(draft.webhookUrl.trim())) issues.webhookUrl = alertMessages.webhookUrl;
  if (schema && draft.dimension && !schema.fields.some((field) => field.id === draft.dimension)) {
    issues.dimension = alertMessages.dimension;
  }
  return issues;
}

export const hasIssues = ({ filterRows, conditionRows, ...rest }: AlertIssues) =>
  Object.values(rest).some(Boolean) || [...filterRows, ...conditionRows].some((row) => Object.keys(row).length > 0);

/** One condition in words, with the dataset's labels: 'Sent gt 1000'. */
function conditionText(condition: ReportFilter, schema: DatasetSchema | undefined): string {
  const field = schema?.fields.find((candidate) => candidate.id === condition.member);
  const operator = isFilterOperator(condition.operator) ? operatorLabels[condition.operator] : condition.operator;
  return [field ? fieldText(field) : condition.member, operator, (condition.values ?? []).join(' and ')]
    .filter(Boolean)
    .join(' ');
}

/** The sentence under a rule's title in the list: what it watches, over how long, per what. */
export function describeRule(rule: Pick<AlertDraft, 'dataset' | 'conditions' | 'dimension' | 'duration'>): string {
  const schema = getCatalogueDataset(rule.dataset);
  const conditions = rule.conditions.map((condition) => conditionText(condition, schema)).join(' and ');
  const days = Number(rule.duration) === 1 ? 'the day' : `${rule.duration} days`;
  const dimension = rule.dimension && schema?.fields.find((field) => field.id === rule.dimension);
  const per = rule.dimension ? ` per ${dimension ? fieldText(dimension) : rule.dimension}` : '';
  const dataset = schema?.title ?? rule.dataset;
  return conditions
    ? `Triggers when ${conditions} over ${days}${per} in ${dataset}.`
    : `No conditions on ${dataset} yet.`;
}
