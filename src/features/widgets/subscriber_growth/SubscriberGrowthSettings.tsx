import { FormGroup, Switch } from '@blueprintjs/core';
import { type Widget } from '../../../contracts/reports';
import { DISTINCT_VALUES_LIMIT } from '../../../engine/queries';
import { useDistinctValuesQuery } from '../../../store/engineApi';
import { DisplaySelect, type Edit } from '../../widget-config/fields';
import { MultiSelect } from '../../widget-config/MultiSelect';
import { autofocusFirstTabChanged, filteredListsChanged } from '../../widget-config/widgetEdits';
import { type SettingsPanelProps } from '../definition';
import { type DataScope } from '../types';
import { subscriberGrowthDisplays } from './defaults';

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

export function SubscriberGrowthSettings({ widget, scope, version, onEdit }: SettingsPanelProps) {
  return (
    <>
      <ListsPicker widget={widget} scope={scope} version={version} onEdit={onEdit} />
      <DisplaySelect widget={widget} choices={subscriberGrowthDisplays} onEdit={onEdit} />
      <Switch
        label="Open the first list automatically"
        checked={!widget.disableAutofocusFirstTab}
        onChange={(event) => onEdit(autofocusFirstTabChanged(event.currentTarget.checked))}
      />
    </>
  );
}
