import { Button, FormGroup, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type ReportFilter } from '../../contracts/reports';
import { DISTINCT_VALUES_LIMIT } from '../../engine/queries';
import { useDistinctValuesQuery } from '../../store/engineApi';
import { useAppSelector } from '../../store/hooks';
import { selectDatasetEntry } from '../datasets/datasetsSlice';
import { type DataScope } from '../widgets/types';
import {
  type FilterIssues,
  filterableFields,
  isFilterOperator,
  operatorLabels,
  operatorsFor,
  validateFilters,
  valueInputOf,
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

/** Metric-value inputs keep digits, a minus and a period; a comma becomes a period (spec 3 §5). */
const numberText = (text: string) => text.replace(/,/g, '.').replace(/[^\d.-]/g, '');

interface ValuesProps {
  filter: ReportFilter;
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

function ValuesInput(props: ValuesProps) {
  const { filter, onChange } = props;
  const values = filter.values ?? [];
  const input = valueInputOf(filter.operator);
  const setAt = (index: number, value: string) => {
    const next = [...values];
    next[index] = value;
    onChange(next.map((item) => item ?? ''));
  };
  switch (input) {
    case 'none':
      return null;
    case 'distinct':
      return <DistinctValues {...props} />;
    case 'number':
    case 'sensitivity':
      return (
        <InputGroup
          aria-label="Value"
          inputMode="decimal"
          value={values[0] ?? ''}
          onValueChange={(text) => onChange([numberText(text)])}
        />
      );
    case 'range':
      return (
        <div className="or-filter-range">
          <InputGroup aria-label="From" value={values[0] ?? ''} onValueChange={(t) => setAt(0, numberText(t))} />
          <InputGroup aria-label="To" value={values[1] ?? ''} onValueChange={(t) => setAt(1, numberText(t))} />
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
  filter: ReportFilter;
  issues: FilterIssues;
  schema: DatasetSchema;
  scope: DataScope;
  onChange(filter: ReportFilter): void;
  onRemove(): void;
}

function FilterRow({ filter, issues, schema, scope, onChange, onRemove }: RowProps) {
  const fields = filterableFields(schema);
  const field = schema.fields.find((candidate) => candidate.id === filter.member);
  const operators = field ? operatorsFor(field) : [];
  const categories = [...new Set(fields.map((candidate) => candidate.category))];
  const danger = (issue: string | undefined) => (issue ? 'danger' : 'none');
  return (
    <div className="or-filter-row" role="group" aria-label="Filter">
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
      {field && valueInputOf(filter.operator) !== 'none' && (
        <FormGroup label="Values" intent={danger(issues.values)} helperText={issues.values}>
          <ValuesInput
            filter={filter}
            schema={schema}
            scope={scope}
            onChange={(values) => onChange({ ...filter, values })}
          />
        </FormGroup>
      )}
      <Button icon="trash" variant="minimal" aria-label="Remove filter" onClick={onRemove} />
    </div>
  );
}

/**
 * The filter form (spec 2 §5): a row per filter with its field, operator and values. equals and notEquals
 * pick among the dimension's values, set and notSet take none, other operators take typed values; switching
 * the operator starts the values again. Nested and/or groups are shown and can be removed, not edited.
 */
export function FilterForm({ schema, scope, value, onChange, readOnly = false }: FilterFormProps) {
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
            filter={filter}
            issues={issues[index]}
            schema={schema}
            scope={scope}
            onChange={(next) => replace(index, next)}
            onRemove={() => remove(index)}
          />
        ),
      )}
      <Button icon="add" variant="minimal" text="Add filter" onClick={() => onChange([...value, {}])} />
    </div>
  );
}
