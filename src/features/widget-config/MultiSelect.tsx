import { Menu, MenuDivider, MenuItem, Popover, TagInput } from '@blueprintjs/core';
import { Fragment, type MouseEvent, useState } from 'react';

export interface SelectOption {
  value: string;
  label: string;
  /** The heading the option is listed under (a field's category). */
  group?: string;
}

export interface MultiSelectProps {
  /** The accessible name of the input. */
  label: string;
  options: readonly SelectOption[];
  values: readonly string[];
  onChange(values: string[]): void;
  placeholder?: string;
  /** The last values cannot be removed below this many (spec 2 §5). @default 0 */
  minValues?: number;
  /** Typed text not among the options is added as a new value. @default false */
  allowCreate?: boolean;
  /** Shown in the list while the options are still coming. @default false */
  loading?: boolean;
  disabled?: boolean;
}

/** At most this many matches are listed at once; typing narrows the rest down. */
const SHOWN_OPTIONS = 200;

/** Picking an option leaves the focus in the input, so typing and Escape keep working there. */
const keepInputFocus = (event: MouseEvent) => event.preventDefault();

const matches = (option: SelectOption, query: string) => option.label.toLowerCase().includes(query.toLowerCase());

/**
 * A searchable multi-select: the chosen values as tags, a filtered list of the others below, Enter
 * picking the first match (or the typed text when new values are allowed).
 */
export function MultiSelect({
  label,
  options,
  values,
  onChange,
  placeholder,
  minValues = 0,
  allowCreate = false,
  loading = false,
  disabled,
}: MultiSelectProps) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const chosen = new Set(values);
  const available = options.filter((option) => !chosen.has(option.value) && matches(option, query));
  const shown = available.slice(0, SHOWN_OPTIONS);
  const labelOf = (value: string) => options.find((option) => option.value === value)?.label ?? value;
  const typed = query.trim();
  const canCreate = allowCreate && typed !== '' && !chosen.has(typed) && !options.some((o) => o.value === typed);

  const add = (value: string) => {
    if (!chosen.has(value)) onChange([...values, value]);
    setQuery('');
  };
  const onEnter = () => {
    const exact = available.find((option) => option.label.toLowerCase() === typed.toLowerCase());
    if (exact ?? (!canCreate && shown[0])) add((exact ?? shown[0]).value);
    else if (canCreate) add(typed);
  };

  const menu = (
    <Menu role="listbox" aria-label={`${label} options`}>
      {canCreate && (
        <MenuItem
          icon="add"
          text={`Add "${typed}"`}
          onClick={() => add(typed)}
          onMouseDown={keepInputFocus}
          shouldDismissPopover={false}
        />
      )}
      {shown.map((option, index) => (
        <Fragment key={option.value}>
          {option.group && option.group !== shown[index - 1]?.group && <MenuDivider title={option.group} />}
          <MenuItem
            text={option.label}
            roleStructure="listoption"
            onClick={() => add(option.value)}
            onMouseDown={keepInputFocus}
            shouldDismissPopover={false}
          />
        </Fragment>
      ))}
      {available.length > shown.length && (
        <MenuItem disabled text={`${available.length - shown.length} more: type to search`} />
      )}
      {loading && <MenuItem disabled text="Loading…" />}
      {!loading && !shown.length && !canCreate && <MenuItem disabled text="Nothing found" />}
    </Menu>
  );

  return (
    <Popover
      content={menu}
      isOpen={open && !disabled}
      onInteraction={(next) => setOpen(next)}
      autoFocus={false}
      enforceFocus={false}
      minimal
      placement="bottom-start"
      matchTargetWidth
      fill
    >
      <TagInput
        fill
        disabled={disabled}
        values={values.map(labelOf)}
        inputValue={query}
        placeholder={placeholder}
        inputProps={{ 'aria-label': label }}
        onInputChange={(event) => {
          setQuery(event.currentTarget.value);
          setOpen(true);
        }}
        onAdd={() => {
          onEnter();
          return false;
        }}
        onKeyDown={(event) => {
          // Escape closes the list only, not the drawer or dialog around it.
          if (event.key === 'Escape' && open) {
            event.stopPropagation();
            setOpen(false);
          }
        }}
        separator={false}
        addOnBlur={false}
        onRemove={(_, index) => {
          if (values.length > minValues) onChange(values.filter((__, i) => i !== index));
        }}
        tagProps={{ minimal: true }}
      />
    </Popover>
  );
}
