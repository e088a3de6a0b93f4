import { FormGroup } from '@blueprintjs/core';
import { known, MetricsPicker } from '../../widget-config/fields';
import { MultiSelect } from '../../widget-config/MultiSelect';
import { dimensionOptions } from '../../widget-config/settingsOptions';
import { dimensionsChanged } from '../../widget-config/widgetEdits';
import { type SettingsPanelProps } from '../definition';

export function TableSettings({ widget, schema, onEdit }: SettingsPanelProps) {
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
