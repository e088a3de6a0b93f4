import { Button, FormGroup, HTMLSelect, Switch } from '@blueprintjs/core';
import { capitalised, type FieldProps, fieldChoices, MetricsPicker, Select } from '../../widget-config/fields';
import { dimensionOptions, metricOptions } from '../../widget-config/settingsOptions';
import { chartChanged, maxYAxisScaleChanged, metricsByDimensionsChanged } from '../../widget-config/widgetEdits';
import { type SettingsPanelProps } from '../definition';
import { isWeightedAverage } from '../graphModel';
import { fieldsOf } from '../widgetQuery';

/** Metric-by-dimension charts of a graph: each pair draws the metric split by the dimension's values. */
function PairsEditor({ widget, schema, onEdit }: FieldProps) {
  const metrics = fieldChoices(metricOptions(schema));
  const dimensions = fieldChoices(dimensionOptions(schema));
  const pairs = widget.metricsByDimensions ?? [];
  const update = (index: number, patch: Partial<(typeof pairs)[number]>) =>
    onEdit(metricsByDimensionsChanged(pairs.map((pair, i) => (i === index ? { ...pair, ...patch } : pair))));
  return (
    <FormGroup label="Metrics by dimension">
      {pairs.map((pair, index) => (
        <div key={index} className="or-widget-config-pair" role="group" aria-label="Metric by dimension">
          <HTMLSelect
            aria-label="Metric"
            value={pair.metric}
            options={metrics}
            onChange={(event) => update(index, { metric: event.currentTarget.value })}
          />
          <span>by</span>
          <HTMLSelect
            aria-label="Dimension"
            value={pair.dimension}
            options={dimensions}
            onChange={(event) => update(index, { dimension: event.currentTarget.value })}
          />
          <Button
            icon="trash"
            variant="minimal"
            aria-label="Remove metric by dimension"
            onClick={() => onEdit(metricsByDimensionsChanged(pairs.filter((_, i) => i !== index)))}
          />
        </div>
      ))}
      {metrics.length > 0 && dimensions.length > 0 && (
        <Button
          icon="add"
          variant="minimal"
          text="Add metric by dimension"
          onClick={() =>
            onEdit(metricsByDimensionsChanged([...pairs, { metric: metrics[0].value, dimension: dimensions[0].value }]))
          }
        />
      )}
    </FormGroup>
  );
}

export function GraphSettings({ widget, schema, onEdit }: SettingsPanelProps) {
  const chart = widget.visualizationSettings?.chart ?? {};
  const chartType = chart.chartType ?? 'line';
  const ratios = fieldsOf(schema, widget.metrics, 'metric').some(isWeightedAverage);
  return (
    <>
      <MetricsPicker widget={widget} schema={schema} onEdit={onEdit} />
      <PairsEditor widget={widget} schema={schema} onEdit={onEdit} />
      <Select
        label="Chart type"
        value={chartType}
        choices={[
          { value: 'line', label: 'Line' },
          { value: 'bar', label: 'Bar' },
        ]}
        onChange={(value) => onEdit(chartChanged({ chartType: value }))}
      />
      <Select
        label="Granularity"
        value={chart.granularity ?? 'auto'}
        choices={(['auto', 'day', 'week', 'month', 'quarter'] as const).map((value) => ({
          value,
          label: capitalised(value),
        }))}
        onChange={(value) => onEdit(chartChanged({ granularity: value }))}
      />
      {chartType === 'bar' && (
        <FormGroup
          label="Bars"
          labelFor="widget-bars"
          helperText={ratios ? 'Rates cannot be stacked: the bars are grouped.' : undefined}
        >
          <HTMLSelect
            id="widget-bars"
            fill
            value={chart.groupMode ?? 'grouped'}
            options={[
              { value: 'grouped', label: 'Grouped' },
              { value: 'stacked', label: 'Stacked', disabled: ratios },
            ]}
            onChange={(event) =>
              onEdit(chartChanged({ groupMode: event.currentTarget.value as 'stacked' | 'grouped' }))
            }
          />
        </FormGroup>
      )}
      <Switch
        label="Auto-scale Y axis"
        checked={chart.autoScaleYAxis ?? true}
        onChange={(event) => onEdit(chartChanged({ autoScaleYAxis: event.currentTarget.checked }))}
      />
      <Switch
        label="Fit percentage axis to the data"
        checked={widget.maxYAxisScale === 'auto'}
        onChange={(event) => onEdit(maxYAxisScaleChanged(event.currentTarget.checked ? 'auto' : null))}
      />
    </>
  );
}
