import { DisplaySelect, MetricsPicker } from '../../widget-config/fields';
import { type SettingsPanelProps } from '../definition';
import { kpiDisplays } from './defaults';

export function CampaignPerformanceSettings({ widget, schema, onEdit }: SettingsPanelProps) {
  return (
    <>
      <MetricsPicker widget={widget} schema={schema} onEdit={onEdit} />
      <DisplaySelect widget={widget} choices={kpiDisplays} onEdit={onEdit} />
    </>
  );
}
