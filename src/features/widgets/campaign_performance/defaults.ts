import { sized, type DisplayChoice } from '../definition';

/** The kind's label, which the KPI drawer also shows for an untitled widget. */
export const KPI_OVERVIEW_LABEL = 'KPI overview';

/** The KPI overview's metrics until the user picks some (spec 2 §9). */
export const KPI_DEFAULT_METRICS = [
  'sent_unique',
  'sent',
  'open_rate',
  'click_to_open_rate',
  'cto_unique',
  'sessions',
  'revenue',
];

/** Tabs, a grid or cards (spec 2 §3), each with its own default size (spec 2 §9). */
export const kpiDisplays: readonly [
  DisplayChoice<'tab' | 'grid' | 'card'>,
  ...DisplayChoice<'tab' | 'grid' | 'card'>[],
] = [
  { value: 'tab', label: 'Tabs', size: sized(24, 17) },
  { value: 'grid', label: 'Grid', size: sized(6, 12) },
  { value: 'card', label: 'Cards', size: sized(6, 4) },
];
