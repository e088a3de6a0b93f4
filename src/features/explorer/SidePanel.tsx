import { Button, Checkbox, H6, HTMLSelect } from '@blueprintjs/core';
import { memo } from 'react';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ExplorerConfig } from '../../contracts/reports';
import { fieldLabel } from '../widgets/widgetQuery';
import { DimensionFilter } from './DimensionFilter';
import {
  type GridLayout,
  columnHidden,
  columnsOf,
  movedInList,
  pivotChanged,
  rowGroupChanged,
  valueColumnChanged,
  valueOrder,
} from './explorerEdits';
import { type GridFilters } from './useFilterModel';

const NO_PIVOT = '';

export interface SidePanelProps {
  schema: DatasetSchema;
  config: ExplorerConfig;
  layout: GridLayout;
  onEdit(edit: (config: ExplorerConfig) => ExplorerConfig): void;
  filters: GridFilters;
}

interface OrderListProps {
  title: string;
  ids: string[];
  label(id: string): string;
  onMove(id: string, step: -1 | 1): void;
}

/** A list the user reorders one place at a time (the keyboard reaches it, unlike a header drag). */
function OrderList({ title, ids, label, onMove }: OrderListProps) {
  if (ids.length < 2) return null;
  return (
    <>
      <H6>{title}</H6>
      {ids.map((id, index) => (
        <div key={id} className="or-explorer-panel-order">
          <span>{label(id)}</span>
          <span>
            <Button
              size="small"
              variant="minimal"
              icon="arrow-up"
              aria-label={`Move ${label(id)} up`}
              disabled={index === 0}
              onClick={() => onMove(id, -1)}
            />
            <Button
              size="small"
              variant="minimal"
              icon="arrow-down"
              aria-label={`Move ${label(id)} down`}
              disabled={index === ids.length - 1}
              onClick={() => onMove(id, 1)}
            />
          </span>
        </div>
      ))}
    </>
  );
}

/**
 * The grid's side panel: row groups, the pivot, value columns (shown or hidden) and dimension filters.
 * Long because it is one form over the panel's five sections, each control a few lines.
 */
export const SidePanel = memo(function SidePanel({ schema, config, layout, onEdit, filters }: SidePanelProps) {
  const dimensions = schema.fields.filter((field) => field.type === 'dimension');
  const metrics = schema.fields.filter((field) => field.type === 'metric');
  const labelOf = (id: string) => {
    const field = schema.fields.find((f) => f.id === id);
    return field ? fieldLabel(field) : id;
  };
  const values = valueOrder(config, layout.metrics);
  const hidden = new Set(columnsOf(config).flatMap((column) => (column.hide ? [column.colId] : [])));
  return (
    <aside className="or-explorer-panel" aria-label="Columns panel">
      <H6>Row groups</H6>
      {dimensions.map((field) => (
        <Checkbox
          key={field.id}
          label={fieldLabel(field)}
          checked={layout.rowGroups.includes(field.id)}
          onChange={(event) => {
            const grouped = event.currentTarget.checked;
            onEdit((current) => rowGroupChanged(current, field.id, grouped));
          }}
        />
      ))}
      <H6>Pivot</H6>
      <HTMLSelect
        aria-label="Pivot by"
        fill
        value={layout.pivot ?? NO_PIVOT}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onEdit((current) => pivotChanged(current, value === NO_PIVOT ? null : value));
        }}
        options={[
          { value: NO_PIVOT, label: 'No pivot' },
          ...dimensions.map((field) => ({ value: field.id, label: fieldLabel(field) })),
        ]}
      />
      <H6>Values</H6>
      {metrics.map((field) => {
        const shown = layout.metrics.includes(field.id);
        return (
          <div key={field.id} className="or-explorer-panel-value">
            <Checkbox
              label={fieldLabel(field)}
              checked={shown}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                onEdit((current) => valueColumnChanged(current, field.id, checked));
              }}
            />
            {shown && (
              <Checkbox
                aria-label={`Show ${fieldLabel(field)}`}
                checked={!hidden.has(field.id)}
                onChange={(event) => {
                  const visible = event.currentTarget.checked;
                  onEdit((current) => columnHidden(current, field.id, !visible));
                }}
              />
            )}
          </div>
        );
      })}
      <OrderList
        title="Group order"
        ids={layout.rowGroups}
        label={labelOf}
        onMove={(id, step) => onEdit((current) => movedInList(current, layout.rowGroups, id, step))}
      />
      <OrderList
        title="Column order"
        ids={values}
        label={labelOf}
        onMove={(id, step) => onEdit((current) => movedInList(current, values, id, step))}
      />
      <H6>Filters</H6>
      {dimensions.map((field) => (
        <DimensionFilter key={field.id} field={field} filters={filters} />
      ))}
    </aside>
  );
});
