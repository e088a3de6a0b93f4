import type { CustomField } from '../../contracts/dataModel';
import type { Field } from '../../contracts/datasets';
import { expressionFieldIds, renameInExpression } from './expression';

/**
 * Editor operations that keep references intact (spec 1 §4 data-model editor): renaming a field changes its id
 * and every rule and expression that refers to it; removing a field strips the rules that refer to it.
 * They work on custom fields and on a table's whole list (built-in fields never refer to custom ones).
 */

/** What the operations read of a field: its id, its rules' fields and its expression. */
export interface ReferringField {
  id?: string;
  rules?: readonly { field?: string }[];
  expr?: string;
}

export function renameFieldReferences<T extends ReferringField>(
  fields: readonly T[],
  fromId: string,
  toId: string,
): T[] {
  if (fromId === toId) return [...fields];
  return fields.map((field) => {
    const next: T = { ...field };
    if (field.id === fromId) next.id = toId;
    if (field.rules) {
      next.rules = field.rules.map((rule) => (rule.field === fromId ? { ...rule, field: toId } : rule));
    }
    if (field.expr !== undefined) next.expr = renameInExpression(field.expr, fromId, toId);
    return next;
  });
}

export function removeField<T extends ReferringField>(fields: readonly T[], id: string): T[] {
  return fields
    .filter((field) => field.id !== id)
    .map((field) => (field.rules ? { ...field, rules: field.rules.filter((rule) => rule.field !== id) } : field));
}

/** The ids a field refers to: its expression's fields and its rules' fields. */
export function fieldDependencies(field: ReferringField): Set<string> {
  const ids = new Set(field.expr ? expressionFieldIds(field.expr) : []);
  for (const rule of field.rules ?? []) if (rule.field) ids.add(rule.field);
  return ids;
}

/** Whether moving fields[from] to position `to` keeps every field after the fields it depends on. */
export function canMoveField(fields: readonly ReferringField[], from: number, to: number): boolean {
  const moved = fields[from];
  if (!moved?.id || to < 0 || to >= fields.length) return false;
  const crossed = from < to ? fields.slice(from + 1, to + 1) : fields.slice(to, from);
  const needs = fieldDependencies(moved);
  return crossed.every((other) => !(other.id && needs.has(other.id)) && !fieldDependencies(other).has(moved.id!));
}

/** A saved custom field as a schema field: computed, so dataSourceType 'virtual'. */
export function customFieldToField(field: CustomField): Field {
  const base: Field = {
    id: field.id ?? '',
    name: field.name ?? '',
    shortName: field.shortName ?? field.name ?? '',
    label: field.label ?? field.name ?? '',
    category: field.category ?? '',
    format: field.format as Field['format'],
    type: field.type === 'metric' ? 'metric' : 'dimension',
    features: field.features,
    dataSourceType: 'virtual',
  };
  if (base.type === 'metric') {
    return { ...base, expr: field.expr, agg: { type: 'custom', expression: field.expr ?? '' } };
  }
  return {
    ...base,
    rules: (field.rules ?? []).map((rule) => ({
      field: rule.field ?? '',
      type: rule.type ?? 'equals',
      value: rule.value ?? '',
      result: rule.result ?? '',
    })),
    rules_else: field.rules_else ?? null,
  };
}
