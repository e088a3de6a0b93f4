import { type IconName } from '@blueprintjs/icons';

/** The widget kinds of a dashboard (spec 2 §2 Widgets). */
export const widgetTypes = [
  'campaign_performance',
  'graph',
  'funnel',
  'table',
  'high_low',
  'subscriber_growth',
  'target',
  'list',
  'rich_text',
] as const;
export type WidgetType = (typeof widgetTypes)[number];

export const isWidgetType = (type: string): type is WidgetType => widgetTypes.includes(type as WidgetType);

export interface WidgetMeta {
  label: string;
  icon: IconName;
}

export const widgetMeta: Record<WidgetType, WidgetMeta> = {
  campaign_performance: { label: 'KPI overview', icon: 'grid-view' },
  graph: { label: 'Graph', icon: 'timeline-line-chart' },
  funnel: { label: 'Funnel', icon: 'filter' },
  table: { label: 'Table', icon: 'th' },
  high_low: { label: 'High & low', icon: 'swap-vertical' },
  subscriber_growth: { label: 'Subscriber growth', icon: 'people' },
  target: { label: 'Target', icon: 'locate' },
  list: { label: 'List', icon: 'properties' },
  rich_text: { label: 'Text', icon: 'new-text-box' },
};

/** A type's label, or the raw type capitalised for kinds this version does not know. */
export function widgetLabel(type: string): string {
  return isWidgetType(type) ? widgetMeta[type].label : type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, ' ');
}

/**
 * What the palette offers (spec 2 §2): every kind but graph, list and rich_text, and subscriber growth
 * only when the workspace has the list_members feature.
 */
export function paletteTypes(flags: readonly string[]): WidgetType[] {
  return widgetTypes.filter(
    (type) =>
      type !== 'graph' &&
      type !== 'list' &&
      type !== 'rich_text' &&
      (type !== 'subscriber_growth' || flags.includes('list_members')),
  );
}

/** Widget metric defaults (spec 2 §9). */
export const FUNNEL_DEFAULT_METRICS = [
  'sent_unique',
  'sent',
  'delivered',
  'open',
  'opens',
  'clicks_unique',
  'transactions',
];
export const DEFAULT_CONVERSION_METRIC = 'transactions';
export const KPI_DEFAULT_METRICS = [
  'sent_unique',
  'sent',
  'open_rate',
  'click_to_open_rate',
  'cto_unique',
  'sessions',
  'revenue',
];
export const TABLE_DEFAULT_METRICS = ['sent_unique', 'sent', 'open', 'opens', 'clicks_unique', 'transactions'];
/** List widget limits (spec 2 §5); null shows every value. */
export const LIST_LIMITS = [5, 10, 25, null] as const;
/** The list_members fields the subscriber growth widget reads (spec 2 §3 Subscriber list data). */
export const LIST_FIELD = 'list_name';
export const LIST_METRICS = ['members', 'members_in', 'members_out', 'members_delta'] as const;
