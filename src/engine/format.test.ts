import { type Locale } from '../contracts/common';
import { type Field, type FieldFormat } from '../contracts/datasets';
import { TARGET_CURRENCY, changeTone, formatChange, formatValue, numberSeparators, relativeChange } from './format';

// Intl separates a currency symbol from the number with a no-break space in some locales.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatValue', () => {
  const cases: [unknown, FieldFormat, Locale, string, boolean?][] = [
    [1234.5678, 'number', 'en_US', '1,234.568'],
    [1234.5678, 'number', 'en_GB', '1,234.568'],
    [1234.5678, 'number', 'nl_NL', '1.234,568'],
    [12_345, 'number', 'en_US', '12K', true],
    [12_345, 'number', 'nl_NL', '12K', true],
    [1234.5, 'number_rounded', 'nl_NL', '1.235'],
    [13, 'number_text', 'en_US', '13'],
    [2024, 'number_text', 'nl_NL', '2024'],
    [0.12345, 'percent', 'en_US', '12.35%'],
    [0.12345, 'percent', 'nl_NL', '12,35%'],
    [0.5, 'percent', 'en_GB', '50.00%', true],
    [1234.5, 'currency', 'en_US', '$1,234.50'],
    [1234.5, 'currency', 'en_GB', '£1,234.50'],
    [1234.5, 'currency', 'nl_NL', '€ 1.234,50'],
    [1234.5, 'currency_rounded', 'en_GB', '£1,235'],
    [1234.5, 'currency_rounded', 'en_US', '$1,235'],
    [1234.5, 'currency', 'en_US', '$1K', true],
    [1234.5, 'currency', 'en_GB', '£1k', true],
    [3723, 'duration', 'en_US', '1h 2m 3s'],
    [65, 'duration', 'en_US', '1m 5s'],
    [3600, 'duration', 'en_US', '1h 0m 0s'],
    [0, 'duration', 'en_US', '0s'],
    ['2024-03-05', 'date', 'en_US', '3/5/2024'],
    ['2024-03-05', 'date', 'en_GB', '5/3/2024'],
    ['2024-03-05T00:00:00.000Z', 'date', 'nl_NL', '5/3/2024'],
    [0, 'weekday', 'en_US', 'Sunday'],
    [1, 'weekday', 'en_GB', 'Monday'],
    [6, 'weekday', 'nl_NL', 'zaterdag'],
    [7, 'weekday', 'en_US', 'N/A'],
    [1, 'month', 'en_US', 'January'],
    [12, 'month', 'en_GB', 'December'],
    [0, 'month', 'en_US', 'N/A'],
    ['NL', 'country', 'en_US', 'Netherlands'],
    ['UK', 'country', 'en_GB', 'United Kingdom'],
    ['DE', 'country', 'nl_NL', 'Duitsland'],
    ['Unknown', 'country', 'en_US', 'Unknown'],
    [true, 'boolean', 'en_US', 'Yes'],
    ['false', 'boolean', 'en_US', 'No'],
    ['https://example.com/a', 'url', 'en_US', 'https://example.com/a'],
    ["O'Brien", 'string', 'en_US', "O'Brien"],
    [null, 'number', 'en_US', 'N/A'],
    [undefined, 'percent', 'en_US', 'N/A'],
    [NaN, 'number', 'en_US', 'N/A'],
    [Infinity, 'currency', 'en_US', 'N/A'],
    ['abc', 'number', 'en_US', 'N/A'],
    [null, 'string', 'en_US', 'N/A'],
  ];
  test.each(cases)('%p as %s in %s → %s', (value, format, locale, expected, compact = false) => {
    expect(plain(formatValue(value, format, locale, { compact }))).toBe(expected);
  });
});

test('targets keep the euro sign in every locale', () => {
  expect(plain(formatValue(1234.5, 'currency', 'en_US', { currency: TARGET_CURRENCY }))).toBe('€1,234.50');
  expect(plain(formatValue(1234.5, 'currency_rounded', 'en_GB', { currency: TARGET_CURRENCY }))).toBe('€1,235');
  expect(plain(formatValue(1234.5, 'currency', 'nl_NL', { currency: TARGET_CURRENCY }))).toBe('€ 1.234,50');
});

test('chart separators follow the locale', () => {
  expect(numberSeparators('en_US')).toBe('.,');
  expect(numberSeparators('en_GB')).toBe('.,');
  expect(numberSeparators('nl_NL')).toBe(',.');
});

describe('changes', () => {
  test.each([
    [110, 100, 0.1],
    [90, 100, -0.1],
    [5, -10, 1.5],
    [5, 0, null],
    [null, 10, null],
    [10, NaN, null],
  ])('%p against %p → %p', (current, previous, expected) => {
    const change = relativeChange(current, previous);
    if (expected === null) expect(change).toBeNull();
    else expect(change).toBeCloseTo(expected, 12);
  });

  test.each([
    [0.1234, 'en_US', '+12.34%'],
    [-0.005, 'nl_NL', '-0,50%'],
    [0, 'en_US', '0.00%'],
    [null, 'en_US', 'N/A'],
  ] as const)('%p shown in %s as %s', (change, locale, expected) => {
    expect(formatChange(change, locale)).toBe(expected);
  });

  const metric = (features: Field['features'] = []): Field => ({
    id: 'm',
    name: 'm',
    category: 'Test',
    format: 'number',
    type: 'metric',
    features,
  });
  test.each([
    [0.1, [], 'positive'],
    [-0.1, [], 'negative'],
    [0.0049, [], 'neutral'],
    [-0.0049, [], 'neutral'],
    [0.005, [], 'positive'],
    [null, [], 'neutral'],
    [0.1, ['negative_measure'], 'negative'],
    [-0.1, ['negative_measure'], 'positive'],
    [0.001, ['negative_measure'], 'neutral'],
  ] as [number | null, Field['features'], string][])('%p with %p is %s', (change, features, tone) => {
    expect(changeTone(change, metric(features))).toBe(tone);
  });
});
