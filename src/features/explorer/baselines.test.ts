import { type Field } from '../../contracts/datasets';
import {
  baselineNumber,
  baselineText,
  baselineTone,
  baselineValue,
  decimalText,
  kpiDataOf,
  rowsOfKpiData,
} from './baselines';
import { baselinesApplied } from './explorerEdits';

const rate: Field = {
  id: 'open_rate',
  name: 'Open rate',
  category: 'E',
  format: 'percent',
  type: 'metric',
  features: ['baseline'],
};
const bounces: Field = { ...rate, id: 'bounce_rate', features: ['baseline', 'negative_measure'] };

describe('baseline colours', () => {
  it('green when meeting the baseline, red otherwise', () => {
    const kpiData = { open_rate: '0.25' };
    expect(baselineTone(0.3, rate, kpiData)).toBe('meets');
    expect(baselineTone(0.25, rate, kpiData)).toBe('meets');
    expect(baselineTone(0.2, rate, kpiData)).toBe('misses');
  });

  it('lower is better for negative measures', () => {
    const kpiData = { bounce_rate: 0.02 };
    expect(baselineTone(0.01, bounces, kpiData)).toBe('meets');
    expect(baselineTone(0.03, bounces, kpiData)).toBe('misses');
  });

  it('no colour without a baseline or a value', () => {
    expect(baselineTone(0.3, rate, {})).toBeNull();
    expect(baselineTone(0.3, rate, { open_rate: null })).toBeNull();
    expect(baselineTone(null, rate, { open_rate: 0.1 })).toBeNull();
    expect(baselineTone(0.3, undefined, { open_rate: 0.1 })).toBeNull();
    expect(baselineNumber('0,5')).toBe(0.5);
    expect(baselineNumber('abc')).toBeNull();
  });
});

describe('baseline values as typed, stored and sent', () => {
  it.each([
    [0.25, 'percent', '25'],
    [0.29, 'percent', '29'],
    [0.0123, 'percent', '1.23'],
    [12.5, 'number', '12.5'],
  ])('%p (%s) is typed as %p and stored back unchanged', (stored, format, typed) => {
    expect(baselineText(stored, format)).toBe(typed);
    expect(baselineValue(typed, format)).toBe(stored);
  });

  it('the API gets decimal text without exponents', () => {
    expect(decimalText(0.315)).toBe('0.315');
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText(-2)).toBe('-2');
    expect(decimalText(1234)).toBe('1234');
  });

  it('a row that is not a number holds the baselines back', () => {
    const formatOf = (metric: string) => (metric === 'open_rate' ? 'percent' : 'number');
    const rows = rowsOfKpiData({ open_rate: '0.25', sent: 10, clicks: null }, formatOf);
    expect(rows.map((row) => [row.metric, row.text])).toEqual([
      ['open_rate', '25'],
      ['sent', '10'],
    ]);
    expect(kpiDataOf(rows, formatOf)).toEqual({ open_rate: 0.25, sent: 10 });
    expect(kpiDataOf([...rows, { id: 'x', metric: 'clicks', text: '' }], formatOf)).toBeNull();
  });

  it("applying sets the view's values and set id; none clears both", () => {
    const config = { dataset: 'd', kpiData: { open_rate: 0.2 }, baselineId: 'a' };
    expect(baselinesApplied(config, { kpiData: { sent: 5 }, baselineId: 'b' })).toEqual({
      dataset: 'd',
      kpiData: { sent: 5 },
      baselineId: 'b',
    });
    expect(baselinesApplied(config, null)).toEqual({ dataset: 'd', kpiData: {}, baselineId: null });
  });
});
