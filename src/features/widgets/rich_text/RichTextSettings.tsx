import { capitalised, Select } from '../../widget-config/fields';
import { displayChanged } from '../../widget-config/widgetEdits';
import { type SettingsPanelProps } from '../definition';

export function RichTextSettings({ widget, onEdit }: Pick<SettingsPanelProps, 'widget' | 'onEdit'>) {
  return (
    <Select
      label="Vertical alignment"
      value={widget.visualizationSettings?.display?.verticalAlignment ?? 'start'}
      choices={(['start', 'center', 'end'] as const).map((value) => ({ value, label: capitalised(value) }))}
      onChange={(value) => onEdit(displayChanged({ verticalAlignment: value }))}
    />
  );
}
