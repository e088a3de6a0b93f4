import { Menu, MenuDivider, MenuItem } from '@blueprintjs/core';
import { type ItemListRenderer, type ItemRenderer, MultiSelect as BlueprintMultiSelect } from '@blueprintjs/select';
import { Fragment, type KeyboardEvent, type MouseEvent, useState } from 'react';

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

const optionOf = (value: string): SelectOption => ({ value, label: value });

/**
 * Blueprint's MultiSelect with the rules our pickers share: the chosen values as tags, the others listed
 * under their group headings (at most SHOWN_OPTIONS of them), Enter picking the first match or the typed
 * text when new values are allowed, and a floor under which tags cannot be removed.
 * Long because Blueprint's MultiSelect takes its item and list renderers as props, and they read the component's query
 * and open state.
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
  // Opening is ours rather than Blueprint's: its own rule waits for the input to hold the focus, and we
  // open on a click or on typing as the pickers always did.
  const [open, setOpen] = useState(false);
  const chosen = new Set(values);
  const available = options.filter((option) => !chosen.has(option.value) && matches(option, query.trim()));
  const shown = available.slice(0, SHOWN_OPTIONS);
  const selected = values.map((value) => options.find((option) => option.value === value) ?? optionOf(value));

  const renderOption: ItemRenderer<SelectOption> = (option, { handleClick, handleFocus, modifiers, ref, id }) => (
    <MenuItem
      key={option.value}
      ref={ref}
      id={id}
      text={option.label}
      roleStructure="listoption"
      active={modifiers.active}
      onClick={handleClick}
      onFocus={handleFocus}
      onMouseDown={keepInputFocus}
      shouldDismissPopover={false}
    />
  );

  const renderList: ItemListRenderer<SelectOption> = ({
    filteredItems,
    renderItem,
    renderCreateItem,
    menuProps,
    itemsParentRef,
  }) => {
    const create = renderCreateItem();
    return (
      <Menu {...menuProps} ulRef={itemsParentRef} role="listbox" aria-label={`${label} options`}>
        {create}
        {filteredItems.map((option, index) => (
          <Fragment key={option.value}>
            {option.group && option.group !== filteredItems[index - 1]?.group && <MenuDivider title={option.group} />}
            {renderItem(option, index)}
          </Fragment>
        ))}
        {available.length > shown.length && (
          <MenuItem disabled text={`${available.length - shown.length} more: type to search`} />
        )}
        {loading && <MenuItem disabled text="Loading…" />}
        {!loading && !filteredItems.length && !create && <MenuItem disabled text="Nothing found" />}
      </Menu>
    );
  };

  return (
    <BlueprintMultiSelect<SelectOption>
      fill
      disabled={disabled}
      items={[...options]}
      itemListPredicate={() => shown}
      itemRenderer={renderOption}
      itemListRenderer={renderList}
      itemsEqual="value"
      selectedItems={selected}
      tagRenderer={(option) => option.label}
      query={query}
      onQueryChange={(next) => {
        setQuery(next);
        setOpen(true);
      }}
      resetOnSelect
      onItemSelect={(option) => {
        if (!chosen.has(option.value)) onChange([...values, option.value]);
      }}
      onRemove={(_, index) => {
        if (values.length > minValues) onChange(values.filter((__, i) => i !== index));
      }}
      createNewItemFromQuery={allowCreate ? (typed) => optionOf(typed) : undefined}
      createNewItemRenderer={
        allowCreate
          ? (typed, active, handleClick) =>
              chosen.has(typed) ? undefined : (
                <MenuItem
                  icon="add"
                  text={`Add "${typed}"`}
                  active={active}
                  onClick={handleClick}
                  onMouseDown={keepInputFocus}
                  shouldDismissPopover={false}
                />
              )
          : undefined
      }
      createNewItemPosition="first"
      placeholder={placeholder ?? ''}
      popoverProps={{
        isOpen: open && !disabled,
        onInteraction: (next) => setOpen(next),
        matchTargetWidth: true,
        placement: 'bottom-start',
      }}
      popoverTargetProps={{
        // Blueprint stops Escape here, so it closes the list only, not the drawer or dialog around it.
        onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
          if (event.key === 'Escape') setOpen(false);
        },
      }}
      tagInputProps={{ inputProps: { 'aria-label': label }, tagProps: { minimal: true } }}
    />
  );
}
