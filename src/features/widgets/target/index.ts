import { always, sized, type WidgetDefinition } from '../definition';
import { TargetWidget } from './TargetWidget';

export const targetWidget: WidgetDefinition = {
  label: 'Target',
  icon: 'locate',
  inPalette: always,
  defaults: { targets: [], visualizationSettings: { display: { type: 'line' } } },
  size: sized(5, 9),
  // Targets carry their own dataset, metric, period and filters: the configure drawer shows only the title.
  dataset: 'none',
  queries: ['targetProgress', 'targetHistory'],
  // A dropped Target tile asks for its first target straight away.
  drawerOnAdd: 'target',
  View: TargetWidget,
};
