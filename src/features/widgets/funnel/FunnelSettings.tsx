import { FormGroup } from '@blueprintjs/core';
import { fieldChoices, known, Select } from '../../widget-config/fields';
import { MultiSelect } from '../../widget-config/MultiSelect';
import { metricOptions } from '../../widget-config/settingsOptions';
import { conversionMetricChanged, funnelDirectionChanged, funnelMetricsChanged } from '../../widget-config/widgetEdits';
import { type SettingsPanelProps } from '../definition';
import { DEFAULT_CONVERSION_METRIC, FUNNEL_DEFAULT_METRICS, funnelDirections } from './defaults';

export function FunnelSettings({ widget, schema, onEdit }: SettingsPanelProps) {
  const options = metricOptions(schema);
  const conversion = widget.conversionMetric ?? DEFAULT_CONVERSION_METRIC;
  return (
    <>
      <FormGroup label="Funnel metrics">
        <MultiSelect
          label="Funnel metrics"
          options={options}
          values={known(widget.funnelMetrics ?? widget.metrics ?? FUNNEL_DEFAULT_METRICS, options)}
          onChange={(values) => onEdit(funnelMetricsChanged(values))}
          minValues={1}
          placeholder="Select metrics"
        />
      </FormGroup>
      <Select
        label="Conversion metric"
        value={options.some((option) => option.value === conversion) ? conversion : ''}
        choices={fieldChoices(options)}
        placeholder="Select a metric"
        onChange={(value) => onEdit(conversionMetricChanged(value))}
      />
      <Select
        label="Direction"
        value={widget.visualizationSettings?.funnel?.direction ?? funnelDirections[0].value}
        choices={funnelDirections}
        onChange={(value) => onEdit(funnelDirectionChanged(value))}
      />
    </>
  );
}
