import { ANSWERS_KEPT_AT_KEY } from '../workers/keptResults';
import { compileAhead } from './compileAhead';
import { LAST_MEMBER_KEY } from './signedInHere';

const storage = (items: Record<string, string>): Pick<Storage, 'getItem'> => ({
  getItem: (key) => items[key] ?? null,
});

/** What the page's first module started at an address, with what the browser holds. */
function started(pathname: string, items: Record<string, string>, cookies = '') {
  const seen: string[] = [];
  const { afterKeptAnswers } = compileAhead(pathname, storage(items), cookies, {
    compile: () => seen.push('compile'),
    prepare: () => seen.push('prepare'),
  });
  return { seen, afterKeptAnswers };
}

const dashboard = '/workspaces/3/reports/dashboard/12';

describe('what the page starts of the engine before its own code runs', () => {
  it('compiles DuckDB at once for a member remembered here, for the server’s signed-in hint, and on a public report', () => {
    expect(started(dashboard, { [LAST_MEMBER_KEY]: '7' }).seen).toEqual(['compile']);
    expect(started(dashboard, {}, 'theme=dark; openrate_signed_in=1').seen).toEqual(['compile']);
    expect(started('/reports/ab12cd', {}).seen).toEqual(['compile']);
  });

  it('only starts the compiling worker for a visitor who may be signed out: the module waits for the session', () => {
    expect(started(dashboard, {}).seen).toEqual(['prepare']);
    // Another cookie's name or value is no hint.
    expect(started(dashboard, {}, 'xopenrate_signed_in=1; openrate_signed_in=0').seen).toEqual(['prepare']);
  });

  it('starts nothing where no screen queries the engine, or where the kept answers of a reload come first', () => {
    expect(started('/workspaces/3/settings/general', { [LAST_MEMBER_KEY]: '7' }).seen).toEqual([]);
    const kept = { [LAST_MEMBER_KEY]: '7', [ANSWERS_KEPT_AT_KEY]: JSON.stringify({ [dashboard]: Date.now() - 1000 }) };
    expect(started(dashboard, kept)).toEqual({ seen: [], afterKeptAnswers: true });
    expect(started(dashboard, { [LAST_MEMBER_KEY]: '7' }).afterKeptAnswers).toBe(false);
  });
});
