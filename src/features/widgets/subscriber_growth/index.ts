import { type WidgetDefinition } from '../definition';
import { subscriberGrowthDisplays } from './defaults';
import { SubscriberGrowthSettings } from './SubscriberGrowthSettings';
import { SubscriberGrowthWidget } from './SubscriberGrowthWidget';

export const subscriberGrowthWidget: WidgetDefinition = {
  label: 'Subscriber growth',
  icon: 'people',
  // It reads the list members, which only workspaces with that feature have (spec 2 §2).
  inPalette: (flags) => flags.includes('list_members'),
  defaults: { dataset: 'list_members', filteredLists: [], visualizationSettings: { display: { type: 'tab' } } },
  displays: subscriberGrowthDisplays,
  dataset: 'fixed',
  Settings: SubscriberGrowthSettings,
  queries: ['subscriberGrowth', 'distinctValues'],
  View: SubscriberGrowthWidget,
};
