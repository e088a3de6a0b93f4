import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { type DatasetSchema } from '../../contracts/datasets';
import { type Widget } from '../../contracts/reports';
import { MultiSelect, type SelectOption } from './MultiSelect';
import { dimensionOptions, metricOptions } from './settingsOptions';
import { dimensionChanged, displayChanged, metricsChanged, type WidgetConfigAction } from './widgetEdits';

/** The field pickers the settings panels of several widget kinds share (spec 2 §2 Configure widget). */

export type Edit = (action: WidgetConfigAction) => void;

export interface FieldProps {
  widget: Widget;
  schema: DatasetSchema;
  onEdit: Edit;
}

export type Choice<T extends string> = { value: T; label: string };

export const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function Select<T extends string>(props: {
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

export const fieldChoices = (options: SelectOption[]): Choice<string>[] =>
  options.map((option) => ({ value: option.value, label: option.label }));

/** Only values the options hold, so a picker never shows a field the dataset lacks. */
export const known = (values: readonly string[] | null | undefined, options: SelectOption[]) =>
  (values ?? []).filter((value) => options.some((option) => option.value === value));

export function MetricsPicker({ widget, schema, onEdit }: FieldProps) {
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

export function DimensionPicker({ widget, schema, onEdit }: FieldProps) {
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

type DisplayType = NonNullable<NonNullable<NonNullable<Widget['visualizationSettings']>['display']>['type']>;

/** The 'Display' select of a kind with display choices (spec 2 §3); an unknown display shows the first. */
export function DisplaySelect({
  widget,
  choices,
  onEdit,
}: {
  widget: Widget;
  choices: readonly [Choice<DisplayType>, ...Choice<DisplayType>[]];
  onEdit: Edit;
}) {
  const current = widget.visualizationSettings?.display?.type;
  return (
    <Select
      label="Display"
      value={choices.find((choice) => choice.value === current)?.value ?? choices[0].value}
      choices={choices}
      onChange={(value) => onEdit(displayChanged({ type: value }))}
    />
  );
}
