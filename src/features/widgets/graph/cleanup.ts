import { type DatasetSchema } from '../../../contracts/datasets';
import { type Widget } from '../../../contracts/reports';
import { isWeightedAverage } from '../graphModel';
import { fieldsOf } from '../widgetQuery';

/** Stacked bars turn grouped when any metric is a weighted average: ratios do not add up (spec 2 §4). */
export function stackedRatiosGrouped(widget: Widget, schema: DatasetSchema): Widget {
  const chart = widget.visualizationSettings?.chart;
  if (chart?.groupMode !== 'stacked' || !fieldsOf(schema, widget.metrics, 'metric').some(isWeightedAverage)) {
    return widget;
  }
  return {
    ...widget,
    visualizationSettings: { ...widget.visualizationSettings, chart: { ...chart, groupMode: 'grouped' } },
  };
}
