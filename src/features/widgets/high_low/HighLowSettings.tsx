import { DimensionPicker, MetricsPicker } from '../../widget-config/fields';
import { type SettingsPanelProps } from '../definition';

export function HighLowSettings({ widget, schema, onEdit }: SettingsPanelProps) {
  return (
    <>
      <MetricsPicker widget={widget} schema={schema} onEdit={onEdit} />
      <DimensionPicker widget={widget} schema={schema} onEdit={onEdit} />
    </>
  );
}
