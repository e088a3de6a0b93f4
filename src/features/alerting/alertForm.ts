import {
  ALERT_COPY_SUFFIX,
  ALERT_HISTORY_FAILED,
  ALERT_UPDATE_FAILED,
  CONDITION_REQUIRED,
  DEFAULT_ALERT_DATASET,
  DEFAULT_ALERT_DATE_FIELD,
  DEFAULT_ALERT_DURATION,
  DEFAULT_ALERT_TITLE,
  DURATION_OUT_OF_RANGE,
  EVENT_DATE_DATASET,
  INVALID_RECIPIENTS,
  INVALID_WEBHOOK_URL,
  isValidRecipient,
  isValidWebhookUrl,
  MAX_ALERT_DURATION,
  MIN_ALERT_DURATION,
  REMOVE_ALERT_CONFIRM,
  TITLE_REQUIRED,
  type AlertRule,
  type AlertRuleInput,
  type Weekday,
} from '../../contracts/alerting';
import { getCatalogueDataset } from '../../contracts/catalogue';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ReportFilter } from '../../contracts/reports';
import {
  type FilterIssues,
  isFilterOperator,
  operatorLabels,
  shownValue,
  UNKNOWN_FIELD,
  validateFilters,
} from '../widget-config/filterRules';
import { fieldText } from '../widget-config/settingsOptions';

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

/** Spec 3 §5 and §8 messages, word for word (the contract's), and the form's own for unknown members. */
export const alertMessages = {
  title: TITLE_REQUIRED,
  conditions: CONDITION_REQUIRED,
  recipients: INVALID_RECIPIENTS,
  duration: DURATION_OUT_OF_RANGE,
  webhookUrl: INVALID_WEBHOOK_URL,
  dimension: UNKNOWN_FIELD,
  saveFailed: ALERT_UPDATE_FAILED,
  historyFailed: ALERT_HISTORY_FAILED,
  removeConfirm: REMOVE_ALERT_CONFIRM,
} as const;

/** The defaults of a new alert (spec 3 §3), recipients the current user. */
export const newAlertDraft = (email: string): AlertDraft => ({
  title: DEFAULT_ALERT_TITLE,
  dataset: DEFAULT_ALERT_DATASET,
  dateField: DEFAULT_ALERT_DATE_FIELD,
  filters: [],
  conditions: [],
  dimension: null,
  mutedDays: [],
  duration: String(DEFAULT_ALERT_DURATION),
  recipients: email ? [email] : [],
  webhookUrl: '',
  message: '',
  enabled: true,
});

/** A saved rule as the drawer edits it. */
export const draftOfRule = (rule: AlertRule): AlertDraft => ({
  title: rule.title,
  dataset: rule.dataset,
  dateField: rule.dateField,
  filters: rule.filters,
  conditions: rule.conditions,
  dimension: rule.dimension,
  mutedDays: rule.mutedDays,
  duration: String(rule.duration),
  recipients: rule.recipients,
  webhookUrl: rule.webhookUrl ?? '',
  message: rule.message,
  enabled: rule.enabled,
});

/**
 * The draft as the save and preview calls take it. Rows are sent as the form holds them: the form has already
 * checked them, and the server checks them again against the contract.
 */
export const bodyOfDraft = (draft: AlertDraft): AlertRuleInput => ({
  ...draft,
  dateField: draft.dateField ?? DEFAULT_ALERT_DATE_FIELD,
  filters: draft.filters as AlertRuleInput['filters'],
  conditions: draft.conditions as AlertRuleInput['conditions'],
  dataset: draft.dataset as AlertRuleInput['dataset'],
  duration: Number(draft.duration),
  webhookUrl: draft.webhookUrl.trim() || null,
});

/** Duplicate: the same rule under a new id, ' (copy)' after its title (spec 3 §3). */
export const copyOfDraft = (draft: AlertDraft): AlertDraft => ({
  ...draft,
  title: `${draft.title}${ALERT_COPY_SUFFIX}`,
});

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

/** The alert form's rules (spec 3 §5); without a schema the members are not checked yet. */
export function alertIssues(draft: AlertDraft, schema: DatasetSchema | undefined): AlertIssues {
  const duration = Number(draft.duration);
  const rows = (filters: ReportFilter[]) => (schema ? validateFilters(schema, filters) : filters.map(() => ({})));
  const issues: AlertIssues = { filterRows: rows(draft.filters), conditionRows: rows(draft.conditions) };
  if (!draft.title.trim()) issues.title = alertMessages.title;
  if (draft.conditions.length === 0) issues.conditions = alertMessages.conditions;
  if (!/^\d+$/.test(draft.duration.trim()) || duration < MIN_ALERT_DURATION || duration > MAX_ALERT_DURATION) {
    issues.duration = alertMessages.duration;
  }
  if (draft.recipients.some((entry) => !isValidRecipient(entry.trim().toLowerCase()))) {
    issues.recipients = alertMessages.recipients;
  }
  if (draft.webhookUrl.trim() && !isValidWebhookUrl(draft.webhookUrl.trim()))
    issues.webhookUrl = alertMessages.webhookUrl;
  if (schema && draft.dimension && !schema.fields.some((field) => field.id === draft.dimension)) {
    issues.dimension = alertMessages.dimension;
  }
  return issues;
}

export const hasIssues = ({ filterRows, conditionRows, ...rest }: AlertIssues) =>
  Object.values(rest).some(Boolean) || [...filterRows, ...conditionRows].some((row) => Object.keys(row).length > 0);

/** One condition in words, with the dataset's labels: 'Sent greater than 1000'. */
function conditionText(condition: ReportFilter, schema: DatasetSchema | undefined): string {
  const field = schema?.fields.find((candidate) => candidate.id === condition.member);
  // Inside a sentence: 'Sent greater than 1000'.
  const operator = isFilterOperator(condition.operator)
    ? operatorLabels[condition.operator].toLowerCase()
    : condition.operator;
  // Percentages read as the form shows them: 0.2 is '20%'.
  const values = (condition.values ?? []).map((value) =>
    field?.format === 'percent' && !condition.operator?.startsWith('outlier') ? `${shownValue(field, value)}%` : value,
  );
  return [field ? fieldText(field) : condition.member, operator, values.join(' and ')].filter(Boolean).join(' ');
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

/**
 * A new dataset: its own date field, and only the filters, conditions and grouping whose fields it has (custom
 * fields are checked against the loaded schema when the form validates).
 */
export function datasetSwitched(draft: AlertDraft, dataset: string): Partial<AlertDraft> {
  const schema = getCatalogueDataset(dataset);
  const has = (id: string | undefined) => Boolean(id && schema?.fields.some((field) => field.id === id));
  return {
    dataset,
    dateField: schema?.dateField ?? null,
    filters: draft.filters.filter((filter) => has(filter.member)),
    conditions: draft.conditions.filter((condition) => has(condition.member)),
    dimension: has(draft.dimension ?? undefined) ? draft.dimension : null,
  };
}
