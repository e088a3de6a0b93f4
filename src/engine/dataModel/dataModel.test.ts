import { getCatalogueDataset } from '../../contracts/catalogue';
import type { CustomField, CustomFieldGroup } from '../../contracts/dataModel';
import type { Field } from '../../contracts/datasets';
import { compileDimensionRules, compileMetricExpression, defaultSqlRenderer, DataModelCompileError } from './compile';
import { removeField, renameFieldReferences } from './edit';
import { expressionMessages, validateExpression } from './expression';
import {
  deriveFieldId,
  fieldIdFromName,
  fieldMessages,
  validateCustomFieldGroups,
  validateField,
  type ModelField,
} from './validation';

const metrics = new Set(['sent', 'delivered', 'open', 'clicks_unique', 'revenue', 'x1']);

const expressionErrors: [string, string][] = [
  ['', expressionMessages.required],
  ['   ', expressionMessages.required],
  ['open % delivered', expressionMessages.invalidTokens],
  ['open / unknown_field', expressionMessages.invalidTokens],
  ['sent; drop table', expressionMessages.invalidTokens],
  ['* open', expressionMessages.invalidTokens],
  ['open)', expressionMessages.unexpectedClose],
  ['(open + sent))', expressionMessages.unexpectedClose],
  ['(open + sent', expressionMessages.missingClose],
  ['((open)', expressionMessages.missingClose],
  ['(open / sent)', expressionMessages.divisionInParentheses],
  ['open +', expressionMessages.endsWithOperator],
  ['open / sent -', expressionMessages.endsWithOperator],
  ['open + (', expressionMessages.endsWithOpen],
  ['(', expressionMessages.endsWithOpen],
  ['open sent', expressionMessages.twoOperands],
  ['open 100', expressionMessages.twoOperands],
  ['(open) sent', expressionMessages.twoOperands],
  ['open (sent)', expressionMessages.twoOperands],
  ['open + * sent', expressionMessages.twoOperators],
  ['open - - sent', expressionMessages.twoOperators],
  ['(open + ) * 2', expressionMessages.closeAfterOperator],
  ['( * open)', expressionMessages.operatorAfterOpen],
  ['open / sent / delivered', expressionMessages.oneDivision],
];

describe('metric expressions', () => {
  it.each(expressionErrors)('%j → %s', (expression, message) => {
    expect(validateExpression(expression, metrics)).toBe(message);
  });

  it('covers every message of spec 1 §5 in the table above', () => {
    expect(new Set(expressionErrors.map(([, message]) => message))).toEqual(new Set(Object.values(expressionMessages)));
  });

  it.each([
    'open / delivered',
    'open',
    '100 * clicks_unique / delivered',
    '(open + clicks_unique) * 2 / (sent - delivered)',
    'revenue / 1.21',
    'x1+x1*  3',
    '((open))',
  ])('accepts %j', (expression) => {
    expect(validateExpression(expression, metrics)).toBeNull();
  });
});

describe('field ids', () => {
  it.each([
    ['Open rate', 'open_rate'],
    ['  Revenue (EUR) ', 'revenue__eur'],
    ['Click-to-open', 'click_to_open'],
    ['ÜBER', 'ber'],
    ['A1', 'a1'],
  ])('%j → %s', (name, id) => {
    expect(fieldIdFromName(name)).toBe(id);
  });

  it('adds the suffixes _1 to _100, then says the id must be unique', () => {
    const taken = new Set(['margin']);
    expect(deriveFieldId('Margin', taken)).toEqual({ id: 'margin_1' });
    for (let i = 1; i <= 99; i++) taken.add(`margin_${i}`);
    expect(deriveFieldId('Margin', taken)).toEqual({ id: 'margin_100' });
    taken.add('margin_100');
    expect(deriveFieldId('Margin', taken)).toEqual({ error: 'Field id must be unique' });
    expect(deriveFieldId('  ', taken)).toEqual({ error: 'Field name is required' });
  });
});

const builtIn = getCatalogueDataset('campaign_metrics_by_send_date')!.fields;

function custom(overrides: Partial<CustomField>): CustomField {
  return {
    id: 'f',
    name: 'F',
    category: 'Custom',
    format: 'string',
    type: 'dimension',
    features: [],
    custom: true,
    ...overrides,
  };
}

function errorsOf(field: CustomField) {
  const fields: ModelField[] = [...builtIn, field as ModelField];
  return validateField(fields, fields.length - 1);
}

describe('field validation', () => {
  it.each<[string, Partial<CustomField>, string, string]>([
    ['missing id', { id: '' }, 'id', 'Field id is required'],
    ['id of a built-in field', { id: 'country' }, 'id', 'Field id must be unique'],
    ['missing name', { name: ' ' }, 'name', 'Please provide a name'],
    ['long name', { name: 'x'.repeat(65) }, 'name', 'Name cannot be longer than 64 characters'],
    ['missing category', { category: '' }, 'category', 'Please provide a category'],
    [
      'metric with a dimension format',
      { type: 'metric', format: 'country', expr: 'sent' },
      'format',
      fieldMessages.formatInvalid,
    ],
    ['unknown type', { type: 'table' }, 'type', fieldMessages.typeInvalid],
    ['metric without expression', { type: 'metric', format: 'number' }, 'expr', 'Expression is required'],
    ['dimension without rules', { rules: [] }, 'rules', 'Must have at least one rule'],
  ])('%s', (_label, overrides, key, message) => {
    const field = custom({ rules: [{ field: 'country', type: 'equals', value: 'NL', result: 'Home' }], ...overrides });
    expect(errorsOf(field)[key as 'id']).toBe(message);
  });

  it('accepts a 64-character name', () => {
    expect(
      errorsOf(custom({ name: 'x'.repeat(64), rules: [{ field: 'country', type: 'equals', value: 'NL', result: 1 }] })),
    ).toEqual({});
  });

  it.each<[string, { field?: string; type?: string; value?: string | number | boolean | null }, string, string]>([
    ['no field', { field: '', type: 'equals', value: 'x' }, 'field', 'Field is required'],
    ['unknown field', { field: 'nope', type: 'equals', value: 'x' }, 'field', 'Field is required'],
    [
      'regex on a string',
      { field: 'campaign_name', type: 'regex', value: 'x' },
      'type',
      'Invalid condition type for selected field',
    ],
    [
      'contains on a country',
      { field: 'country', type: 'contains', value: 'NL' },
      'type',
      'Invalid condition type for selected field',
    ],
    ['no value', { field: 'campaign_name', type: 'contains', value: null }, 'value', 'Please provide a value'],
    ['empty string value', { field: 'campaign_name', type: 'contains', value: '' }, 'value', 'Value is required'],
    ['boolean', { field: 'is_ab_test', type: 'equals', value: 'yes' }, 'value', 'Must be true or false'],
    ['empty country', { field: 'country', type: 'equals', value: '' }, 'value', 'Please provide a country'],
    ['unknown country', { field: 'country', type: 'equals', value: 'XX' }, 'value', 'Must be a valid country'],
    ['number_text', { field: 'send_hour', type: 'equals', value: 'nine' }, 'value', 'Must be a valid number'],
    [
      'weekday out of range',
      { field: 'send_weekday', type: 'equals', value: 7 },
      'value',
      'Invalid value for selected field type',
    ],
    [
      'month out of range',
      { field: 'send_month', type: 'equals', value: '13' },
      'value',
      'Invalid value for selected field type',
    ],
    [
      'impossible date',
      { field: 'send_date', type: 'equals', value: '2026-02-30' },
      'value',
      'Invalid value for selected field type',
    ],
  ])('rule: %s', (_label, rule, key, message) => {
    const errors = errorsOf(custom({ rules: [{ ...rule, result: 'r' }] }));
    expect(errors.ruleErrors?.[0][key as 'field']).toBe(message);
  });

  it.each<[string, string | number | boolean]>([
    ['is_ab_test', true],
    ['is_ab_test', 'false'],
    ['country', 'UK'],
    ['country', 'nl'],
    ['send_hour', '9'],
    ['send_weekday', 0],
    ['send_month', '12'],
    ['send_date', '2024-02-29'],
    ['campaign_name', 'Black Friday'],
  ])('rule on %s accepts %j', (field, value) => {
    expect(errorsOf(custom({ rules: [{ field, type: 'equals', value, result: 'r' }] }))).toEqual({});
  });

  it('lets a metric use only metrics earlier in the list', () => {
    const first = custom({ id: 'a', type: 'metric', format: 'number', expr: 'sent - b' });
    const second = custom({ id: 'b', type: 'metric', format: 'number', expr: 'sent' });
    const fields = [...builtIn, first, second] as ModelField[];
    expect(validateField(fields, fields.length - 2).expr).toBe('Expression contains invalid tokens');
    const swapped = [...builtIn, second, first] as ModelField[];
    expect(validateField(swapped, swapped.length - 1)).toEqual({});
  });
});

describe('a whole save', () => {
  const tables = new Map([['campaign_metrics_by_send_date', builtIn]]);
  const group = (fields: CustomField[], anchor = 'revenue'): CustomFieldGroup => ({
    table: 'campaign_metrics_by_send_date',
    action: 'insert_after',
    anchor,
    fields,
  });

  it('accepts valid groups and gives the first error otherwise', () => {
    const margin = custom({ id: 'margin', name: 'Margin', type: 'metric', format: 'currency', expr: 'revenue * 0.3' });
    expect(validateCustomFieldGroups([group([margin])], tables)).toBeNull();
    // Placed before `revenue`, the metric may not use it.
    expect(validateCustomFieldGroups([{ ...group([margin]), action: 'insert_before' }], tables)).toBe(
      'Expression contains invalid tokens',
    );
    expect(validateCustomFieldGroups([group([margin, { ...margin, name: 'Other' }])], tables)).toBe(
      'Field id must be unique',
    );
    expect(validateCustomFieldGroups([group([margin], 'nope')], tables)).toBe('Unknown field nope');
    expect(validateCustomFieldGroups([{ ...group([margin]), table: 'nope' }], tables)).toBe('Unknown table nope');
  });
});

describe('renames and removals', () => {
  const fields: CustomField[] = [
    custom({ id: 'region', rules: [{ field: 'country', type: 'equals', value: 'NL', result: 'Benelux' }] }),
    custom({
      id: 'zone',
      rules: [
        { field: 'region', type: 'equals', value: 'Benelux', result: 'EU' },
        { field: 'country', type: 'equals', value: 'US', result: 'NA' },
      ],
    }),
    custom({ id: 'm1', type: 'metric', format: 'number', expr: 'open / sent' }),
    custom({ id: 'm2', type: 'metric', format: 'number', expr: 'm1*100' }),
  ];

  it('renaming updates the rules and expressions that refer to the field', () => {
    const renamed = renameFieldReferences(fields, 'region', 'area');
    expect(renamed.map((f) => f.id)).toEqual(['area', 'zone', 'm1', 'm2']);
    expect(renamed[1].rules?.[0].field).toBe('area');
    const metricRenamed = renameFieldReferences(fields, 'm1', 'ratio');
    expect(metricRenamed[3].expr).toBe('ratio * 100');
  });

  it('removing strips the rules that refer to the field', () => {
    const removed = removeField(fields, 'region');
    expect(removed.map((f) => f.id)).toEqual(['zone', 'm1', 'm2']);
    expect(removed[0].rules).toEqual([{ field: 'country', type: 'equals', value: 'US', result: 'NA' }]);
  });
});

describe('compilation', () => {
  const extra: Field[] = [
    {
      id: 'ctr',
      name: 'CTR',
      category: 'C',
      format: 'percent',
      type: 'metric',
      features: [],
      agg: { type: 'custom', expression: 'clicks_unique / delivered' },
    },
    { id: 'ctr_pct', name: 'CTR %', category: 'C', format: 'number', type: 'metric', features: [], expr: '100 * ctr' },
    {
      id: 'region',
      name: 'Region',
      category: 'C',
      format: 'string',
      type: 'dimension',
      features: [],
      rules: [
        { field: 'country', type: 'equals', value: 'UK', result: "O'Britain" },
        { field: 'campaign_name', type: 'contains', value: 'Black', result: 'BF' },
      ],
      rules_else: 'Other',
    },
  ];
  const byId = new Map([...builtIn, ...extra].map((field) => [field.id, field]));
  const sql = defaultSqlRenderer(byId);

  it('turns a division into a ratio of aggregates and inlines custom metrics', () => {
    expect(compileMetricExpression(extra[0], byId, sql)).toBe(
      '(((SUM("clicks_unique"))) / NULLIF(((SUM("delivered"))), 0))',
    );
    expect(compileMetricExpression(extra[1], byId, sql)).toBe(
      '(100 * (((SUM("clicks_unique"))) / NULLIF(((SUM("delivered"))), 0)))',
    );
    const rate = { ...extra[1], expr: 'open_rate * 100' };
    expect(compileMetricExpression(rate, byId, sql)).toBe('(((SUM("open") / NULLIF(SUM("delivered"), 0))) * 100)');
  });

  it('turns rules into CASE WHEN with the default last, literals escaped', () => {
    expect(compileDimensionRules(extra[2], byId, sql)).toBe(
      `CASE WHEN "country" = 'GB' THEN 'O''Britain' WHEN strpos(CAST("campaign_name" AS VARCHAR), 'Black') > 0 THEN 'BF' ELSE 'Other' END`,
    );
  });

  it('refuses unknown fields and cycles', () => {
    expect(() =>
      compileMetricExpression({ ...extra[0], agg: { type: 'custom', expression: 'nope / sent' } }, byId, sql),
    ).toThrow(DataModelCompileError);
    const loop: Field = { ...extra[1], id: 'loop', expr: 'loop + 1' };
    expect(() => compileMetricExpression(loop, new Map([...byId, ['loop', loop]]), sql)).toThrow('refers to itself');
  });
});
