import { ruleConditions, type CustomField, type CustomFieldGroup } from '../../contracts/dataModel';
import { dimensionFormats, measureFormats, type Field } from '../../contracts/datasets';
import { isCountryCode } from './countries';
import { validateExpression } from './expression';

/**
 * The data-model field rules of spec 1 §5, shared by the editor (per-field messages) and the server (the
 * first message of a save). Messages in quotes in the spec are reproduced word for word.
 */

export const fieldMessages = {
  idRequired: 'Field id is required',
  idUnique: 'Field id must be unique',
  nameRequired: 'Please provide a name',
  nameTooLong: 'Name cannot be longer than 64 characters',
  addFieldNameRequired: 'Field name is required',
  categoryRequired: 'Please provide a category',
  formatInvalid: 'Please choose a valid format',
  typeInvalid: 'Type must be dimension or metric',
  atLeastOneRule: 'Must have at least one rule',
  ruleFieldRequired: 'Field is required',
  ruleValueRequired: 'Please provide a value',
  ruleValueInvalid: 'Invalid value for selected field type',
  ruleConditionInvalid: 'Invalid condition type for selected field',
  booleanValue: 'Must be true or false',
  countryRequired: 'Please provide a country',
  countryInvalid: 'Must be a valid country',
  numberInvalid: 'Must be a valid number',
  valueRequired: 'Value is required',
  resolveErrors: 'Resolve errors to save changes',
  finishRule: 'Finish existing rule before adding a new one',
} as const;

export const NAME_MAX_LENGTH = 64;
/** Suffixes tried after a derived id is taken: name_1 … name_100. */
export const MAX_ID_SUFFIX = 100;

/** A field the rules can check: built-in fields and custom fields alike (custom ones are loose until checked). */
export type ModelField = Pick<Field, 'id' | 'type' | 'format'> & Partial<Field>;

export interface RuleErrors {
  field?: string;
  type?: string;
  value?: string;
}

export interface FieldErrors {
  id?: string;
  name?: string;
  category?: string;
  format?: string;
  type?: string;
  expr?: string;
  rules?: string;
  /** Per rule, in rule order; an entry is empty when that rule is fine. */
  ruleErrors?: RuleErrors[];
}

/** The id a field name gives: lowercase, every non-alphanumeric an underscore, underscores trimmed at both ends. */
export function fieldIdFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * A free id for a new or renamed field: the derived id, else with suffix _1 … _100, else the error
 * 'Field id must be unique'.
 */
export function deriveFieldId(name: string, takenIds: ReadonlySet<string>): { id: string } | { error: string } {
  const base = fieldIdFromName(name);
  if (base === '') return { error: fieldMessages.addFieldNameRequired };
  if (!takenIds.has(base)) return { id: base };
  for (let suffix = 1; suffix <= MAX_ID_SUFFIX; suffix++) {
    const candidate = `${base}_${suffix}`;
    if (!takenIds.has(candidate)) return { id: candidate };
  }
  return { error: fieldMessages.idUnique };
}

/** Conditions a rule on a field of this format may use. */
export function allowedConditions(format: string): readonly string[] {
  return format === 'string' ? ruleConditions.filter((condition) => condition !== 'regex') : ['equals'];
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function isNumeric(value: string | number | boolean): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string') return false;
  return /^-?\d+(\.\d+)?$/.test(value.trim());
}

function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function integerIn(value: string | number | boolean, min: number, max: number): boolean {
  if (!isNumeric(value)) return false;
  const number = Number(value);
  return Number.isInteger(number) && number >= min && number <= max;
}

/** The message for a rule value compared with a field of `format`, or undefined when it fits. */
export function ruleValueError(format: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return fieldMessages.ruleValueRequired;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    return fieldMessages.ruleValueInvalid;
  }
  switch (format) {
    case 'boolean':
      return value === true || value === false || value === 'true' || value === 'false'
        ? undefined
        : fieldMessages.booleanValue;
    case 'country':
      if (isEmpty(value)) return fieldMessages.countryRequired;
      return typeof value === 'string' && isCountryCode(value) ? undefined : fieldMessages.countryInvalid;
    case 'number_text':
      return isNumeric(value) ? undefined : fieldMessages.numberInvalid;
    default:
      break;
  }
  if (isEmpty(value)) return fieldMessages.valueRequired;
  switch (format) {
    case 'weekday':
      return integerIn(value, 0, 6) ? undefined : fieldMessages.ruleValueInvalid;
    case 'month':
      return integerIn(value, 1, 12) ? undefined : fieldMessages.ruleValueInvalid;
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? undefined : fieldMessages.ruleValueInvalid;
    case 'string':
    case 'url':
      return typeof value === 'string' ? undefined : fieldMessages.ruleValueInvalid;
    default:
      // Measure formats: a number.
      return isNumeric(value) ? undefined : fieldMessages.ruleValueInvalid;
  }
}

/**
 * Every error of the field at `index` of `fields` (the table's fields in display order, built-in and custom).
 * A metric may use only metrics earlier in the list; a dimension rule only fields earlier in the list.
 */
export function validateField(fields: readonly ModelField[], index: number): FieldErrors {
  const field = fields[index] as ModelField & Partial<CustomField>;
  const errors: FieldErrors = {};
  if (isEmpty(field.id)) errors.id = fieldMessages.idRequired;
  else if (fields.some((other, otherIndex) => otherIndex !== index && other.id === field.id)) {
    errors.id = fieldMessages.idUnique;
  }
  if (isEmpty(field.name)) errors.name = fieldMessages.nameRequired;
  else if ((field.name ?? '').length > NAME_MAX_LENGTH) errors.name = fieldMessages.nameTooLong;
  if (isEmpty(field.category)) errors.category = fieldMessages.categoryRequired;

  const earlier = fields.slice(0, index);
  if (field.type === 'metric') {
    if (!(measureFormats as readonly string[]).includes(field.format)) errors.format = fieldMessages.formatInvalid;
    const metrics = new Set(earlier.filter((other) => other.type === 'metric').map((other) => other.id));
    const exprError = validateExpression(field.expr, metrics);
    if (exprError) errors.expr = exprError;
  } else if (field.type === 'dimension') {
    if (!(dimensionFormats as readonly string[]).includes(field.format)) errors.format = fieldMessages.formatInvalid;
    const rules = field.rules ?? [];
    if (rules.length === 0) errors.rules = fieldMessages.atLeastOneRule;
    const byId = new Map(earlier.filter((other) => other.type === 'dimension').map((other) => [other.id, other]));
    const ruleErrors = rules.map((rule) => {
      const ruleError: RuleErrors = {};
      const target = rule.field ? byId.get(rule.field) : undefined;
      if (!target) {
        ruleError.field = fieldMessages.ruleFieldRequired;
        return ruleError;
      }
      if (!rule.type || !allowedConditions(target.format).includes(rule.type)) {
        ruleError.type = fieldMessages.ruleConditionInvalid;
      }
      const valueError = ruleValueError(target.format, rule.value);
      if (valueError) ruleError.value = valueError;
      return ruleError;
    });
    if (ruleErrors.some((ruleError) => Object.keys(ruleError).length > 0)) errors.ruleErrors = ruleErrors;
  } else {
    errors.type = fieldMessages.typeInvalid;
  }
  return errors;
}

/** The first message of a field's errors, in the order the editor shows them. */
export function firstFieldError(errors: FieldErrors): string | undefined {
  const ruleMessage = errors.ruleErrors?.flatMap((rule) => [rule.field, rule.type, rule.value]).find(Boolean);
  return (
    errors.id ??
    errors.name ??
    errors.category ??
    errors.type ??
    errors.format ??
    errors.expr ??
    errors.rules ??
    ruleMessage
  );
}

/** Where a table's custom fields land: each group after or before its anchor, groups applied in order. */
export function mergeCustomFields<T extends { id?: string }>(
  builtIn: readonly Field[],
  groups: readonly { action: CustomFieldGroup['action']; anchor: string; fields: readonly T[] }[],
): { fields: (Field | T)[]; error?: string } {
  const fields: (Field | T)[] = [...builtIn];
  for (const group of groups) {
    const anchor = fields.findIndex((field) => field.id === group.anchor);
    if (anchor < 0) return { fields, error: `Unknown field ${group.anchor}` };
    const position = group.action === 'insert_after' ? anchor + 1 : anchor;
    fields.splice(position, 0, ...group.fields);
  }
  return { fields };
}

/**
 * The first error of a whole save of custom fields (every group of the workspace), or null. `tables` gives
 * each known table's built-in fields. Each custom field is checked in its final position in its table.
 */
export function validateCustomFieldGroups(
  groups: readonly CustomFieldGroup[],
  tables: ReadonlyMap<string, readonly Field[]>,
): string | null {
  const tableIds = [...new Set(groups.map((group) => group.table))];
  for (const tableId of tableIds) {
    const builtIn = tables.get(tableId);
    if (!builtIn) return `Unknown table ${tableId}`;
    const { fields, error } = mergeCustomFields(
      builtIn,
      groups.filter((group) => group.table === tableId),
    );
    if (error) return error;
    const modelFields = fields as ModelField[];
    const builtInIds = new Set(builtIn.map((field) => field.id));
    for (let index = 0; index < modelFields.length; index++) {
      if (builtInIds.has(modelFields[index].id) && !('custom' in modelFields[index])) continue;
      const message = firstFieldError(validateField(modelFields, index));
      if (message) return message;
    }
  }
  return null;
}
