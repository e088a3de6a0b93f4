import { always, sized, type WidgetDefinition } from '../definition';
import { TargetSettings } from './TargetSettings';
import { TargetWidget } from './TargetWidget';

export const targetWidget: WidgetDefinition = {
  label: 'Target',
  icon: 'locate',
  inPalette: always,
  defaults: { targets: [], visualizationSettings: { display: { type: 'line' } } },
  size: sized(5, 9),
  // Targets carry their own dataset, metric, period and filters: the widget picks targets, not a dataset.
  dataset: 'none',
  Settings: TargetSettings,
  queries: ['targetProgress', 'targetHistory'],
  // A dropped Target tile asks for its first target straight away.
  drawerOnAdd: 'target',
  View: TargetWidget,
};
