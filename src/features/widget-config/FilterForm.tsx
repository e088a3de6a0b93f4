import { Button, Checkbox, FormGroup, HTMLSelect, InputGroup, Slider, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type ReportFilter } from '../../contracts/reports';
import { DISTINCT_VALUES_LIMIT } from '../../engine/queries';
import { useDistinctValuesQuery } from '../../store/engineApi';
import { useAppSelector } from '../../store/hooks';
import { selectDatasetEntry } from '../datasets/datasetsSlice';
import { type DataScope } from '../widgets/types';
import {
  type FilterFormKind,
  type FilterIssues,
  fieldsOfKind,
  isFilterOperator,
  metricText,
  operatorLabels,
  operatorsOfKind,
  SENSITIVITY_MAX,
  SENSITIVITY_MIN,
  SENSITIVITY_STEP,
  sensitivityLabel,
  sensitivityOf,
  shownValue,
  storedSensitivity,
  storedValue,
  validateFilters,
  valueInputFor,
  withMember,
  withOperator,
} from './filterRules';
import { MultiSelect } from './MultiSelect';

export interface FilterFormProps {
  schema: DatasetSchema;
  scope: DataScope;
  value: ReportFilter[];
  onChange(filters: ReportFilter[]): void;
  /** Shows the filters without editing. @default false */
  readOnly?: boolean;
  /** Filters pick dimensions; an alert's conditions test metrics. @default 'filters' */
  kind?: FilterFormKind;
}

const fieldName = (field: Field | undefined, id: string | undefined) => field?.label ?? field?.name ?? id ?? '';
const operatorName = (operator: string | undefined) =>
  isFilterOperator(operator) ? operatorLabels[operator] : (operator ?? '');

/** One filter as a sentence, for nested groups and read-only forms. */
function filterText(filter: ReportFilter, schema: DatasetSchema): string {
  if (filter.and || filter.or) {
    const parts = (filter.and ?? filter.or ?? []).map((inner) => `(${filterText(inner, schema)})`);
    return parts.join(filter.and ? ' and ' : ' or ');
  }
  const field = schema.fields.find((candidate) => candidate.id === filter.member);
  return [fieldName(field, filter.member), operatorName(filter.operator), (filter.values ?? []).join(', ')]
    .filter(Boolean)
    .join(' ');
}

interface ValuesProps {
  filter: ReportFilter;
  field: Field;
  schema: DatasetSchema;
  scope: DataScope;
  onChange(values: string[]): void;
}

/** equals and notEquals pick among the dimension's distinct values (up to 10000); new ones may be typed. */
function DistinctValues({ filter, schema, scope, onChange }: ValuesProps) {
  const version = useAppSelector((state) => selectDatasetEntry(state, scope.workspaceId, schema.id)?.version);
  const member = filter.member ?? '';
  const { data, isFetching } = useDistinctValuesQuery(
    {
      workspaceId: scope.workspaceId,
      version,
      query: { kind: 'distinctValues', dataset: schema.id, dimension: member, limit: DISTINCT_VALUES_LIMIT },
    },
    { skip: !version || !member },
  );
  const options = (data?.data.value ?? []).map((value) => ({ value: String(value), label: String(value) }));
  return (
    <MultiSelect
      label="Values"
      options={options}
      values={filter.values ?? []}
      onChange={onChange}
      placeholder="Select values"
      loading={isFetching}
      allowCreate
    />
  );
}

interface MetricInputProps {
  label: string;
  field: Field;
  stored: string;
  onChange(stored: string): void;
}

/**
 * A number typed as shown (percentages ×100) and passed on as stored (÷100). What was typed is kept while it
 * means the stored value, so '12.' stays on screen while 0.12 is stored.
 */
function MetricInput({ label, field, stored, onChange }: MetricInputProps) {
  const [typed, setTyped] = useState(() => shownValue(field, stored));
  const text = storedValue(field, typed) === stored ? typed : shownValue(field, stored);
  return (
    <InputGroup
      aria-label={label}
      inputMode="decimal"
      value={text}
      rightElement={field.format === 'percent' ? <span className="or-filter-unit">%</span> : undefined}
      onValueChange={(raw) => {
        const next = metricText(raw);
        setTyped(next);
        onChange(storedValue(field, next));
      }}
    />
  );
}

/** Outlier sensitivity: -4 (Low) to 0 (High sensitivity) in quarter steps (spec 3 §5). */
function SensitivitySlider({ values, onChange }: { values: string[]; onChange(values: string[]): void }) {
  return (
    <Slider
      min={SENSITIVITY_MIN}
      max={SENSITIVITY_MAX}
      stepSize={SENSITIVITY_STEP}
      labelStepSize={1}
      labelRenderer={(value, options) => (options?.isHandleTooltip ? value.toFixed(2) : sensitivityLabel(value))}
      value={sensitivityOf(values)}
      onChange={(value) => onChange([storedSensitivity(value)])}
      handleHtmlProps={{ 'aria-label': 'Sensitivity' }}
    />
  );
}

function ValuesInput(props: ValuesProps) {
  const { filter, field, onChange } = props;
  const values = filter.values ?? [];
  const setAt = (index: number, value: string) => {
    const next = [...values];
    next[index] = value;
    onChange(next.map((item) => item ?? ''));
  };
  switch (valueInputFor(field, filter.operator)) {
    case 'none':
      return null;
    case 'distinct':
      return <DistinctValues {...props} />;
    case 'number':
      return <MetricInput label="Value" field={field} stored={values[0] ?? ''} onChange={(v) => onChange([v])} />;
    case 'sensitivity':
      return <SensitivitySlider values={values} onChange={onChange} />;
    case 'range':
      return (
        <div className="or-filter-range">
          <MetricInput label="From" field={field} stored={values[0] ?? ''} onChange={(v) => setAt(0, v)} />
          <MetricInput label="To" field={field} stored={values[1] ?? ''} onChange={(v) => setAt(1, v)} />
        </div>
      );
    case 'date':
      return <InputGroup type="date" aria-label="Date" value={values[0] ?? ''} onValueChange={(t) => onChange([t])} />;
    case 'dateRange':
      return (
        <div className="or-filter-range">
          <InputGroup type="date" aria-label="From" value={values[0] ?? ''} onValueChange={(t) => setAt(0, t)} />
          <InputGroup type="date" aria-label="To" value={values[1] ?? ''} onValueChange={(t) => setAt(1, t)} />
        </div>
      );
    case 'text':
      return <MultiSelect label="Values" options={[]} values={values} onChange={onChange} allowCreate />;
  }
}

interface RowProps {
  kind: FilterFormKind;
  filter: ReportFilter;
  issues: FilterIssues;
  schema: DatasetSchema;
  scope: DataScope;
  onChange(filter: ReportFilter): void;
  onRemove(): void;
}

function FilterRow({ kind, filter, issues, schema, scope, onChange, onRemove }: RowProps) {
  const fields = fieldsOfKind(kind, schema);
  const noun = kind === 'conditions' ? 'condition' : 'filter';
  const field = schema.fields.find((candidate) => candidate.id === filter.member);
  const operators = field ? operatorsOfKind(kind, field) : [];
  const categories = [...new Set(fields.map((candidate) => candidate.category))];
  const danger = (issue: string | undefined) => (issue ? 'danger' : 'none');
  return (
    <div className="or-filter-row" role="group" aria-label={kind === 'conditions' ? 'Condition' : 'Filter'}>
      <FormGroup label="Field" intent={danger(issues.member)} helperText={issues.member}>
        <HTMLSelect
          aria-label="Field"
          fill
          value={filter.member ?? ''}
          onChange={(event) => onChange(withMember(filter, event.currentTarget.value, schema))}
        >
          <option value="" disabled>
            Select a field
          </option>
          {field === undefined && filter.member && <option value={filter.member}>{filter.member}</option>}
          {categories.map((category) => (
            <optgroup key={category} label={category}>
              {fields
                .filter((candidate) => candidate.category === category)
                .map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {fieldName(candidate, candidate.id)}
                  </option>
                ))}
            </optgroup>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label="Operator" intent={danger(issues.operator)} helperText={issues.operator}>
        <HTMLSelect
          aria-label="Operator"
          fill
          disabled={!field}
          value={filter.operator ?? ''}
          onChange={(event) => onChange(withOperator(filter, event.currentTarget.value))}
        >
          <option value="" disabled>
            Select an operator
          </option>
          {filter.operator && !(operators as string[]).includes(filter.operator) && (
            <option value={filter.operator}>{operatorName(filter.operator)}</option>
          )}
          {operators.map((operator) => (
            <option key={operator} value={operator}>
              {operatorLabels[operator]}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {field && valueInputFor(field, filter.operator) !== 'none' && (
        <FormGroup label="Values" intent={danger(issues.values)} helperText={issues.values}>
          <ValuesInput
            filter={filter}
            field={field}
            schema={schema}
            scope={scope}
            onChange={(values) => onChange({ ...filter, values })}
          />
        </FormGroup>
      )}
      {kind === 'filters' && field?.type === 'metric' && (
        // Unchecked, each row's value is compared; checked, the value of each group (spec 2 §3 Filter).
        <Checkbox
          label="Aggregate"
          checked={filter.aggregate === true}
          onChange={(event) => onChange({ ...filter, aggregate: event.currentTarget.checked })}
        />
      )}
      <Button icon="trash" variant="minimal" aria-label={`Remove ${noun}`} onClick={onRemove} />
    </div>
  );
}

/**
 * The filter form (spec 2 §5, spec 3 §5): a row per filter with its field, operator and values. equals and
 * notEquals pick among the dimension's values, set and notSet take none, outliers take a sensitivity, other
 * operators take typed values; switching the operator starts the values again. Metrics (offered as filters with an
 * Aggregate flag, and alone as an alert's conditions) take numbers (percentages shown ×100). Nested and/or groups are shown and can be removed, not edited.
 */
export function FilterForm({ schema, scope, value, onChange, readOnly = false, kind = 'filters' }: FilterFormProps) {
  if (readOnly) {
    return (
      <div className="or-filter-form">
        {value.length === 0 && <p className="or-filter-empty">No filters</p>}
        {value.map((filter, index) => (
          <Tag key={index} minimal className="or-filter-summary">
            {filterText(filter, schema)}
          </Tag>
        ))}
      </div>
    );
  }
  const issues = validateFilters(schema, value);
  const replace = (index: number, filter: ReportFilter) => onChange(value.map((f, i) => (i === index ? filter : f)));
  const remove = (index: number) => onChange(value.filter((_, i) => i !== index));
  return (
    <div className="or-filter-form">
      {value.map((filter, index) =>
        filter.and || filter.or ? (
          <div key={index} className="or-filter-group" role="group" aria-label={filter.and ? 'All of' : 'Any of'}>
            <Tag minimal>{filter.and ? 'All of' : 'Any of'}</Tag>
            <span className="or-filter-summary">{filterText(filter, schema)}</span>
            <Button icon="trash" variant="minimal" aria-label="Remove filter" onClick={() => remove(index)} />
          </div>
        ) : (
          <FilterRow
            key={index}
            kind={kind}
            filter={filter}
            issues={issues[index]}
            schema={schema}
            scope={scope}
            onChange={(next) => replace(index, next)}
            onRemove={() => remove(index)}
          />
        ),
      )}
      <Button
        icon="add"
        variant="minimal"
        text={kind === 'conditions' ? 'Add condition' : 'Add filter'}
        onClick={() => onChange([...value, {}])}
      />
    </div>
  );
}
