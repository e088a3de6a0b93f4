import { metric } from '../../../engine/testing/fixtures';
import {
  isTargetMetric,
  pacingDay,
  type ProgressPoint,
  targetNumbers,
  targetPercent,
  targetStatus,
} from './targetProgress';

const revenue = metric('revenue', { type: 'sum' });
const unsubscribes = metric('unsubscribes', { type: 'sum' }, ['negative_measure']);
const openRate = metric('open_rate', { type: 'weighted_avg', numerator: 'open', denominator: 'delivered' });
const members = metric('members', { type: 'sum' }, ['gauge']);

// A 10-day period, target 100: 10 expected per day, 12 earned per day.
const target = { dateStart: '2026-03-01', dateEnd: '2026-03-10', target: 100 };
const points: ProgressPoint[] = Array.from({ length: 10 }, (_, index) => ({
  day: `2026-03-${String(index + 1).padStart(2, '0')}`,
  value: 12,
  cumulative: 12 * (index + 1),
  expected: 10 * (index + 1),
}));

describe('pacing day', () => {
  test('nothing before the start, today within the period, the end day after it', () => {
    expect(pacingDay(target, '2026-02-28')).toBeNull();
    expect(pacingDay(target, '2026-03-01')).toBe('2026-03-01');
    expect(pacingDay(target, '2026-03-10')).toBe('2026-03-10');
    expect(pacingDay(target, '2026-04-02')).toBe('2026-03-10');
  });
});

describe('target numbers', () => {
  test('start day: the first day counts', () => {
    expect(targetNumbers(target, revenue, points, '2026-03-01')).toEqual({
      current: 12,
      expected: 10,
      percent: 0.12,
      status: 'success',
      ended: false,
    });
  });

  test('end day: the full target is expected', () => {
    expect(targetNumbers(target, revenue, points, '2026-03-10')).toEqual({
      current: 120,
      expected: 100,
      percent: 1.2,
      status: 'success',
      ended: false,
    });
  });

  test('after the end: the last day is final, and a missed target is an error', () => {
    const short = points.map((point) => ({ ...point, cumulative: (point.cumulative ?? 0) / 2 }));
    expect(targetNumbers(target, revenue, points, '2026-05-01')).toMatchObject({ current: 120, ended: true });
    expect(targetNumbers(target, revenue, short, '2026-05-01')).toMatchObject({
      current: 60,
      percent: 0.6,
      status: 'error',
      ended: true,
    });
  });

  test('before the start: no value, N/A, nothing behind yet', () => {
    expect(targetNumbers(target, revenue, points, '2026-02-01')).toEqual({
      current: null,
      expected: null,
      percent: null,
      status: 'success',
      ended: false,
    });
  });

  test('a day without a running value yet is behind its expectation', () => {
    const empty = points.map((point) => ({ ...point, value: null, cumulative: null }));
    expect(targetNumbers(target, revenue, empty, '2026-03-02')).toMatchObject({
      current: null,
      percent: null,
      status: 'error',
    });
  });
});

describe('percent reached', () => {
  test('N/A for a target of 0 or below, or no value', () => {
    expect(targetPercent(50, 0, revenue)).toBeNull();
    expect(targetPercent(50, -1, revenue)).toBeNull();
    expect(targetPercent(null, 100, revenue)).toBeNull();
    expect(targetPercent(0, 100, revenue)).toBe(0);
    expect(targetNumbers({ ...target, target: 0 }, revenue, points, '2026-03-05').percent).toBeNull();
  });

  test('rates and snapshots count 0.05 as full scale', () => {
    expect(targetPercent(0.025, 0.3, openRate)).toBeCloseTo(0.5, 12);
    expect(targetPercent(0.05, 0.3, members)).toBeCloseTo(1, 12);
    expect(targetPercent(25, 50, revenue)).toBe(0.5);
  });

  test('a distinct count is a count; a custom metric is a sum when linear in sums, a ratio otherwise', () => {
    const campaigns = metric('campaigns', { type: 'count_distinct', field: 'campaign_id' });
    const custom = (id: string, expression: string) => metric(id, { type: 'custom', expression });
    const fields = new Map(
      [
        revenue,
        openRate,
        members,
        campaigns,
        custom('net', 'revenue - campaigns * 2'),
        custom('scaled', '(revenue + net) * 1.21'),
        custom('per_campaign', 'revenue / campaigns'),
        custom('squared', 'revenue * revenue'),
        custom('rate_points', 'open_rate * 100'),
        custom('stock', 'members + 1'),
      ].map((field) => [field.id, field]),
    );
    const percent = (id: string, value: number) => targetPercent(value, 100, fields.get(id)!, fields);
    expect(percent('campaigns', 25)).toBe(0.25);
    expect(percent('net', 25)).toBe(0.25);
    expect(percent('scaled', 25)).toBe(0.25);
    for (const ratio of ['per_campaign', 'squared', 'rate_points', 'stock']) expect(percent(ratio, 0.025)).toBe(0.5);
    // Without the dataset's fields a custom metric cannot be told apart: it counts as a ratio.
    expect(targetPercent(0.025, 100, fields.get('net')!)).toBe(0.5);
  });
});

describe('supported metrics', () => {
  test('every kind of metric, distinct counts and custom metrics included; never a dimension', () => {
    expect(isTargetMetric(metric('campaigns', { type: 'count_distinct', field: 'campaign_id' }))).toBe(true);
    expect(isTargetMetric(metric('net', { type: 'custom', expression: 'revenue - sent' }))).toBe(true);
    expect([revenue, openRate, members].every(isTargetMetric)).toBe(true);
    expect(isTargetMetric({ ...revenue, type: 'dimension' })).toBe(false);
  });
});

describe('status', () => {
  const at = (current: number | null, expected: number | null, ended = false) => ({
    current,
    expected,
    target: 100,
    ended,
  });

  test('error below the expected value, success on or above it', () => {
    expect(targetStatus(at(49, 50), revenue)).toBe('error');
    expect(targetStatus(at(50, 50), revenue)).toBe('success');
    expect(targetStatus(at(51, 50), revenue)).toBe('success');
  });

  test('after the end, error when the target was not met', () => {
    expect(targetStatus(at(99, 50, true), revenue)).toBe('error');
    expect(targetStatus(at(100, 100, true), revenue)).toBe('success');
  });

  test('a negative measure is behind when above its expectation or, at the end, above its target', () => {
    expect(targetStatus(at(51, 50), unsubscribes)).toBe('error');
    expect(targetStatus(at(50, 50), unsubscribes)).toBe('success');
    expect(targetStatus(at(10, 50), unsubscribes)).toBe('success');
    expect(targetStatus(at(101, 100, true), unsubscribes)).toBe('error');
    expect(targetStatus(at(90, 100, true), unsubscribes)).toBe('success');
  });
});
