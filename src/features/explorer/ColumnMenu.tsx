import {
  Button,
  Classes,
  HTMLSelect,
  Icon,
  InputGroup,
  Menu,
  MenuDivider,
  MenuItem,
  NumericInput,
  PopoverNext,
} from '@blueprintjs/core';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { type ColumnFilter, numberFilterOptions } from '../../engine/gridFilters';
import { debounce } from '../widgets/rich_text/richText';
import { type Pinned, type SortDirection } from './explorerEdits';

/** Spec 2 §9: text filters apply 120 ms after the last key. */
export const TEXT_FILTER_DEBOUNCE_MS = 120;

export const numberOptionLabels: Record<(typeof numberFilterOptions)[number], string> = {
  equals: 'Equals',
  notEqual: 'Does not equal',
  greaterThan: 'Greater than',
  greaterThanOrEqual: 'Greater than or equal to',
  lessThan: 'Less than',
  lessThanOrEqual: 'Less than or equal to',
  inRange: 'In range',
};

export type NumberFilter = Extract<ColumnFilter, { filterType: 'number' }>;
type NumberType = (typeof numberFilterOptions)[number];

/** A filter form's buttons: Apply once the form is complete, Clear while a filter applies. */
function FilterActions(props: { complete: boolean; applied: boolean; onApply(): void; onClear(): void }) {
  return (
    <>
      <Button text="Apply" variant="solid" intent="primary" disabled={!props.complete} onClick={props.onApply} />
      {props.applied && <Button text="Clear" variant="minimal" onClick={props.onClear} />}
    </>
  );
}

/** The number filter of a value column: an option, a value and, in range, a second value. */
function NumberFilterForm({ filter, onChange }: { filter?: NumberFilter; onChange(next: NumberFilter | null): void }) {
  const [type, setType] = useState<NumberType>((filter?.type as NumberType | undefined) ?? 'greaterThan');
  const [from, setFrom] = useState<number | null>(filter?.filter ?? null);
  const [to, setTo] = useState<number | null>(filter?.filterTo ?? null);
  const complete = from !== null && (type !== 'inRange' || to !== null);
  return (
    <div className="or-explorer-filter">
      <HTMLSelect
        aria-label="Filter option"
        value={type}
        onChange={(event) => setType(event.currentTarget.value as NumberType)}
        options={numberFilterOptions.map((value) => ({ value, label: numberOptionLabels[value] }))}
      />
      <NumericInput
        aria-label="Filter value"
        value={from ?? ''}
        onValueChange={(value) => setFrom(Number.isFinite(value) ? value : null)}
        buttonPosition="none"
      />
      {type === 'inRange' && (
        <NumericInput
          aria-label="Filter value to"
          value={to ?? ''}
          onValueChange={(value) => setTo(Number.isFinite(value) ? value : null)}
          buttonPosition="none"
        />
      )}
      <FilterActions
        complete={complete}
        applied={!!filter}
        onApply={() => onChange({ filterType: 'number', type, filter: from, filterTo: type === 'inRange' ? to : null })}
        onClear={() => onChange(null)}
      />
    </div>
  );
}

export type DateFilter = Extract<ColumnFilter, { filterType: 'date' }>;
/** The date options a date column offers (the engine also reads notEqual from older saved views). */
export const dateOptionLabels = { equals: 'Equals', lessThan: 'Before', greaterThan: 'After', inRange: 'In range' };
type DateType = keyof typeof dateOptionLabels;
const isDateType = (type: string | undefined): type is DateType => !!type && type in dateOptionLabels;

/** The date filter of a date dimension: an option, a day and, in range, a last day (both included). */
export function DateFilterForm({
  label,
  filter,
  onChange,
}: {
  label: string;
  filter?: DateFilter;
  onChange(next: DateFilter | null): void;
}) {
  const [type, setType] = useState<DateType>(isDateType(filter?.type) ? filter.type : 'equals');
  const [from, setFrom] = useState((filter?.dateFrom ?? '').slice(0, 10));
  const [to, setTo] = useState((filter?.dateTo ?? '').slice(0, 10));
  const complete = from !== '' && (type !== 'inRange' || to !== '');
  return (
    <div className="or-explorer-filter" role="group" aria-label={label}>
      <HTMLSelect
        aria-label={`${label}: option`}
        value={type}
        onChange={(event) => setType(event.currentTarget.value as DateType)}
        options={Object.entries(dateOptionLabels).map(([value, text]) => ({ value, label: text }))}
      />
      <InputGroup type="date" aria-label={`${label}: date`} value={from} onValueChange={setFrom} />
      {type === 'inRange' && (
        <InputGroup type="date" aria-label={`${label}: to date`} value={to} onValueChange={setTo} />
      )}
      <FilterActions
        complete={complete}
        applied={!!filter}
        onApply={() => onChange({ filterType: 'date', type, dateFrom: from, dateTo: type === 'inRange' ? to : null })}
        onClear={() => onChange(null)}
      />
    </div>
  );
}

/** A text filter (contains) that applies 120 ms after typing stops. */
export function TextFilterInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange(next: string): void;
}) {
  const [text, setText] = useState(value);
  const latest = useRef(onChange);
  latest.current = onChange;
  const apply = useMemo(() => debounce((next: string) => latest.current(next), TEXT_FILTER_DEBOUNCE_MS), []);
  useEffect(() => () => apply.flush(), [apply]);
  // A change from elsewhere (Clear filters, undo) shows in the input.
  useEffect(() => setText(value), [value]);
  return (
    <InputGroup
      aria-label={label}
      placeholder={label}
      leftIcon="filter"
      value={text}
      onValueChange={(next) => {
        setText(next);
        apply(next);
      }}
    />
  );
}

export interface ColumnMenuProps {
  sort: SortDirection | null;
  pinned: Pinned | null;
  onSort(sort: SortDirection | null): void;
  onPin(pinned: Pinned | null): void;
  onHide?: () => void;
  /** Value columns filter their groups by number. */
  numberFilter?: { filter?: NumberFilter; onChange(next: NumberFilter | null): void };
  /** The group column filters its dimensions' rows (text, or dates on date dimensions). */
  dimensionFilters?: ReactNode;
}

/** A column header's menu: sort, pin, hide and (for values) filter. Read-only grids have no menu. */
export function ColumnMenu({ sort, pinned, onSort, onPin, onHide, numberFilter, dimensionFilters }: ColumnMenuProps) {
  return (
    <Menu>
      <MenuItem icon="sort-asc" text="Sort ascending" active={sort === 'asc'} onClick={() => onSort('asc')} />
      <MenuItem icon="sort-desc" text="Sort descending" active={sort === 'desc'} onClick={() => onSort('desc')} />
      {sort && <MenuItem icon="cross" text="Clear sort" onClick={() => onSort(null)} />}
      <MenuDivider />
      <MenuItem icon="pin" text="Pin left" active={pinned === 'left'} onClick={() => onPin('left')} />
      <MenuItem icon="pin" text="Pin right" active={pinned === 'right'} onClick={() => onPin('right')} />
      {pinned && <MenuItem icon="unpin" text="No pin" onClick={() => onPin(null)} />}
      {onHide && <MenuItem icon="eye-off" text="Hide column" onClick={onHide} />}
      {numberFilter && (
        <>
          <MenuDivider title="Filter" />
          <NumberFilterForm {...numberFilter} />
        </>
      )}
      {dimensionFilters && (
        <>
          <MenuDivider title="Filter" />
          <div className="or-explorer-filter">{dimensionFilters}</div>
        </>
      )}
    </Menu>
  );
}

/** Blueprint table's own class names: its styles show the menu button on hover, and its headers ignore a press on it
 * (no column selection or drag starts there). */
const tableClass = (name: string) => `${Classes.getClassNamespace()}-table-${name}`;

/**
 * A column header's name and, where the user may edit, its menu button, drawn as Blueprint's own. Not the table's
 * `menuRenderer`: that mounts, for every header in view, a popover portal and a context-menu portal, and React binds
 * its ~80 event types to each new portal. A pivot's headers spent about 100 ms on that. Here the menu mounts when
 * first opened.
 */
export function ColumnHeaderName({ name, menu }: { name: string; menu?: () => JSX.Element }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {menu && (
        <div
          className={`${tableClass('th-menu-container')}${open ? ` ${tableClass('th-menu-open')}` : ''} or-explorer-th-menu`}
        >
          <div className={tableClass('th-menu-container-background')} />
          <PopoverNext
            lazy
            placement="bottom"
            rootBoundary="document"
            content={menu()}
            onOpening={() => setOpen(true)}
            onClosed={() => setOpen(false)}
            renderTarget={({ isOpen, className, ...target }) => (
              <button
                {...target}
                type="button"
                className={`${tableClass('th-menu')} ${className ?? ''}`}
                aria-label={`Column menu: ${name}`}
                aria-expanded={isOpen}
              >
                <Icon icon="chevron-down" />
              </button>
            )}
          />
        </div>
      )}
      <div className={tableClass('truncated-text')}>{name}</div>
    </>
  );
}
