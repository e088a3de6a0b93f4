import { never, sized, type WidgetDefinition } from '../definition';
import { TargetWidget } from './TargetWidget';

export const targetWidget: WidgetDefinition = {
  label: 'Target',
  icon: 'locate',
  // Not offered until the targets feature draws them.
  inPalette: never,
  defaults: { targets: [], visualizationSettings: { display: { type: 'line' } } },
  size: sized(5, 9),
  // The configure drawer shows only the title until targets can be set.
  dataset: 'none',
  queries: [],
  View: TargetWidget,
};
