import { Button } from '@blueprintjs/core';
import { useSearchParams } from 'react-router-dom';
import { compareTargets } from '../../../contracts/targets';
import { openDrawerParams } from '../../shell/drawers';
import { useGetTargetsQuery } from '../../targets/targetsApi';
import { MultiSelect } from '../../widget-config/MultiSelect';
import { targetsChanged } from '../../widget-config/widgetEdits';
import { type SettingsPanelProps } from '../definition';

/** The configuration panel of a target widget: which of the workspace's targets it shows, or a new one. */
export function TargetSettings({ widget, scope, onEdit }: Pick<SettingsPanelProps, 'widget' | 'scope' | 'onEdit'>) {
  const [params, setParams] = useSearchParams();
  const { data, isLoading } = useGetTargetsQuery(scope.workspaceId);
  const options = [...(data?.data ?? [])]
    .sort(compareTargets)
    .map((target) => ({ value: target.id, label: target.title }));
  return (
    <>
      <MultiSelect
        label="Targets"
        options={options}
        values={(widget.targets ?? []).map(String)}
        loading={isLoading}
        onChange={(ids) => onEdit(targetsChanged(ids))}
      />
      <Button
        icon="add"
        variant="outlined"
        text="New target"
        onClick={() => setParams(openDrawerParams(params, 'target', { widgetId: widget.id }))}
      />
    </>
  );
}
