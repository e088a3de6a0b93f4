import { getCatalogueDataset } from '../../contracts/catalogue';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type SelectOption } from './MultiSelect';

/** The datasets a widget may read (spec 2 §1); subscriber growth reads list_members. */
export const widgetDatasets = [
  'campaign_metrics_by_send_date',
  'campaign_metrics_by_event_date',
  'ga4',
  'squeezely',
  'ecommerce',
  'workspaces',
  'mailchimp_archive',
  'forms',
  'bloomreach',
] as const;

export const datasetTitle = (id: string) => getCatalogueDataset(id)?.title ?? id;

export const fieldText = (field: Field) => field.label ?? field.name;

const option = (field: Field): SelectOption => ({ value: field.id, label: fieldText(field), group: field.category });

/** Listed by category, so fields of one category sit together under its heading. */
const byCategory = (fields: Field[]) =>
  [...fields].sort((a, b) => a.category.localeCompare(b.category) || fieldText(a).localeCompare(fieldText(b)));

const visible = (field: Field) => !field.features.includes('hide');

/** The metrics a picker offers: every metric of the dataset but hidden ones. */
export const metricOptions = (schema: DatasetSchema): SelectOption[] =>
  byCategory(schema.fields.filter((field) => field.type === 'metric' && visible(field))).map(option);

/** The dimensions a picker offers: visible dimensions other than dates (those are the date field's). */
export const dimensionOptions = (schema: DatasetSchema): SelectOption[] =>
  byCategory(
    schema.fields.filter((field) => field.type === 'dimension' && visible(field) && field.format !== 'date'),
  ).map(option);

/** The date fields a widget can count its dates by. */
export const dateFieldOptions = (schema: DatasetSchema): SelectOption[] =>
  schema.fields.filter((field) => field.type === 'dimension' && field.format === 'date').map(option);
