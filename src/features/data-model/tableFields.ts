import type { CustomFieldGroup, CustomFieldsBody, SchemaTablesResponse } from '../../contracts/dataModel';
import { mergeCustomFields } from '../../engine/dataModel/validation';
import { isCustomField, type TableField } from './dataModelSlice';

type SchemaTable = SchemaTablesResponse['tables'][number];

/** A table's built-in fields: the schema answer merges the saved custom fields in as virtual fields. */
export const builtInFields = (table: SchemaTable) => table.fields.filter((field) => field.dataSourceType !== 'virtual');

/** A table's fields as the editor edits them: built-in fields with the saved custom fields at their anchors. */
export function tableFields(table: SchemaTable, groups: CustomFieldsBody): TableField[] {
  const own = groups.filter((group) => group.table === table.id);
  return mergeCustomFields<TableField>(builtInFields(table), own).fields;
}

/**
 * A table's custom fields as saved groups: each run of custom fields goes after the built-in field before it,
 * or before the first built-in field when the run opens the table.
 */
export function groupsOfTable(tableId: string, fields: readonly TableField[]): CustomFieldGroup[] {
  const groups: CustomFieldGroup[] = [];
  let anchor: string | null = null;
  let run: CustomFieldGroup['fields'] = [];
  const flush = (next: string | null) => {
    if (run.length === 0) return;
    if (anchor !== null) groups.push({ table: tableId, action: 'insert_after', anchor, fields: run });
    else if (next !== null) groups.push({ table: tableId, action: 'insert_before', anchor: next, fields: run });
    run = [];
  };
  for (const field of fields) {
    if (isCustomField(field)) {
      run.push(field);
      continue;
    }
    flush(field.id);
    anchor = field.id;
  }
  flush(null);
  return groups;
}

/** The whole list a save sends: the other tables' saved groups and this table's new ones. */
export function groupsWithTable(
  saved: CustomFieldsBody,
  tableId: string,
  fields: readonly TableField[],
): CustomFieldsBody {
  return [...saved.filter((group) => group.table !== tableId), ...groupsOfTable(tableId, fields)];
}
