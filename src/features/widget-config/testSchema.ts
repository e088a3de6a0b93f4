import { type DatasetSchema, type Field } from '../../contracts/datasets';

const dimension = (id: string, format: Field['format'] = 'string', features: Field['features'] = []): Field => ({
  id,
  name: id,
  label: `${id} label`,
  category: 'Campaign',
  format,
  type: 'dimension',
  features,
});
const metric = (id: string, agg: Field['agg'] = { type: 'sum' }, features: Field['features'] = []): Field => ({
  id,
  name: id,
  label: `${id} label`,
  category: 'Performance',
  format: 'number',
  type: 'metric',
  agg,
  features,
});

/** A small send-date-like dataset for the configuration rules' tests. */
export const sendSchema: DatasetSchema = {
  id: 'campaign_metrics_by_send_date',
  tableId: 'campaign_metrics_by_send_date',
  dateField: 'send_date',
  fields: [
    dimension('send_date', 'date'),
    dimension('created_date', 'date'),
    dimension('campaign_name'),
    dimension('country', 'country'),
    dimension('send_weekday', 'weekday'),
    dimension('landing_url', 'url'),
    dimension('internal_id', 'string', ['hide']),
    dimension('segment', 'string', ['no_set_filter']),
    metric('sent'),
    metric('open'),
    metric('delivered'),
    metric('transactions'),
    metric('open_rate', { type: 'weighted_avg', numerator: 'open', denominator: 'delivered' }),
    metric('secret_metric', { type: 'sum' }, ['hide']),
  ],
};

/** Another dataset with other fields, for dataset switches. */
export const ga4Schema: DatasetSchema = {
  id: 'ga4',
  tableId: 'ga4',
  dateField: 'date',
  fields: [dimension('date', 'date'), dimension('country', 'country'), metric('sessions'), metric('revenue')],
};
