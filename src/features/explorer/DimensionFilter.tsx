import { type Field } from '../../contracts/datasets';
import { type ColumnFilter } from '../../engine/gridFilters';
import { fieldLabel } from '../widgets/widgetQuery';
import { DateFilterForm, TextFilterInput } from './ColumnMenu';
import { type GridFilters } from './useFilterModel';

/** The text in a dimension's contains filter, if it has one. */
function containsText(filter: ColumnFilter | undefined): string {
  return filter?.filterType === 'text' && filter.type === 'contains' && typeof filter.filter === 'string'
    ? filter.filter
    : '';
}

export interface DimensionFilterProps {
  field: Field;
  filters: GridFilters;
}

/** A dimension's row filter: dates on a date dimension, a contains text filter on the others. */
export function DimensionFilter({ field, filters }: DimensionFilterProps) {
  const label = `Filter ${fieldLabel(field)}`;
  const stored = filters.model?.[field.id] as ColumnFilter | undefined;
  const apply = (next: ColumnFilter | null) => filters.setFilter(field.id, next);
  if (field.format === 'date') {
    const filter = stored?.filterType === 'date' ? stored : undefined;
    // Keyed by the stored filter, so a change from elsewhere (undo, Clear filters) shows in the form.
    return <DateFilterForm key={JSON.stringify(filter ?? null)} label={label} filter={filter} onChange={apply} />;
  }
  return (
    <TextFilterInput
      label={label}
      value={containsText(stored)}
      onChange={(text) => apply(text ? { filterType: 'text', type: 'contains', filter: text } : null)}
    />
  );
}
