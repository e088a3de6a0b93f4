import { FormGroup, InputGroup } from '@blueprintjs/core';
import { type DatasetSchema } from '../../contracts/datasets';
import { datasetOfWidget, type Widget } from '../../contracts/reports';
import { widgetDefinition } from '../widgets/registry';
import { type DataScope } from '../widgets/types';
import { capitalised, fieldChoices, Select } from './fields';
import { FilterForm } from './FilterForm';
import { datasetTitle, dateFieldOptions, widgetDatasets } from './settingsOptions';
import { widgetPalettes } from './widgetConfigSlice';
import {
  datasetChanged,
  dateFieldChanged,
  displayChanged,
  filtersChanged,
  titleChanged,
  type WidgetConfigAction,
} from './widgetEdits';

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

/** The panel of the widget's kind: a kind that reads a dataset shows it once the dataset's schema is known. */
function KindSettings({ widget, schema, version, scope, onEdit }: WidgetSettingsProps) {
  const definition = widgetDefinition(widget.type);
  if (definition?.dataset === 'none') {
    return definition.Settings ? <definition.Settings widget={widget} scope={scope} onEdit={onEdit} /> : null;
  }
  if (!definition?.Settings || !schema) return null;
  return <definition.Settings widget={widget} schema={schema} version={version} scope={scope} onEdit={onEdit} />;
}

/**
 * The settings of one widget (spec 2 §2 Configure widget, §3 Widget): the title, the dataset fields its kind
 * uses, the kind's own panel, then the filters and palette.
 */
export function WidgetSettings(props: WidgetSettingsProps) {
  const { widget, schema, datasetError, scope, onEdit } = props;
  const dataset = datasetOfWidget(widget);
  const use = widgetDefinition(widget.type)?.dataset ?? 'choice';
  const usesDataset = dataset !== null && use !== 'none';
  const chooses = usesDataset && use === 'choice';
  const dateFields = schema ? dateFieldOptions(schema) : [];

  return (
    <div className="or-widget-config-settings">
      <FormGroup label="Title" labelFor="widget-title">
        <InputGroup
          id="widget-title"
          value={widget.title ?? ''}
          onValueChange={(value) => onEdit(titleChanged(value))}
        />
      </FormGroup>
      {chooses && (
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
      <KindSettings {...props} />
      {schema && chooses && (
        <FormGroup label="Filters">
          <FilterForm
            schema={schema}
            scope={scope}
            value={widget.filters ?? []}
            onChange={(filters) => onEdit(filtersChanged(filters))}
          />
        </FormGroup>
      )}
      {usesDataset && (
        <Select
          label="Palette"
          value={widget.visualizationSettings?.display?.palette ?? 'none'}
          choices={widgetPalettes.map((value) => ({ value, label: capitalised(value) }))}
          onChange={(value) => onEdit(displayChanged({ palette: value }))}
        />
      )}
    </div>
  );
}
