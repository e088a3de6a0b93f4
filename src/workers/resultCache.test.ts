import { createResultCache, resultKey } from './resultCache';

const bytes = (n: number) => new Uint8Array(n).fill(1);

describe('the result cache', () => {
  let clock = 0;
  const cache = (limit = 100, freshMs = 1_000) => createResultCache({ limit, freshMs, now: () => clock });
  beforeEach(() => {
    clock = 0;
  });

  it('serves an answer while fresh, and no longer once it has aged', () => {
    const results = cache();
    const answer = bytes(10);
    results.remember('a', answer);
    clock = 999;
    expect(results.fresh('a')).toBe(answer);
    clock = 1_000;
    expect(results.fresh('a')).toBeUndefined();
    expect(results.fresh('never asked')).toBeUndefined();
  });

  it('drops the least recently used answers past its byte limit, and never keeps one larger than it', () => {
    const results = cache(30);
    results.remember('a', bytes(10));
    results.remember('b', bytes(10));
    results.remember('c', bytes(10));
    results.fresh('a');
    results.remember('d', bytes(10));
    expect(['a', 'b', 'c', 'd'].filter((key) => results.fresh(key))).toEqual(['a', 'c', 'd']);
    expect(results.bytes()).toBe(30);
    results.remember('huge', bytes(31));
    expect(results.fresh('huge')).toBeUndefined();
    expect(results.entries()).toBe(3);
  });

  it('counts a replaced answer once', () => {
    const results = cache();
    results.remember('a', bytes(10));
    results.remember('a', bytes(20));
    expect([results.entries(), results.bytes()]).toEqual([1, 20]);
  });

  it('forgets the answers over a table’s other versions when a new version comes', () => {
    const results = cache();
    results.remember(resultKey('sends', 'v1', 'SELECT 1'), bytes(5));
    results.remember(resultKey('sends', 'v2', 'SELECT 1'), bytes(5));
    results.remember(resultKey('sends_extra', 'v1', 'SELECT 1'), bytes(5));
    results.remember(resultKey(undefined, undefined, 'SELECT 1'), bytes(5));
    results.dropOtherVersions('sends', 'v2');
    expect(results.fresh(resultKey('sends', 'v1', 'SELECT 1'))).toBeUndefined();
    expect(results.fresh(resultKey('sends', 'v2', 'SELECT 1'))).toBeDefined();
    expect(results.fresh(resultKey('sends_extra', 'v1', 'SELECT 1'))).toBeDefined();
    expect(results.fresh(resultKey(undefined, undefined, 'SELECT 1'))).toBeDefined();
    expect(results.bytes()).toBe(15);
  });
});
