import { Button, FormGroup, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { type DatasetSchema } from '../../contracts/datasets';
import { datasetOfWidget, type Widget } from '../../contracts/reports';
import { DISTINCT_VALUES_LIMIT } from '../../engine/queries';
import { useDistinctValuesQuery } from '../../store/engineApi';
import { type DataScope } from '../widgets/types';
import { DEFAULT_CONVERSION_METRIC, FUNNEL_DEFAULT_METRICS, LIST_LIMITS } from '../widgets/widgetMeta';
import { isWeightedAverage } from './cleanup';
import { FilterForm } from './FilterForm';
import { MultiSelect, type SelectOption } from './MultiSelect';
import { datasetTitle, dateFieldOptions, dimensionOptions, metricOptions, widgetDatasets } from './settingsOptions';
import {
  autofocusFirstTabChanged,
  chartChanged,
  conversionMetricChanged,
  datasetChanged,
  dateFieldChanged,
  dimensionChanged,
  dimensionsChanged,
  displayChanged,
  filteredListsChanged,
  filtersChanged,
  funnelDirectionChanged,
  funnelMetricsChanged,
  limitChanged,
  maxYAxisScaleChanged,
  metricsByDimensionsChanged,
  metricsChanged,
  titleChanged,
  type WidgetConfigAction,
  widgetPalettes,
} from './widgetConfigSlice';

export interface WidgetSettingsProps {
  /** The widget as shown: already cleaned against its dataset. */
  widget: Widget;
  /** The widget's dataset schema; undefined while it loads. */
  schema: DatasetSchema | undefined;
  /** Why the dataset could not be loaded, if it failed. */
  datasetError: string | undefined;
  /** The dataset version in the engine, for the value lookups. */
  version: string | undefined;
  scope: DataScope;
  onEdit(action: WidgetConfigAction): void;
}

type Choice<T extends string> = { value: T; label: string };

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function Select<T extends string>(props: {
  label: string;
  value: T | '';
  choices: readonly Choice<T>[];
  onChange(value: T): void;
  placeholder?: string;
}) {
  const id = `widget-${props.label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <FormGroup label={props.label} labelFor={id}>
      <HTMLSelect id={id} fill value={props.value} onChange={(event) => props.onChange(event.currentTarget.value as T)}>
        {props.value === '' && (
          <option value="" disabled>
            {props.placeholder ?? 'Select…'}
          </option>
        )}
        {props.choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}

const fieldChoices = (options: SelectOption[]): Choice<string>[] =>
  options.map((option) => ({ value: option.value, label: option.label }));

/** Only values the options hold, so a picker never shows a field the dataset lacks. */
const known = (values: readonly string[] | null | undefined, options: SelectOption[]) =>
  (values ?? []).filter((value) => options.some((option) => option.value === value));

function MetricsPicker({ widget, schema, onEdit }: { widget: Widget; schema: DatasetSchema; onEdit: Edit }) {
  const options = metricOptions(schema);
  return (
    <FormGroup label="Metrics">
      <MultiSelect
        label="Metrics"
        options={options}
        values={known(widget.metrics, options)}
        onChange={(values) => onEdit(metricsChanged(values))}
        placeholder="Select metrics"
      />
    </FormGroup>
  );
}

function DimensionPicker({ widget, schema, onEdit }: { widget: Widget; schema: DatasetSchema; onEdit: Edit }) {
  const options = dimensionOptions(schema);
  const value = widget.dimension ?? widget.dimensions?.[0] ?? '';
  return (
    <Select
      label="Dimension"
      value={options.some((option) => option.value === value) ? value : ''}
      choices={fieldChoices(options)}
      placeholder="Select a dimension"
      onChange={(dimension) => onEdit(dimensionChanged(dimension))}
    />
  );
}

type Edit = (action: WidgetConfigAction) => void;

/** Metric-by-dimension charts of a graph: each pair draws the metric split by the dimension's values. */
function PairsEditor({ widget, schema, onEdit }: { widget: Widget; schema: DatasetSchema; onEdit: Edit }) {
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

function GraphSettings({ widget, schema, onEdit }: { widget: Widget; schema: DatasetSchema; onEdit: Edit }) {
  const chart = widget.visualizationSettings?.chart ?? {};
  const chartType = chart.chartType ?? 'line';
  const ratios = (widget.metrics ?? []).some((id) => isWeightedAverage(schema.fields.find((f) => f.id === id)));
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

function FunnelSettings({ widget, schema, onEdit }: { widget: Widget; schema: DatasetSchema; onEdit: Edit }) {
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
        value={widget.visualizationSettings?.funnel?.direction ?? 'horizontal'}
        choices={[
          { value: 'horizontal', label: 'Horizontal' },
          { value: 'vertical', label: 'Vertical' },
        ]}
        onChange={(value) => onEdit(funnelDirectionChanged(value))}
      />
    </>
  );
}

function ListSettings({ widget, schema, onEdit }: { widget: Widget; schema: DatasetSchema; onEdit: Edit }) {
  const display = widget.visualizationSettings?.display ?? {};
  const limit = widget.limit ?? null;
  return (
    <>
      <DimensionPicker widget={widget} schema={schema} onEdit={onEdit} />
      <MetricsPicker widget={widget} schema={schema} onEdit={onEdit} />
      <Select
        label="Limit"
        value={limit === null ? 'none' : String(limit)}
        choices={LIST_LIMITS.map((value) => ({
          value: value === null ? 'none' : String(value),
          label: String(value ?? 'None'),
        }))}
        onChange={(value) => onEdit(limitChanged(value === 'none' ? null : Number(value)))}
      />
      <Select
        label="Order by"
        value={display.orderBy === 'dimension' ? 'dimension' : 'currentPeriod'}
        choices={[
          { value: 'currentPeriod', label: 'Current period' },
          { value: 'dimension', label: 'Dimension' },
        ]}
        onChange={(value) => onEdit(displayChanged({ orderBy: value }))}
      />
      <Select
        label="Order"
        value={display.order ?? 'desc'}
        choices={[
          { value: 'desc', label: 'Descending' },
          { value: 'asc', label: 'Ascending' },
        ]}
        onChange={(value) => onEdit(displayChanged({ order: value }))}
      />
    </>
  );
}

/** Subscriber growth's lists: the distinct list names of list_members. */
function ListsPicker({
  widget,
  scope,
  version,
  onEdit,
}: {
  widget: Widget;
  scope: DataScope;
  version: string | undefined;
  onEdit: Edit;
}) {
  const { data, isFetching } = useDistinctValuesQuery(
    {
      workspaceId: scope.workspaceId,
      version,
      query: { kind: 'distinctValues', dataset: 'list_members', dimension: 'list_name', limit: DISTINCT_VALUES_LIMIT },
    },
    { skip: !version },
  );
  const options = (data?.data.value ?? []).map((value) => ({ value: String(value), label: String(value) }));
  return (
    <FormGroup label="Lists">
      <MultiSelect
        label="Lists"
        options={options}
        values={widget.filteredLists ?? []}
        onChange={(values) => onEdit(filteredListsChanged(values))}
        loading={isFetching}
        placeholder="Select lists"
      />
    </FormGroup>
  );
}

function DisplaySelect({
  widget,
  types,
  onEdit,
}: {
  widget: Widget;
  types: readonly ('tab' | 'grid' | 'card')[];
  onEdit: Edit;
}) {
  const labels = { tab: 'Tabs', grid: 'Grid', card: 'Cards' };
  const current = widget.visualizationSettings?.display?.type;
  return (
    <Select
      label="Display"
      value={
        current && (types as readonly string[]).includes(current) ? (current as 'tab' | 'grid' | 'card') : types[0]
      }
      choices={types.map((value) => ({ value, label: labels[value] }))}
      onChange={(value) => onEdit(displayChanged({ type: value }))}
    />
  );
}

/** The settings of one widget, by its type (spec 2 §2 Configure widget, §3 Widget). */
export function WidgetSettings({ widget, schema, datasetError, version, scope, onEdit }: WidgetSettingsProps) {
  const type = widget.type;
  const dataset = datasetOfWidget(widget);
  const display = widget.visualizationSettings?.display ?? {};
  const usesDataset = dataset !== null && type !== 'target';
  const dateFields = schema ? dateFieldOptions(schema) : [];

  const body = () => {
    if (!schema) return null;
    switch (type) {
      case 'campaign_performance':
        return (
          <>
            <MetricsPicker widget={widget} schema={schema} onEdit={onEdit} />
            <DisplaySelect widget={widget} types={['tab', 'grid', 'card']} onEdit={onEdit} />
          </>
        );
      case 'graph':
        return <GraphSettings widget={widget} schema={schema} onEdit={onEdit} />;
      case 'funnel':
        return <FunnelSettings widget={widget} schema={schema} onEdit={onEdit} />;
      case 'table': {
        const options = dimensionOptions(schema);
        return (
          <>
            <MetricsPicker widget={widget} schema={schema} onEdit={onEdit} />
            <FormGroup label="Dimensions">
              <MultiSelect
                label="Dimensions"
                options={options}
                values={known(
                  widget.dimensions?.length ? widget.dimensions : widget.dimension ? [widget.dimension] : [],
                  options,
                )}
                onChange={(values) => onEdit(dimensionsChanged(values))}
                placeholder="Select dimensions"
              />
            </FormGroup>
          </>
        );
      }
      case 'high_low':
        return (
          <>
            <MetricsPicker widget={widget} schema={schema} onEdit={onEdit} />
            <DimensionPicker widget={widget} schema={schema} onEdit={onEdit} />
          </>
        );
      case 'list':
        return <ListSettings widget={widget} schema={schema} onEdit={onEdit} />;
      case 'subscriber_growth':
        return (
          <>
            <ListsPicker widget={widget} scope={scope} version={version} onEdit={onEdit} />
            <DisplaySelect widget={widget} types={['tab', 'card']} onEdit={onEdit} />
            <Switch
              label="Open the first list automatically"
              checked={!widget.disableAutofocusFirstTab}
              onChange={(event) => onEdit(autofocusFirstTabChanged(event.currentTarget.checked))}
            />
          </>
        );
      default:
        return null;
    }
  };

  return (
    <div className="or-widget-config-settings">
      <FormGroup label="Title" labelFor="widget-title">
        <InputGroup
          id="widget-title"
          value={widget.title ?? ''}
          onValueChange={(value) => onEdit(titleChanged(value))}
        />
      </FormGroup>
      {usesDataset && type !== 'subscriber_growth' && (
        <Select
          label="Dataset"
          value={dataset}
          choices={[
            ...widgetDatasets.map((id) => ({ value: id, label: datasetTitle(id) })),
            ...((widgetDatasets as readonly string[]).includes(dataset)
              ? []
              : [{ value: dataset, label: datasetTitle(dataset) }]),
          ]}
          onChange={(value) => onEdit(datasetChanged(value))}
        />
      )}
      {usesDataset && !schema && (
        <p className={datasetError ? 'or-widget-config-error' : 'or-widget-config-loading'}>
          {datasetError ?? 'Loading dataset…'}
        </p>
      )}
      {schema && usesDataset && dateFields.length > 0 && (
        <Select
          label="Date field"
          value={widget.dateField ?? schema.dateField}
          choices={fieldChoices(dateFields)}
          onChange={(value) => onEdit(dateFieldChanged(value))}
        />
      )}
      {body()}
      {schema && usesDataset && type !== 'subscriber_growth' && (
        <FormGroup label="Filters">
          <FilterForm
            schema={schema}
            scope={scope}
            value={widget.filters ?? []}
            onChange={(filters) => onEdit(filtersChanged(filters))}
          />
        </FormGroup>
      )}
      {type === 'rich_text' && (
        <Select
          label="Vertical alignment"
          value={display.verticalAlignment ?? 'start'}
          choices={(['start', 'center', 'end'] as const).map((value) => ({ value, label: capitalised(value) }))}
          onChange={(value) => onEdit(displayChanged({ verticalAlignment: value }))}
        />
      )}
      {usesDataset && (
        <Select
          label="Palette"
          value={display.palette ?? 'none'}
          choices={widgetPalettes.map((value) => ({ value, label: capitalised(value) }))}
          onChange={(value) => onEdit(displayChanged({ palette: value }))}
        />
      )}
    </div>
  );
}
