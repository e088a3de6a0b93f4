import { type PublicCall, publicPageOf, publicReportIdOf } from './publicReportRules';

describe('the public report id (spec 2 §2 Routes)', () => {
  it.each([
    ['42', 42],
    ['2147483647', 2147483647],
    [undefined, null],
    ['', null],
    ['0', null],
    ['042', null],
    ['4e2', null],
    ['abc', null],
    ['2147483648', null],
  ])('%s → %s', (param, id) => {
    expect(publicReportIdOf(param)).toBe(id);
  });
});

describe('which public page shows', () => {
  const loaded: PublicCall = { hasData: true };
  const pending: PublicCall = { hasData: false };
  const active = { ...loaded, status: 'active' as const };

  it.each<[string, number | null, PublicCall, PublicCall & { status?: 'active' | 'suspended' | 'cancelled' }, string]>([
    ['no id', null, pending, pending, 'invalid'],
    ['waiting for the calls', 42, pending, pending, 'loading'],
    ['waiting for the workspace', 42, loaded, pending, 'loading'],
    ['everything loaded', 42, loaded, active, 'report'],
    ['a link never shared or deleted', 42, { hasData: false, error: 404 }, { hasData: false, error: 404 }, 'notFound'],
    ['a link turned off after the page loaded', 42, { hasData: true, error: 404 }, active, 'notFound'],
    ['the workspace call refused after the link went off', 42, loaded, { ...active, error: 404 }, 'notFound'],
    ['a suspended workspace', 42, loaded, { ...loaded, status: 'suspended' }, 'suspended'],
    ['a cancelled workspace', 42, loaded, { ...loaded, status: 'cancelled' }, 'cancelled'],
    ['a server failure before anything loaded', 42, { hasData: false, error: 500 }, active, 'error'],
    ['a network failure before anything loaded', 42, loaded, { hasData: false, error: 'failed' }, 'error'],
    ['a network failure of a refetch keeps the page', 42, { hasData: true, error: 'failed' }, active, 'report'],
  ])('%s', (_case, id, report, workspace, page) => {
    expect(publicPageOf(id, report, workspace)).toBe(page);
  });
});
