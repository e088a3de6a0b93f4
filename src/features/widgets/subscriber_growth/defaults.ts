import { sized, type DisplayChoice } from '../definition';

/** Tabs or cards (spec 2 §3), each with its own default size (spec 2 §9). */
export const subscriberGrowthDisplays: readonly [DisplayChoice<'tab' | 'card'>, ...DisplayChoice<'tab' | 'card'>[]] = [
  { value: 'tab', label: 'Tabs', size: sized(24, 18) },
  { value: 'card', label: 'Cards', size: sized(6, 18) },
];

/** The list_members fields the widget reads (spec 2 §3 Subscriber list data); the server reads them too (public links). */
export const LIST_FIELD = 'list_name';
export const LIST_METRICS = ['members', 'members_in', 'members_out', 'members_delta'] as const;
