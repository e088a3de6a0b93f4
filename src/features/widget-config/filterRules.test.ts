import {
  filterableFields,
  metricText,
  operatorLabels,
  operatorsFor,
  REQUIRED,
  sensitivityLabel,
  sensitivityOf,
  shownValue,
  storedSensitivity,
  storedValue,
  UNKNOWN_FIELD,
  UNKNOWN_OPERATOR,
  validateFilters,
  valueInputOf,
  withMember,
  withOperator,
  withoutValue,
} from './filterRules';
import { sendSchema } from './testSchema';

const field = (id: string) => sendSchema.fields.find((candidate) => candidate.id === id)!;

describe('filter operators (spec 2 §3)', () => {
  it('labels operators with the spec words, and the others in plain words', () => {
    expect(operatorsFor(field('campaign_name')).map((op) => operatorLabels[op])).toEqual([
      'Is',
      'Is not',
      'Contains',
      'Does not contain',
      'Starts with',
      'Ends with',
      'Is not empty',
      'Is empty',
    ]);
  });

  it('offers comparisons on numeric dimensions, date operators on dates and outliers on metrics', () => {
    expect(operatorsFor(field('send_weekday'))).toEqual(expect.arrayContaining(['gt', 'gte', 'lt', 'lte', 'inRange']));
    expect(operatorsFor(field('send_date'))).toEqual(
      expect.arrayContaining(['inDateRange', 'notInDateRange', 'beforeDate', 'afterDate']),
    );
    expect(operatorsFor(field('sent'))).toEqual(expect.arrayContaining(['outlierHigh', 'outlierLow', 'outlier']));
    expect(operatorsFor(field('campaign_name'))).not.toContain('gt');
  });

  it('does not offer set and notSet on a field with the no_set_filter feature', () => {
    expect(operatorsFor(field('segment'))).not.toContain('set');
    expect(operatorsFor(field('segment'))).not.toContain('notSet');
  });

  it('asks distinct values for equals and notEquals, none for set and notSet, free text elsewhere', () => {
    expect(valueInputOf('equals')).toBe('distinct');
    expect(valueInputOf('notEquals')).toBe('distinct');
    expect(valueInputOf('set')).toBe('none');
    expect(valueInputOf('notSet')).toBe('none');
    expect(valueInputOf('contains')).toBe('text');
    expect(valueInputOf('inRange')).toBe('range');
  });

  it('offers visible non-URL dimensions, then the measures but gauges, as members', () => {
    const ids = filterableFields(sendSchema).map((candidate) => candidate.id);
    expect(ids).toContain('campaign_name');
    expect(ids).not.toContain('internal_id');
    expect(ids).not.toContain('landing_url');
    expect(ids).toContain('sent');
    expect(ids.indexOf('campaign_name')).toBeLessThan(ids.indexOf('sent'));
  });
});

describe('editing a filter row (spec 2 §5)', () => {
  const row = { member: 'country', operator: 'equals', values: ['NL', 'BE'] };

  it('resets the values when the operator switches', () => {
    expect(withOperator(row, 'contains')).toEqual({ member: 'country', operator: 'contains', values: [] });
    expect(withOperator(row, 'equals')).toBe(row);
  });

  it('starts outlier operators at the default sensitivity', () => {
    expect(withOperator({ member: 'sent', operator: 'gt', values: ['3'] }, 'outlier').values).toEqual(['-2.0']);
  });

  it('removes one value and keeps the others', () => {
    expect(withoutValue(row, 'NL').values).toEqual(['BE']);
  });

  it('keeps the operator on a new member that offers it and starts its values again', () => {
    expect(withMember(row, 'campaign_name', sendSchema)).toEqual({
      member: 'campaign_name',
      operator: 'equals',
      values: [],
    });
    const contains = { member: 'campaign_name', operator: 'contains', values: ['x'] };
    expect(withMember(contains, 'send_weekday', sendSchema).operator).toBe('equals');
  });
});

describe('filter form validation (spec 2 §5)', () => {
  it('accepts complete rows, and set or notSet without values', () => {
    expect(
      validateFilters(sendSchema, [
        { member: 'country', operator: 'equals', values: ['NL'] },
        { member: 'country', operator: 'notSet' },
        { member: 'send_date', operator: 'inDateRange', values: ['2026-01-01', '2026-01-31'] },
      ]),
    ).toEqual([{}, {}, {}]);
  });

  it('requires a member, an operator and values', () => {
    expect(validateFilters(sendSchema, [{}])).toEqual([{ member: REQUIRED, operator: REQUIRED }]);
    expect(validateFilters(sendSchema, [{ member: 'country', operator: 'contains', values: [] }])).toEqual([
      { values: REQUIRED },
    ]);
    expect(validateFilters(sendSchema, [{ member: 'country', operator: 'contains', values: [''] }])).toEqual([
      { values: REQUIRED },
    ]);
  });

  it('raises an issue on a member that is not a field of the dataset', () => {
    expect(validateFilters(sendSchema, [{ member: 'device', operator: 'set' }])).toEqual([{ member: UNKNOWN_FIELD }]);
  });

  it('raises an issue on an operator outside the allowed list', () => {
    expect(validateFilters(sendSchema, [{ member: 'country', operator: 'like', values: ['N%'] }])[0].operator).toBe(
      UNKNOWN_OPERATOR,
    );
  });

  it('asks both ends of a range', () => {
    expect(validateFilters(sendSchema, [{ member: 'send_weekday', operator: 'inRange', values: ['1'] }])).toEqual([
      { values: REQUIRED },
    ]);
  });

  it('leaves nested groups unchecked', () => {
    expect(validateFilters(sendSchema, [{ or: [{ member: 'device' }] }])).toEqual([{}]);
  });
});

describe('condition values (spec 3 §5)', () => {
  const percent = { ...sendSchema.fields[12], format: 'percent' as const };

  test('metric text keeps digits and the first period; a comma is a period', () => {
    expect(metricText('1,5')).toBe('1.5');
    expect(metricText('-1.2.3 x')).toBe('1.23');
    expect(metricText('abc')).toBe('');
  });

  test('percentages are shown ×100 and stored ÷100 without binary noise; other formats as they are', () => {
    expect(shownValue(percent, '0.07')).toBe('7');
    expect(storedValue(percent, '7')).toBe('0.07');
    expect(storedValue(percent, '12.')).toBe('0.12');
    expect(shownValue(sendSchema.fields[8], '0.07')).toBe('0.07');
    expect(storedValue(percent, '')).toBe('');
  });

  test('sensitivity: stored with 3 decimals; out of range or unreadable reads as the default', () => {
    expect(storedSensitivity(-2.25)).toBe('-2.250');
    expect(sensitivityOf(['-0.75'])).toBe(-0.75);
    expect(sensitivityOf(['-5'])).toBe(-2);
    expect(sensitivityOf(undefined)).toBe(-2);
    expect([-4, -3, -2, -1, 0].map(sensitivityLabel)).toEqual([
      'Low',
      'Medium/Low',
      'Medium',
      'Medium/High',
      'High sensitivity',
    ]);
  });
});
