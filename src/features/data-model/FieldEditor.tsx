import { Button, Callout, Checkbox, FormGroup, H4, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import type { Locale } from '../../contracts/common';
import type { CustomField } from '../../contracts/dataModel';
import { dimensionFormats, fieldFeatures, measureFormats, type FieldFeature } from '../../contracts/datasets';
import type { FieldErrors } from '../../engine/dataModel/validation';
import { FieldGroup } from '../shell/components/FieldGroup';
import { isCustomField, type TableField } from './dataModelSlice';
import { MetricPreview } from './MetricPreview';
import { RulesEditor } from './RulesEditor';

export interface FieldEditorProps {
  workspaceId: number;
  tableId: string;
  locale: Locale;
  fields: TableField[];
  field: TableField;
  errors: FieldErrors | undefined;
  onChange(changes: Partial<Omit<CustomField, 'id' | 'custom'>>): void;
  onMoveRule(from: number, to: number): void;
  onRemove(): void;
}

function TextField(props: { label: string; value: string | undefined; error?: string; onChange(value: string): void }) {
  const id = `or-data-model-${props.label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <FieldGroup label={props.label} labelFor={id} error={props.error}>
      <InputGroup
        id={id}
        value={props.value ?? ''}
        intent={props.error ? 'danger' : 'none'}
        onValueChange={props.onChange}
      />
    </FieldGroup>
  );
}

function BuiltInField({ field }: { field: TableField }) {
  return (
    <section className="or-data-model-editor" aria-label={`Field ${field.name}`}>
      <H4>{field.name}</H4>
      <p>
        {field.type === 'metric' ? 'Metric' : 'Dimension'} · {field.category} · {field.format}
      </p>
      <Callout compact>Built-in fields come with the data set and cannot be changed.</Callout>
    </section>
  );
}

/**
 * The right side of the editor: the selected custom field's settings, checked as the admin types.
 * Long because it is one form over a custom field's settings, each control a few lines.
 */
export function FieldEditor(props: FieldEditorProps) {
  const { field, errors, onChange } = props;
  if (!isCustomField(field)) return <BuiltInField field={field} />;
  const metric = field.type === 'metric';
  const formats: readonly string[] = metric ? measureFormats : dimensionFormats;
  const index = props.fields.indexOf(field);
  const toggleFeature = (feature: FieldFeature, on: boolean) =>
    onChange({ features: on ? [...field.features, feature] : field.features.filter((other) => other !== feature) });

  return (
    <section className="or-data-model-editor" aria-label={`Field ${field.name}`}>
      <H4>{metric ? 'Metric' : 'Dimension'}</H4>
      <p className="or-muted">Id: {field.id}</p>
      <TextField
        label="Name"
        value={field.name}
        error={errors?.name ?? errors?.id}
        onChange={(name) => onChange({ name })}
      />
      <TextField label="Short name" value={field.shortName} onChange={(shortName) => onChange({ shortName })} />
      <TextField
        label="Category"
        value={field.category}
        error={errors?.category}
        onChange={(category) => onChange({ category })}
      />
      <FieldGroup label="Format" labelFor="or-data-model-format" error={errors?.format}>
        <HTMLSelect
          id="or-data-model-format"
          value={field.format ?? ''}
          options={formats.map((format) => ({ value: format, label: format }))}
          onChange={(event) => onChange({ format: event.currentTarget.value })}
        />
      </FieldGroup>
      <FormGroup label="Features">
        {fieldFeatures.map((feature) => (
          <Checkbox
            key={feature}
            inline
            label={feature}
            checked={field.features.includes(feature)}
            onChange={(event) => toggleFeature(feature, event.currentTarget.checked)}
          />
        ))}
      </FormGroup>
      {metric ? (
        <>
          <FormGroup
            label="Expression"
            labelFor="or-data-model-expr"
            intent={errors?.expr ? 'danger' : 'none'}
            helperText={errors?.expr ?? 'Metric ids above this one, numbers, + - * / and parentheses'}
          >
            <TextArea
              id="or-data-model-expr"
              fill
              value={field.expr ?? ''}
              intent={errors?.expr ? 'danger' : 'none'}
              onChange={(event) => onChange({ expr: event.currentTarget.value })}
            />
          </FormGroup>
          {!errors?.expr && !errors?.format && (
            <FormGroup label="Last 30 days">
              <MetricPreview
                workspaceId={props.workspaceId}
                tableId={props.tableId}
                metric={field}
                fields={props.fields}
                locale={props.locale}
              />
            </FormGroup>
          )}
        </>
      ) : (
        <RulesEditor
          field={field}
          earlier={props.fields.slice(0, index)}
          errors={errors}
          onChange={onChange}
          onMove={props.onMoveRule}
        />
      )}
      <Button icon="trash" intent="danger" variant="outlined" text="Remove field" onClick={props.onRemove} />
    </section>
  );
}
