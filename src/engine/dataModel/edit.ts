import type { CustomField } from '../../contracts/dataModel';
import { renameInExpression } from './expression';

/**
 * Editor operations that keep references intact (spec 1 §4 data-model editor): renaming a field changes its id
 * and every rule and expression that refers to it; removing a field strips the rules that refer to it.
 */

export function renameFieldReferences(fields: readonly CustomField[], fromId: string, toId: string): CustomField[] {
  if (fromId === toId) return [...fields];
  return fields.map((field) => {
    const next: CustomField = { ...field };
    if (field.id === fromId) next.id = toId;
    if (field.rules) {
      next.rules = field.rules.map((rule) => (rule.field === fromId ? { ...rule, field: toId } : rule));
    }
    if (field.expr !== undefined) next.expr = renameInExpression(field.expr, fromId, toId);
    return next;
  });
}

export function removeField(fields: readonly CustomField[], id: string): CustomField[] {
  return fields
    .filter((field) => field.id !== id)
    .map((field) => (field.rules ? { ...field, rules: field.rules.filter((rule) => rule.field !== id) } : field));
}
