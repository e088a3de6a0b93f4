import { Button, Classes, Collapse, InputGroup, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useState, type DragEvent, type FormEvent } from 'react';
import type { SchemaTablesResponse } from '../../contracts/dataModel';
import { fieldMessages } from '../../engine/dataModel/validation';
import { FieldGroup } from '../shell/components/FieldGroup';
import { isCustomField, type TableField } from './dataModelSlice';

type Table = SchemaTablesResponse['tables'][number];

export interface FieldTreeProps {
  tables: Table[];
  /** The edited table and its fields as edited (the other tables show their saved fields). */
  tableId: string | undefined;
  fields: TableField[];
  selectedId: string | undefined;
  errorIds: ReadonlySet<string>;
  onSelect(tableId: string, fieldId?: string): void;
  onMove(fieldId: string, to: number): void;
  onAdd(type: 'metric' | 'dimension', name: string): void;
}

/** A table's fields grouped by category, each group in table order (categories by first appearance). */
function byCategory(fields: readonly TableField[]): [string, { field: TableField; index: number }[]][] {
  const groups = new Map<string, { field: TableField; index: number }[]>();
  fields.forEach((field, index) => {
    const category = field.category || 'Other';
    groups.set(category, [...(groups.get(category) ?? []), { field, index }]);
  });
  return [...groups];
}

function AddFieldForm({ type, onAdd }: { type: 'metric' | 'dimension'; onAdd: FieldTreeProps['onAdd'] }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setError(fieldMessages.addFieldNameRequired);
      return;
    }
    onAdd(type, name);
  };
  return (
    <form className="or-data-model-add" onSubmit={submit}>
      <FieldGroup
        label={type === 'metric' ? 'Metric name' : 'Dimension name'}
        labelFor="or-data-model-add-name"
        error={error}
      >
        <InputGroup id="or-data-model-add-name" autoFocus value={name} onValueChange={setName} />
      </FieldGroup>
      <Button type="submit" intent="primary" text="Add" />
    </form>
  );
}

function AddFieldMenu({ onAdd }: Pick<FieldTreeProps, 'onAdd'>) {
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<'metric' | 'dimension' | null>(null);
  const add: FieldTreeProps['onAdd'] = (fieldType, name) => {
    setOpen(false);
    onAdd(fieldType, name);
  };
  return (
    <PopoverNext
      placement="bottom-start"
      isOpen={open}
      onInteraction={setOpen}
      onClosed={() => setType(null)}
      content={
        type ? (
          <AddFieldForm type={type} onAdd={add} />
        ) : (
          <Menu>
            <MenuItem icon="tag" text="Dimension" shouldDismissPopover={false} onClick={() => setType('dimension')} />
            <MenuItem icon="numerical" text="Metric" shouldDismissPopover={false} onClick={() => setType('metric')} />
          </Menu>
        )
      }
    >
      <Button icon="add" variant="minimal" text="Add field" />
    </PopoverNext>
  );
}

/**
 * The left side of the editor: every table, collapsible, its fields by category. Custom fields of the edited
 * table can be dragged to another place; built-in fields stay where they are.
 */
export function FieldTree({ tables, tableId, fields, selectedId, errorIds, onSelect, onMove, onAdd }: FieldTreeProps) {
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  const [dragged, setDragged] = useState<string | null>(null);

  const drop = (event: DragEvent, index: number) => {
    event.preventDefault();
    if (dragged) onMove(dragged, index);
    setDragged(null);
  };

  return (
    <nav className="or-data-model-tree" aria-label="Tables">
      {tables.map((table) => {
        const open = !collapsed[table.id];
        const edited = table.id === tableId;
        const tableFields = edited ? fields : table.fields;
        return (
          <section key={table.id}>
            <div className="or-data-model-table">
              <Button
                variant="minimal"
                icon={open ? 'chevron-down' : 'chevron-right'}
                aria-label={`${open ? 'Collapse' : 'Expand'} ${table.title}`}
                onClick={() => setCollapsed({ ...collapsed, [table.id]: open })}
              />
              <Button
                variant="minimal"
                active={edited && !selectedId}
                text={table.title}
                onClick={() => onSelect(table.id)}
              />
              {edited && <AddFieldMenu onAdd={onAdd} />}
            </div>
            <Collapse isOpen={open}>
              {byCategory(tableFields).map(([category, entries]) => (
                <div key={category} className="or-data-model-category">
                  <div className={Classes.TEXT_MUTED}>{category}</div>
                  <ul aria-label={`${table.title}: ${category}`}>
                    {entries.map(({ field, index }) => {
                      const custom = edited && isCustomField(field);
                      return (
                        <li
                          key={field.id}
                          draggable={custom}
                          onDragStart={() => setDragged(field.id ?? null)}
                          onDragOver={edited ? (event) => event.preventDefault() : undefined}
                          onDrop={edited ? (event) => drop(event, index) : undefined}
                        >
                          <Button
                            variant="minimal"
                            alignText="start"
                            fill
                            icon={field.type === 'metric' ? 'numerical' : 'tag'}
                            active={edited && field.id === selectedId}
                            intent={edited && errorIds.has(field.id ?? '') ? 'danger' : 'none'}
                            text={field.name || field.id}
                            endIcon={custom ? 'drag-handle-vertical' : undefined}
                            onClick={() => onSelect(table.id, field.id)}
                          />
                        </li>
                      );
                    })}
                  </ul>
                </div>
              ))}
            </Collapse>
          </section>
        );
      })}
    </nav>
  );
}
