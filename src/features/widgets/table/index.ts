import { DEFAULT_EXPLORER_DATASET } from '../../../contracts/reports';
import { always, sized, type WidgetDefinition } from '../definition';
import { TABLE_DEFAULT_METRICS } from './defaults';
import { TableSettings } from './TableSettings';
import { TableWidget } from './TableWidget';

export const tableWidget: WidgetDefinition = {
  label: 'Table',
  icon: 'th',
  inPalette: always,
  defaults: { dataset: DEFAULT_EXPLORER_DATASET, metrics: TABLE_DEFAULT_METRICS, dimensions: [] },
  size: sized(24, 22),
  dataset: 'choice',
  Settings: TableSettings,
  queries: ['tableCompare'],
  View: TableWidget,
};
