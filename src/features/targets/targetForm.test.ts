import { type DatasetSchema } from '../../contracts/datasets';
import { END_BEFORE_START } from '../../contracts/targets';
import { checkTargetForm, emptyTargetForm, formatTargetNumber, parseTargetNumber, type TargetForm } from './targetForm';

const schema: DatasetSchema = {
  id: 'campaign_metrics_by_send_date',
  tableId: 'campaigns',
  dateField: 'send_date',
  fields: [
    { id: 'country', name: 'Country', category: 'A', format: 'country', type: 'dimension', features: [] },
    { id: 'sent', name: 'Sent', category: 'A', format: 'number', type: 'metric', agg: { type: 'sum' }, features: [] },
    {
      id: 'campaigns',
      name: 'Campaigns',
      category: 'A',
      format: 'number',
      type: 'metric',
      agg: { type: 'count_distinct', field: 'country' },
      features: [],
    },
  ],
};

const form = (changes: Partial<TargetForm> = {}): TargetForm => ({
  ...emptyTargetForm('2026-02-14'),
  title: 'Sends',
  metric: 'sent',
  targetText: '1.234,50',
  ...changes,
});

describe('the target number', () => {
  test('shows a comma for decimals, dots between thousands and 2 decimals', () => {
    expect(formatTargetNumber(0)).toBe('0,00');
    expect(formatTargetNumber(1234.5)).toBe('1.234,50');
    expect(formatTargetNumber(1_234_567.891)).toBe('1.234.567,89');
    expect(formatTargetNumber(-25)).toBe('-25,00');
  });

  test('reads what the form shows, and refuses what is not a number', () => {
    expect(parseTargetNumber('1.234,50')).toBe(1234.5);
    expect(parseTargetNumber('1234')).toBe(1234);
    expect(parseTargetNumber('0,125')).toBe(0.13);
    expect(parseTargetNumber('-3,5')).toBe(-3.5);
    expect(parseTargetNumber('')).toBeNull();
    expect(parseTargetNumber('12a')).toBeNull();
  });
});

describe('the target form', () => {
  test('a new form: this month, line, target 0, the send-date dataset', () => {
    expect(emptyTargetForm('2026-02-14')).toMatchObject({
      dataset: 'campaign_metrics_by_send_date',
      dateStart: '2026-02-01',
      dateEnd: '2026-02-28',
      visualization: 'line',
      targetText: '0,00',
    });
  });

  test('a valid form is the body to save', () => {
    expect(checkTargetForm(form(), schema)).toEqual({
      body: {
        title: 'Sends',
        dataset: 'campaign_metrics_by_send_date',
        metric: 'sent',
        target: 1234.5,
        dateStart: '2026-02-01',
        dateEnd: '2026-02-28',
        visualization: 'line',
        filters: [],
      },
    });
  });

  test('names each problem on its field, in the spec words', () => {
    expect(checkTargetForm(form({ title: '', dateEnd: '2026-01-31' }), schema).issues).toEqual({
      title: 'Title is required',
      dateEnd: END_BEFORE_START,
    });
    expect(checkTargetForm(form({ targetText: 'ten' }), schema).issues).toEqual({
      target: 'Target must be a number',
    });
    expect(checkTargetForm(form({ metric: 'country' }), schema).issues).toEqual({ metric: 'Unsupported metric' });
    expect(checkTargetForm(form({ metric: 'retired' }), schema).issues).toEqual({ metric: 'Unsupported metric' });
    expect(checkTargetForm(form({ metric: 'campaigns' }), schema).issues).toBeUndefined();
    expect(checkTargetForm(form({ filters: [{ member: 'country', operator: 'equals' }] }), schema).issues).toEqual({
      filters: 'Complete or remove the unfinished filters',
    });
  });
});
