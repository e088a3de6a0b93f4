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

/**
 * Spec 3 "Filter inputs": field pickers leave out hidden fields and URL fields (a link is not something to group
 * or sum by); dimension pickers leave out the UTM category; measure pickers leave out gauges (snapshots such as
 * members on a day, which subscriber growth draws itself).
 */
const pickable = (field: Field) => !field.features.includes('hide') && field.format !== 'url';
export const UTM_CATEGORY = 'UTM';

/** The metrics a picker offers. */
export const metricOptions = (schema: DatasetSchema): SelectOption[] =>
  byCategory(
    schema.fields.filter((field) => field.type === 'metric' && pickable(field) && !field.features.includes('gauge')),
  ).map(option);

/** The dimensions a picker offers: not dates (those are the date field's), not UTM fields. */
export const dimensionOptions = (schema: DatasetSchema): SelectOption[] =>
  byCategory(
    schema.fields.filter(
      (field) =>
        field.type === 'dimension' && pickable(field) && field.format !== 'date' && field.category !== UTM_CATEGORY,
    ),
  ).map(option);

/** The date fields a widget can count its dates by. */
export const dateFieldOptions = (schema: DatasetSchema): SelectOption[] =>
  schema.fields.filter((field) => field.type === 'dimension' && field.format === 'date').map(option);
