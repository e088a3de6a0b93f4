import { sized, type DisplayChoice } from '../definition';

/** The funnel's steps and conversion metric until the user picks some (spec 2 §9). */
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

/** A funnel is drawn by its direction, and sized by it (spec 2 §9). */
export const funnelDirections: readonly [
  DisplayChoice<'horizontal' | 'vertical'>,
  ...DisplayChoice<'horizontal' | 'vertical'>[],
] = [
  { value: 'horizontal', label: 'Horizontal', size: sized(12, 11) },
  { value: 'vertical', label: 'Vertical', size: sized(10, 16) },
];
