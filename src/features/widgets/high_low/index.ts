import { DEFAULT_EXPLORER_DATASET } from '../../../contracts/reports';
import { always, sized, type WidgetDefinition } from '../definition';
import { HighLowSettings } from './HighLowSettings';
import { HighLowWidget } from './HighLowWidget';

export const highLowWidget: WidgetDefinition = {
  label: 'High & low',
  icon: 'swap-vertical',
  inPalette: always,
  defaults: { dataset: DEFAULT_EXPLORER_DATASET, metrics: [] },
  size: sized(24, 9),
  dataset: 'choice',
  Settings: HighLowSettings,
  queries: ['highLow'],
  View: HighLowWidget,
};
