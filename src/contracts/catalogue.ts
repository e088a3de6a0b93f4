import type { Agg, DatasetSchema, Field, FieldFeature, FieldFormat } from './datasets';

/**
 * The built-in datasets of every workspace, as shared/design/DATA-CATALOGUE.md fixes them. The generator
 * (server/datasets), the schema endpoint and the query engine all read this one description; field ids
 * are the contract and must not change.
 */
export type CatalogueDataset = DatasetSchema & {
  title: string;
  /**
   * false for datasets the engine reads but a user never picks as a report or alert source: the
   * engagement tables feed only the engagement page and its CSV download.
   */
  listed: boolean;
};

type FieldOptions = { shortName?: string; label?: string; features?: FieldFeature[] };

function dimension(id: string, name: string, category: string, format: FieldFormat, options: FieldOptions = {}): Field {
  return {
    id,
    name,
    shortName: options.shortName ?? name,
    label: options.label ?? name,
    category,
    format,
    type: 'dimension',
    features: options.features ?? [],
  };
}

function metric(
  id: string,
  name: string,
  category: string,
  format: FieldFormat,
  agg: Agg = { type: 'sum' },
  options: FieldOptions = {},
): Field {
  return {
    id,
    name,
    shortName: options.shortName ?? name,
    label: options.label ?? name,
    category,
    format,
    type: 'metric',
    agg,
    features: options.features ?? [],
  };
}

function ratio(numerator: string, denominator: string): Agg {
  return { type: 'weighted_avg', numerator, denominator };
}

const funnel: FieldOptions = { features: ['funnel'] };
const negative: FieldOptions = { features: ['negative_measure'] };
const baseline: FieldOptions = { features: ['baseline'] };
const negativeBaseline: FieldOptions = { features: ['baseline', 'negative_measure'] };
const hidden: FieldOptions = { features: ['hide'] };

const campaignDimensions: Field[] = [
  dimension('campaign_id', 'Campaign ID', 'Campaign', 'string', hidden),
  dimension('campaign_name', 'Campaign name', 'Campaign', 'string', {
    shortName: 'Campaign',
    features: ['explorer_default_field'],
  }),
  dimension('subject_line', 'Subject line', 'Campaign', 'string', { shortName: 'Subject' }),
  dimension('campaign_type', 'Campaign type', 'Campaign', 'string', { shortName: 'Type' }),
  dimension('list_name', 'List name', 'Audience', 'string', { shortName: 'List' }),
  dimension('integration_name', 'Integration', 'Source', 'string'),
  dimension('country', 'Country', 'Audience', 'country'),
  dimension('send_weekday', 'Send weekday', 'Date', 'weekday', { shortName: 'Weekday' }),
  dimension('send_month', 'Send month', 'Date', 'month', { shortName: 'Month' }),
  dimension('send_hour', 'Send hour', 'Date', 'number_text', { shortName: 'Hour' }),
  dimension('is_ab_test', 'A/B test', 'Campaign', 'boolean'),
  dimension('utm_campaign', 'UTM campaign', 'UTM', 'string'),
  dimension('utm_source', 'UTM source', 'UTM', 'string'),
  dimension('utm_medium', 'UTM medium', 'UTM', 'string'),
  dimension('webview_url', 'Web view URL', 'Campaign', 'url', { shortName: 'Web view' }),
];

const sendSideMetrics: Field[] = [
  metric('sent', 'Sent', 'Delivery', 'number', undefined, funnel),
  metric('sent_unique', 'Sent (unique)', 'Delivery', 'number', undefined, funnel),
  metric('delivered', 'Delivered', 'Delivery', 'number', undefined, funnel),
  metric('bounces', 'Bounces', 'Delivery', 'number', undefined, negative),
  metric('hard_bounces', 'Hard bounces', 'Delivery', 'number', undefined, negative),
  metric('soft_bounces', 'Soft bounces', 'Delivery', 'number', undefined, negative),
];

const engagementMetrics: Field[] = [
  metric('open', 'Unique opens', 'Engagement', 'number', undefined, { shortName: 'Opens (unique)', ...funnel }),
  metric('opens', 'Total opens', 'Engagement', 'number', undefined, { shortName: 'Opens', ...funnel }),
  metric('clicks_unique', 'Unique clicks', 'Engagement', 'number', undefined, {
    shortName: 'Clicks (unique)',
    ...funnel,
  }),
  metric('clicks', 'Total clicks', 'Engagement', 'number', undefined, { shortName: 'Clicks' }),
  metric('unsubscribes', 'Unsubscribes', 'Engagement', 'number', undefined, negative),
  metric('complaints', 'Complaints', 'Engagement', 'number', undefined, negative),
  metric('sessions', 'Sessions', 'Conversion', 'number'),
  metric('transactions', 'Transactions', 'Conversion', 'number', undefined, funnel),
  metric('revenue', 'Revenue', 'Conversion', 'currency'),
  metric('campaigns', 'Campaigns', 'Campaign', 'number', { type: 'count_distinct', field: 'campaign_id' }),
];

const campaignRates: Field[] = [
  metric('delivery_rate', 'Delivery rate', 'Delivery', 'percent', ratio('delivered', 'sent'), baseline),
  metric('bounce_rate', 'Bounce rate', 'Delivery', 'percent', ratio('bounces', 'sent'), negativeBaseline),
  metric('open_rate', 'Open rate', 'Engagement', 'percent', ratio('open', 'delivered'), baseline),
  metric('click_rate', 'Click rate', 'Engagement', 'percent', ratio('clicks_unique', 'delivered'), baseline),
  metric('click_to_open_rate', 'Click-to-open rate', 'Engagement', 'percent', ratio('clicks', 'opens'), {
    shortName: 'CTO rate',
    ...baseline,
  }),
  metric('cto_unique', 'Click-to-open rate (unique)', 'Engagement', 'percent', ratio('clicks_unique', 'open'), {
    shortName: 'CTO (unique)',
    ...baseline,
  }),
  metric(
    'unsubscribe_rate',
    'Unsubscribe rate',
    'Engagement',
    'percent',
    ratio('unsubscribes', 'delivered'),
    negativeBaseline,
  ),
  metric('conversion_rate', 'Conversion rate', 'Conversion', 'percent', ratio('transactions', 'sessions'), baseline),
  metric('revenue_per_email', 'Revenue per e-mail', 'Conversion', 'currency', ratio('revenue', 'delivered')),
  metric('average_order_value', 'Average order value', 'Conversion', 'currency', ratio('revenue', 'transactions'), {
    shortName: 'AOV',
  }),
];

const campaignMetrics: Field[] = [...sendSideMetrics, ...engagementMetrics, ...campaignRates];

/** The five engagement segments, in display and colour-slot order. */
export const engagementSegments = [
  { id: 'new', name: 'New' },
  { id: 'highly_engaged', name: 'Highly engaged' },
  { id: 'engaged', name: 'Engaged' },
  { id: 'at_risk', name: 'At risk' },
  { id: 'inactive', name: 'Inactive' },
] as const;
export type EngagementSegmentId = (typeof engagementSegments)[number]['id'];

export const catalogue: readonly CatalogueDataset[] = [
  {
    id: 'campaign_metrics_by_send_date',
    tableId: 'campaign_metrics_by_send_date',
    title: 'Campaigns by send date',
    listed: true,
    dateField: 'send_date',
    fields: [dimension('send_date', 'Send date', 'Date', 'date'), ...campaignDimensions, ...campaignMetrics],
  },
  {
    // Opens, clicks and conversions trickle in over the days after a send; send-side counts sit on the send day.
    id: 'campaign_metrics_by_event_date',
    tableId: 'campaign_metrics_by_event_date',
    title: 'Campaigns by event date',
    listed: true,
    dateField: 'event_date',
    fields: [
      dimension('event_date', 'Event date', 'Date', 'date'),
      dimension('send_date', 'Send date', 'Date', 'date'),
      ...campaignDimensions,
      ...campaignMetrics,
    ],
  },
  {
    id: 'list_members',
    tableId: 'list_members',
    title: 'List members',
    listed: true,
    dateField: 'date',
    fields: [
      dimension('date', 'Date', 'Date', 'date'),
      dimension('list_id', 'List ID', 'Audience', 'string', hidden),
      dimension('list_name', 'List name', 'Audience', 'string', {
        shortName: 'List',
        features: ['explorer_default_field'],
      }),
      dimension('integration_name', 'Integration', 'Source', 'string'),
      // A snapshot: over a period it is the value on the period's last day, never a sum over days.
      metric('members', 'Members', 'Audience', 'number', undefined, { features: ['gauge'] }),
      metric('members_in', 'Members in', 'Audience', 'number'),
      metric('members_out', 'Members out', 'Audience', 'number', undefined, negative),
      metric('members_delta', 'Members change', 'Audience', 'number', undefined, { shortName: 'Change' }),
    ],
  },
  {
    id: 'ga4',
    tableId: 'ga4',
    title: 'Google Analytics 4',
    listed: true,
    dateField: 'date',
    fields: [
      dimension('date', 'Date', 'Date', 'date'),
      dimension('session_source', 'Session source', 'Traffic', 'string', {
        shortName: 'Source',
        features: ['explorer_default_field'],
      }),
      dimension('session_medium', 'Session medium', 'Traffic', 'string', { shortName: 'Medium' }),
      dimension('session_campaign', 'Session campaign', 'Traffic', 'string', { shortName: 'Campaign' }),
      dimension('device_category', 'Device category', 'Audience', 'string', { shortName: 'Device' }),
      dimension('country', 'Country', 'Audience', 'country'),
      dimension('landing_page', 'Landing page', 'Traffic', 'url'),
      metric('sessions', 'Sessions', 'Traffic', 'number', undefined, funnel),
      metric('total_users', 'Total users', 'Audience', 'number', undefined, { shortName: 'Users' }),
      metric('new_users', 'New users', 'Audience', 'number'),
      metric('engaged_sessions', 'Engaged sessions', 'Traffic', 'number', undefined, funnel),
      metric('transactions', 'Transactions', 'Conversion', 'number', undefined, funnel),
      metric('purchase_revenue', 'Purchase revenue', 'Conversion', 'currency', undefined, { shortName: 'Revenue' }),
      metric(
        'engagement_rate',
        'Engagement rate',
        'Traffic',
        'percent',
        ratio('engaged_sessions', 'sessions'),
        baseline,
      ),
      metric(
        'conversion_rate',
        'Conversion rate',
        'Conversion',
        'percent',
        ratio('transactions', 'sessions'),
        baseline,
      ),
    ],
  },
  {
    // One row per customer within day × channel × product category × country × customer type, so that
    // `customers` can count distinct customers over any grouping.
    id: 'ecommerce',
    tableId: 'ecommerce',
    title: 'E-commerce',
    listed: true,
    dateField: 'order_date',
    fields: [
      dimension('order_date', 'Order date', 'Date', 'date'),
      dimension('channel', 'Channel', 'Source', 'string', { features: ['explorer_default_field'] }),
      dimension('product_category', 'Product category', 'Product', 'string', { shortName: 'Category' }),
      dimension('country', 'Country', 'Audience', 'country'),
      dimension('customer_type', 'Customer type', 'Audience', 'string'),
      dimension('customer_id', 'Customer ID', 'Audience', 'string', hidden),
      metric('orders', 'Orders', 'Sales', 'number', undefined, funnel),
      metric('revenue', 'Revenue', 'Sales', 'currency'),
      metric('items', 'Items', 'Sales', 'number'),
      metric('customers', 'Customers', 'Audience', 'number', { type: 'count_distinct', field: 'customer_id' }),
      metric('average_order_value', 'Average order value', 'Sales', 'currency', ratio('revenue', 'orders'), {
        shortName: 'AOV',
        ...baseline,
      }),
    ],
  },
  {
    id: 'forms',
    tableId: 'forms',
    title: 'Forms',
    listed: true,
    dateField: 'date',
    fields: [
      dimension('date', 'Date', 'Date', 'date'),
      dimension('form_name', 'Form name', 'Form', 'string', {
        shortName: 'Form',
        features: ['explorer_default_field'],
      }),
      dimension('form_type', 'Form type', 'Form', 'string', { shortName: 'Type' }),
      dimension('source', 'Source', 'Source', 'string'),
      metric('views', 'Views', 'Form', 'number', undefined, funnel),
      metric('submissions', 'Submissions', 'Form', 'number', undefined, funnel),
      metric('conversion_rate', 'Conversion rate', 'Form', 'percent', ratio('submissions', 'views'), baseline),
    ],
  },
  {
    id: 'squeezely',
    tableId: 'squeezely',
    title: 'Squeezely',
    listed: true,
    dateField: 'date',
    fields: [
      dimension('date', 'Date', 'Date', 'date'),
      dimension('campaign_name', 'Campaign name', 'Campaign', 'string', {
        shortName: 'Campaign',
        features: ['explorer_default_field'],
      }),
      dimension('channel', 'Channel', 'Source', 'string'),
      dimension('segment', 'Segment', 'Audience', 'string'),
      metric('impressions', 'Impressions', 'Engagement', 'number', undefined, funnel),
      metric('clicks', 'Clicks', 'Engagement', 'number', undefined, funnel),
      metric('conversions', 'Conversions', 'Conversion', 'number', undefined, funnel),
      metric('revenue', 'Revenue', 'Conversion', 'currency'),
      metric('ctr', 'Click-through rate', 'Engagement', 'percent', ratio('clicks', 'impressions'), {
        shortName: 'CTR',
        ...baseline,
      }),
    ],
  },
  {
    id: 'bloomreach',
    tableId: 'bloomreach',
    title: 'Bloomreach',
    listed: true,
    dateField: 'send_date',
    fields: [
      dimension('send_date', 'Send date', 'Date', 'date'),
      dimension('campaign_name', 'Campaign name', 'Campaign', 'string', {
        shortName: 'Campaign',
        features: ['explorer_default_field'],
      }),
      dimension('channel', 'Channel', 'Source', 'string'),
      dimension('country', 'Country', 'Audience', 'country'),
      metric('sent', 'Sent', 'Delivery', 'number', undefined, funnel),
      metric('delivered', 'Delivered', 'Delivery', 'number', undefined, funnel),
      metric('open', 'Unique opens', 'Engagement', 'number', undefined, { shortName: 'Opens (unique)', ...funnel }),
      metric('clicks_unique', 'Unique clicks', 'Engagement', 'number', undefined, {
        shortName: 'Clicks (unique)',
        ...funnel,
      }),
      metric('transactions', 'Transactions', 'Conversion', 'number', undefined, funnel),
      metric('revenue', 'Revenue', 'Conversion', 'currency'),
      metric('open_rate', 'Open rate', 'Engagement', 'percent', ratio('open', 'delivered'), baseline),
      metric('click_rate', 'Click rate', 'Engagement', 'percent', ratio('clicks_unique', 'delivered'), baseline),
    ],
  },
  {
    // For agency licences: the campaign totals of every workspace of the licence, one row per workspace and day.
    id: 'workspaces',
    tableId: 'workspaces',
    title: 'Workspaces',
    listed: true,
    dateField: 'date',
    fields: [
      dimension('date', 'Date', 'Date', 'date'),
      dimension('workspace_id', 'Workspace ID', 'Workspace', 'string', hidden),
      dimension('workspace_name', 'Workspace', 'Workspace', 'string', { features: ['explorer_default_field'] }),
      ...campaignMetrics.filter((field) => field.id !== 'campaigns'),
    ],
  },
  {
    id: 'mailchimp_archive',
    tableId: 'mailchimp_archive',
    title: 'Mailchimp archive',
    listed: true,
    dateField: 'send_date',
    fields: [
      dimension('send_date', 'Send date', 'Date', 'date'),
      dimension('campaign_name', 'Campaign name', 'Campaign', 'string', {
        shortName: 'Campaign',
        features: ['explorer_default_field'],
      }),
      dimension('list_name', 'List name', 'Audience', 'string', { shortName: 'List' }),
      metric('sent', 'Sent', 'Delivery', 'number', undefined, funnel),
      metric('open', 'Unique opens', 'Engagement', 'number', undefined, { shortName: 'Opens (unique)', ...funnel }),
      metric('clicks_unique', 'Unique clicks', 'Engagement', 'number', undefined, {
        shortName: 'Clicks (unique)',
        ...funnel,
      }),
      metric('unsubscribes', 'Unsubscribes', 'Engagement', 'number', undefined, negative),
      // No delivered count in the archive: its rates are over sent.
      metric('open_rate', 'Open rate', 'Engagement', 'percent', ratio('open', 'sent'), baseline),
      metric('click_rate', 'Click rate', 'Engagement', 'percent', ratio('clicks_unique', 'sent'), baseline),
    ],
  },
  {
    // Listed so the alert form can offer it (spec 3 allowed alert datasets); the catalogue marks it alerts only.
    id: 'website_metrics_ga_api',
    tableId: 'website_metrics_ga_api',
    title: 'Website metrics (Google Analytics)',
    listed: true,
    dateField: 'date',
    fields: [
      dimension('date', 'Date', 'Date', 'date'),
      dimension('source', 'Source', 'Traffic', 'string', { features: ['explorer_default_field'] }),
      dimension('medium', 'Medium', 'Traffic', 'string'),
      dimension('campaign', 'Campaign', 'Traffic', 'string'),
      metric('sessions', 'Sessions', 'Traffic', 'number', undefined, funnel),
      metric('pageviews', 'Pageviews', 'Traffic', 'number'),
      metric('transactions', 'Transactions', 'Conversion', 'number', undefined, funnel),
      metric('revenue', 'Revenue', 'Conversion', 'currency'),
      metric('bounces', 'Bounces', 'Traffic', 'number', undefined, negative),
      metric('bounce_rate', 'Bounce rate', 'Traffic', 'percent', ratio('bounces', 'sessions'), negativeBaseline),
    ],
  },
  {
    // The engagement page's rows (spec 3 §3 engagement row): one per integration × month × segment. Flows are
    // columns, one per previous segment (inflow_from_*) and per next segment (outflow_to_*), plus inflow_new
    // for contacts that were not in any segment the month before. Not a report dataset.
    id: 'engagement_segments',
    tableId: 'engagement_segments',
    title: 'Engagement segments',
    listed: false,
    dateField: 'date',
    fields: [
      dimension('date', 'Month', 'Date', 'date'),
      dimension('integration_id', 'Integration ID', 'Source', 'string', hidden),
      dimension('integration_name', 'Integration', 'Source', 'string'),
      dimension('segment_id', 'Segment ID', 'Segment', 'string', hidden),
      dimension('segment_name', 'Segment', 'Segment', 'string'),
      metric('size', 'Size', 'Segment', 'number', undefined, { features: ['gauge'] }),
      metric(
        'days_since_last_click',
        'Days since last click',
        'Segment',
        'number',
        ratio('days_since_last_click_total', 'size'),
      ),
      metric('days_since_last_click_total', 'Days since last click (total)', 'Segment', 'number', undefined, hidden),
      metric('click_total', 'Clicks', 'Segment', 'number'),
      metric('send_total', 'Sends', 'Segment', 'number'),
      metric('click_rate', 'Click rate', 'Segment', 'percent', ratio('click_total', 'send_total')),
      ...engagementSegments.map((segment) =>
        metric(`inflow_from_${segment.id}`, `Inflow from ${segment.name}`, 'Flow', 'number'),
      ),
      metric('inflow_new', 'Inflow of new contacts', 'Flow', 'number'),
      ...engagementSegments.map((segment) =>
        metric(`outflow_to_${segment.id}`, `Outflow to ${segment.name}`, 'Flow', 'number'),
      ),
      metric('outflow_gone', 'Outflow of leaving contacts', 'Flow', 'number'),
    ],
  },
  {
    // One row per contact × integration × month with its segment, so the browser's query engine builds the
    // engagement CSV download (one segment or all) itself. Not a report dataset.
    id: 'engagement_contacts',
    tableId: 'engagement_contacts',
    title: 'Engagement contacts',
    listed: false,
    dateField: 'month',
    fields: [
      dimension('month', 'Month', 'Date', 'date'),
      dimension('contact_id', 'Contact ID', 'Contact', 'string'),
      dimension('integration_id', 'Integration ID', 'Source', 'string', hidden),
      dimension('segment_id', 'Segment ID', 'Segment', 'string'),
      metric('contacts', 'Contacts', 'Contact', 'number', { type: 'count_distinct', field: 'contact_id' }),
    ],
  },
];

const byId = new Map(catalogue.map((dataset) => [dataset.id, dataset]));

export function getCatalogueDataset(id: string): CatalogueDataset | undefined {
  return byId.get(id);
}

/** The schema as the API answers it (the catalogue's own bookkeeping left out). */
export function toDatasetSchema(dataset: CatalogueDataset): DatasetSchema {
  return { id: dataset.id, tableId: dataset.tableId, dateField: dataset.dateField, fields: dataset.fields };
}
