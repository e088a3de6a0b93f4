import { DimensionPicker, MetricsPicker, Select } from '../../widget-config/fields';
import { displayChanged, limitChanged } from '../../widget-config/widgetEdits';
import { type SettingsPanelProps } from '../definition';
import { LIST_LIMITS } from './defaults';

export function ListSettings({ widget, schema, onEdit }: SettingsPanelProps) {
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
