import { DEFAULT_EXPLORER_DATASET } from '../../../contracts/reports';
import { never, sized, type WidgetDefinition } from '../definition';
import { stackedRatiosGrouped } from './cleanup';
import { GraphSettings } from './GraphSettings';
import { GraphWidget } from './GraphWidget';

export const graphWidget: WidgetDefinition = {
  label: 'Graph',
  icon: 'timeline-line-chart',
  inPalette: never,
  defaults: {
    dataset: DEFAULT_EXPLORER_DATASET,
    metrics: [],
    visualizationSettings: { chart: { chartType: 'line', granularity: 'auto', autoScaleYAxis: true } },
  },
  size: sized(6, 26),
  dataset: 'choice',
  Settings: GraphSettings,
  queries: ['timeSeries', 'timeSeriesByDimension'],
  cleanup: stackedRatiosGrouped,
  View: GraphWidget,
};
