import { DEFAULT_EXPLORER_DATASET } from '../../../contracts/reports';
import { never, sized, type WidgetDefinition } from '../definition';
import { ListSettings } from './ListSettings';
import { ListWidget } from './ListWidget';

export const listWidget: WidgetDefinition = {
  label: 'List',
  icon: 'properties',
  inPalette: never,
  defaults: {
    dataset: DEFAULT_EXPLORER_DATASET,
    metrics: [],
    limit: 10,
    visualizationSettings: { display: { orderBy: 'currentPeriod', order: 'desc' } },
  },
  size: sized(12, 12),
  dataset: 'choice',
  Settings: ListSettings,
  queries: ['tableCompare'],
  View: ListWidget,
};
