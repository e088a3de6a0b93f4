import { newWidgetId } from '../features/dashboard/configEdits';
import { newTargetId } from '../features/targets/targetsApi';
import { newIdempotencyKey } from '../store/idempotency';
import { alertRuleIdSchema, newAlertRuleId } from './alerting';
import { IDEMPOTENCY_KEY_PATTERN } from './common';
import { TARGET_ID_PATTERN } from './targets';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// A page served over plain http (not localhost) is no secure context: the browser offers no `crypto.randomUUID`.
describe('ids made on a plain-http page', () => {
  beforeEach(() => {
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
  });
  afterEach(() => {
    delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
  });

  it.each([
    ['a widget', newWidgetId],
    ['an alert rule', newAlertRuleId],
  ])('%s still gets a fresh version 4 UUID', (_name, newId) => {
    const ids = new Set(Array.from({ length: 200 }, () => newId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });

  it('makes alert rule ids the server takes as they are', () => {
    const id = newAlertRuleId();
    expect(alertRuleIdSchema.parse(id)).toBe(id);
  });

  it.each([
    ['a target', newTargetId, TARGET_ID_PATTERN],
    ['an idempotency key', newIdempotencyKey, IDEMPOTENCY_KEY_PATTERN],
  ])('%s gets a fresh id in the format the server takes', (_name, newId, pattern) => {
    const ids = new Set(Array.from({ length: 200 }, () => newId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(pattern);
  });
});
