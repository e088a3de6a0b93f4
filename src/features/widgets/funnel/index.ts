import { DEFAULT_EXPLORER_DATASET } from '../../../contracts/reports';
import { always, type WidgetDefinition } from '../definition';
import { DEFAULT_CONVERSION_METRIC, FUNNEL_DEFAULT_METRICS, funnelDirections } from './defaults';
import { FunnelSettings } from './FunnelSettings';
import { FunnelWidget } from './FunnelWidget';

export const funnelWidget: WidgetDefinition = {
  label: 'Funnel',
  icon: 'filter',
  inPalette: always,
  defaults: {
    dataset: DEFAULT_EXPLORER_DATASET,
    metrics: FUNNEL_DEFAULT_METRICS,
    conversionMetric: DEFAULT_CONVERSION_METRIC,
    visualizationSettings: { funnel: { direction: 'horizontal' } },
  },
  displays: funnelDirections,
  displayOf: (widget) => widget.visualizationSettings?.funnel?.direction,
  dataset: 'choice',
  Settings: FunnelSettings,
  queries: ['funnel'],
  View: FunnelWidget,
};
