import { type Field } from '../../contracts/datasets';
import { baselineNumber, baselineTone } from './baselines';

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
