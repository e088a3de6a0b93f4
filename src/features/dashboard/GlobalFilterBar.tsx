import { Button, Classes, Dialog, DialogBody, DialogFooter, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { type DatasetSchema } from '../../contracts/datasets';
import { DEFAULT_EXPLORER_DATASET, type ReportFilter } from '../../contracts/reports';
import { type FilterOperator } from '../../engine/filters';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { selectDatasetEntry } from '../datasets/datasetsSlice';
import { loadDataset } from '../datasets/loadDataset';
import { FilterForm } from '../widget-config/FilterForm';
import { operatorLabels, takesNoValues, validateFilters } from '../widget-config/filterRules';
import { type DataScope, PROJECTION_PENDING } from '../widgets/types';

export interface GlobalFilterBarProps {
  filters: ReportFilter[];
  scope: DataScope;
  /** Filters can be added, changed and removed: edit mode with write access. */
  editable: boolean;
  onApply(filters: ReportFilter[]): void;
  onRemove(index: number): void;
}

/** What a chip says: the field's name, the operator's label and the values. */
export function filterChipText(filter: ReportFilter, schema: DatasetSchema | undefined): string {
  if (filter.and || filter.or) {
    const group = filter.and ?? filter.or ?? [];
    return group.map((inner) => filterChipText(inner, schema)).join(filter.and ? ' and ' : ' or ');
  }
  const member = schema?.fields.find((field) => field.id === filter.member)?.name ?? filter.member ?? '';
  const operator = operatorLabels[filter.operator as FilterOperator] ?? filter.operator ?? '';
  const values = takesNoValues(filter.operator) ? '' : ` ${(filter.values ?? []).join(', ')}`;
  return `${member} ${operator}${values}`.trim();
}

/** The send-date dataset's entry, whose schema names the filters' fields; loaded once filters are shown or edited. */
function useFilterDataset(scope: DataScope, wanted: boolean) {
  const dispatch = useAppDispatch();
  const entry = useAppSelector((state) => selectDatasetEntry(state, scope.workspaceId, DEFAULT_EXPLORER_DATASET));
  const { projection } = scope;
  useEffect(() => {
    // In view mode the bar needs only the schema: the widgets' projection, once its targets are known.
    if (wanted && !entry && projection !== PROJECTION_PENDING) {
      void dispatch(
        loadDataset({
          workspaceId: scope.workspaceId,
          datasetId: DEFAULT_EXPLORER_DATASET,
          publicReportId: scope.publicReportId,
          projection,
        }),
      );
    }
  }, [wanted, entry, dispatch, scope.workspaceId, scope.publicReportId, projection]);
  return entry;
}

/**
 * The sticky bar of a dashboard's global filters, which apply to every widget (spec 2 §2). Filters name fields
 * of the send-date dataset, the one most widgets read.
 */
export function GlobalFilterBar({ filters, scope, editable, onApply, onRemove }: GlobalFilterBarProps) {
  const [draft, setDraft] = useState<ReportFilter[] | null>(null);
  const entry = useFilterDataset(scope, filters.length > 0 || draft !== null);
  const schema = entry?.schema;

  if (filters.length === 0 && !editable) return null;
  const issues = draft && schema ? validateFilters(schema, draft) : [];
  const invalid = issues.some((issue) => Object.keys(issue).length > 0);
  return (
    <div className="or-dashboard-filter-bar" role="toolbar" aria-label="Dashboard filters">
      {filters.map((filter, index) => (
        <Tag
          // Filters have no ids; their order is stable while the bar shows them.
          key={index}
          size="large"
          minimal
          interactive={editable}
          onClick={editable ? () => setDraft(filters) : undefined}
          onRemove={
            editable
              ? (event) => {
                  // The chip itself opens the filters; its remove button only removes.
                  event.stopPropagation();
                  onRemove(index);
                }
              : undefined
          }
        >
          {filterChipText(filter, schema)}
        </Tag>
      ))}
      {editable && (
        <Button
          variant="minimal"
          icon="filter"
          text={filters.length === 0 ? 'Add filter' : 'Edit filters'}
          onClick={() => setDraft(filters.length === 0 ? [{}] : filters)}
        />
      )}
      <Dialog isOpen={draft !== null} onClose={() => setDraft(null)} title="Dashboard filters">
        <DialogBody>
          {schema && draft ? (
            <FilterForm schema={schema} scope={scope} value={draft} onChange={setDraft} />
          ) : entry?.status === 'error' ? (
            <p className={Classes.TEXT_MUTED}>{entry.error}</p>
          ) : (
            <Spinner size={24} className={Classes.TEXT_MUTED} />
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={() => setDraft(null)} />
              <Button
                intent="primary"
                text="Apply"
                disabled={!schema || invalid}
                onClick={() => {
                  onApply(draft ?? []);
                  setDraft(null);
                }}
              />
            </>
          }
        />
      </Dialog>
    </div>
  );
}
