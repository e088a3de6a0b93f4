import { Button, Classes, InputGroup, MenuItem, Tag } from '@blueprintjs/core';
import { type ItemRenderer, Select } from '@blueprintjs/select';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { fieldLabel } from '../widgets/widgetQuery';
import { addableBaselineMetrics, type BaselineRow, baselineValue } from './baselines';

/** Spec 2 §8: the add list's empty states, word for word. */
export const baselinePickerMessages = { nothingFound: 'Nothing found', noLabels: 'No labels' } as const;
export const ADD_BASELINE = 'Add baseline';

export interface BaselineListProps {
  schema: DatasetSchema;
  rows: BaselineRow[];
  /** Values can be typed, rows removed and metrics added. @default false */
  editable?: boolean;
  onChange?(rows: BaselineRow[]): void;
}

const matches = (field: Field, query: string) => fieldLabel(field).toLowerCase().includes(query.trim().toLowerCase());

const renderMetric: ItemRenderer<Field> = (field, { handleClick, handleFocus, modifiers, ref }) =>
  modifiers.matchesPredicate ? (
    <MenuItem
      key={field.id}
      ref={ref}
      text={fieldLabel(field)}
      label={field.category}
      roleStructure="listoption"
      active={modifiers.active}
      onClick={handleClick}
      onFocus={handleFocus}
    />
  ) : null;

/** The add list: metrics with the baseline feature not chosen yet, filtered as the user types. */
function AddBaseline({ options, onAdd }: { options: Field[]; onAdd(metric: string): void }) {
  return (
    <Select<Field>
      items={options}
      itemPredicate={(query, field) => matches(field, query)}
      itemRenderer={renderMetric}
      onItemSelect={(field) => onAdd(field.id)}
      noResults={
        <MenuItem
          disabled
          roleStructure="listoption"
          text={options.length ? baselinePickerMessages.nothingFound : baselinePickerMessages.noLabels}
        />
      }
      inputProps={{ 'aria-label': 'Find a metric' }}
      menuProps={{ 'aria-label': 'Baseline metrics' }}
      resetOnClose
      popoverProps={{ placement: 'bottom-start' }}
    >
      <Button icon="add" text={ADD_BASELINE} variant="minimal" intent="primary" />
    </Select>
  );
}

/** A baseline set's values by metric: shown, or typed as numbers (rates in percent) when editable. */
export function BaselineList({ schema, rows, editable = false, onChange }: BaselineListProps) {
  const fieldOf = (metric: string) => schema.fields.find((field) => field.id === metric);
  const change = (id: string, patch: Partial<BaselineRow>) =>
    onChange?.(rows.map((row) => (row.id === id ? { ...row, ...patch } : row)));
  return (
    <div className="or-baseline-list">
      {rows.length === 0 && <p className={Classes.TEXT_MUTED}>No baselines set.</p>}
      {rows.map((row) => {
        const field = fieldOf(row.metric);
        const label = field ? fieldLabel(field) : row.metric;
        const unit = field?.format === 'percent' ? '%' : '';
        const valid = baselineValue(row.text, field?.format) !== null;
        return (
          <div key={row.id} className="or-baseline-row">
            <label htmlFor={`baseline-${row.id}`}>{label}</label>
            {editable ? (
              <>
                <InputGroup
                  id={`baseline-${row.id}`}
                  type="number"
                  step="any"
                  size="small"
                  value={row.text}
                  intent={valid ? 'none' : 'danger'}
                  rightElement={unit ? <Tag minimal>{unit}</Tag> : undefined}
                  onValueChange={(text) => change(row.id, { text })}
                />
                <Button
                  icon="cross"
                  variant="minimal"
                  size="small"
                  aria-label={`Remove ${label}`}
                  onClick={() => onChange?.(rows.filter((other) => other.id !== row.id))}
                />
              </>
            ) : (
              <output id={`baseline-${row.id}`}>
                {row.text}
                {unit}
              </output>
            )}
          </div>
        );
      })}
      {editable && (
        <AddBaseline
          options={addableBaselineMetrics(schema, rows)}
          onAdd={(metric) => onChange?.([...rows, { id: `view-${metric}`, metric, text: '' }])}
        />
      )}
    </div>
  );
}
