import { type DatasetSchema } from '../../contracts/datasets';
import { DEFAULT_EXPLORER_DATASET, type ReportFilter } from '../../contracts/reports';
import {
  type Target,
  type TargetBody,
  targetBodySchema,
  type TargetDataset,
  type TargetVisualization,
} from '../../contracts/targets';
import { validateFilters } from '../widget-config/filterRules';
import { isTargetMetric } from '../widgets/target/targetProgress';

/** The Target drawer's fields as typed; the target number stays text until saved (comma decimals). */
export interface TargetForm {
  title: string;
  dataset: TargetDataset;
  metric: string;
  targetText: string;
  dateStart: string;
  dateEnd: string;
  visualization: TargetVisualization;
  filters: ReportFilter[];
}

export type TargetFormIssues = Partial<
  Record<'title' | 'metric' | 'target' | 'dateStart' | 'dateEnd' | 'filters', string>
>;

/**
 * The target number as the form shows it (spec 2 §5): a comma as decimal separator, a dot between thousands,
 * always 2 decimals: 1234.5 is '1.234,50'.
 */
export function formatTargetNumber(value: number): string {
  const [whole, fraction] = Math.abs(value).toFixed(2).split('.');
  return `${value < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${fraction}`;
}

/** The number typed in the form: dots are thousands, a comma the decimals; null when it is not a number. */
export function parseTargetNumber(text: string): number | null {
  const plain = text.trim().replace(/\./g, '').replace(',', '.');
  if (!/^-?\d+(\.\d*)?$/.test(plain)) return null;
  return Math.round(Number(plain) * 100) / 100;
}

/** A new target's form: the spec's defaults, over the current month. */
export function emptyTargetForm(today: string): TargetForm {
  const month = today.slice(0, 7);
  const [year, monthNumber] = month.split('-').map(Number);
  const lastDay = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return {
    title: '',
    dataset: DEFAULT_EXPLORER_DATASET,
    metric: '',
    targetText: formatTargetNumber(0),
    dateStart: `${month}-01`,
    dateEnd: `${month}-${String(lastDay).padStart(2, '0')}`,
    visualization: 'line',
    filters: [],
  };
}

export const targetFormOf = (target: Target): TargetForm => ({
  title: target.title,
  dataset: target.dataset,
  metric: target.metric,
  targetText: formatTargetNumber(target.target),
  dateStart: target.dateStart,
  dateEnd: target.dateEnd,
  visualization: target.visualization,
  filters: target.filters,
});

/**
 * The form checked with the API's own rules (the contract's schema) plus what only the dataset knows: a
 * supported metric and filters on its fields. The body to save, or the issues by field.
 */
export function checkTargetForm(
  form: TargetForm,
  schema: DatasetSchema | undefined,
): { body: TargetBody; issues?: undefined } | { issues: TargetFormIssues; body?: undefined } {
  const issues: TargetFormIssues = {};
  const target = parseTargetNumber(form.targetText);
  const { targetText: _text, ...fields } = form;
  const parsed = targetBodySchema.safeParse({ ...fields, target: target ?? Number.NaN });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]) as keyof TargetFormIssues;
      issues[key] ??= issue.message;
    }
  }
  if (schema && form.metric && !schema.fields.some((field) => field.id === form.metric && isTargetMetric(field))) {
    issues.metric ??= 'Unsupported metric';
  }
  if (schema && validateFilters(schema, form.filters).some((issue) => Object.keys(issue).length > 0)) {
    issues.filters ??= 'Complete or remove the unfinished filters';
  }
  if (Object.keys(issues).length > 0 || !parsed.success) return { issues };
  return { body: parsed.data };
}
