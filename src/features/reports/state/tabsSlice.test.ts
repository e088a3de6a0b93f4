import { loadTabsState, tabsKey } from './tabsPersistence';
import {
  allTabsClosed,
  homeTabOpened,
  initialTabsState,
  MAX_TABS,
  otherTabsClosed,
  reportsListed,
  selectWorkspaceTabs,
  tabAdded,
  tabClosed,
  tabOpened,
  tabsReducer,
  tabTitleSynced,
  type TabsState,
} from './tabsSlice';

const WS = 7;
const dash = (objectId: number) => ({ workspaceId: WS, objectType: 'dashboard' as const, objectId });
const strip = (state: TabsState) => selectWorkspaceTabs({ tabs: state }, WS);
const ids = (state: TabsState) => strip(state).tabs.map((tab) => tab.objectId);
const activeId = (state: TabsState) => strip(state).active?.objectId ?? 'home';

/** A strip with reports 1..n open (in that order) and `active` focused. */
function opened(n: number, active: number | 'home' = n): TabsState {
  let state = initialTabsState;
  for (let id = 1; id <= n; id++) state = tabsReducer(state, tabOpened({ ...dash(id), title: `Report ${id}` }));
  return active === 'home'
    ? tabsReducer(state, homeTabOpened({ workspaceId: WS }))
    : tabsReducer(state, tabOpened(dash(active)));
}

describe('tabs (spec 2 §4 Tabs)', () => {
  it('starts with only the Home tab focused', () => {
    expect(strip(initialTabsState)).toEqual({ tabs: [], active: null });
  });

  it('add appends a tab without moving focus', () => {
    const state = tabsReducer(opened(1, 'home'), tabAdded({ ...dash(2), title: 'Two' }));
    expect(ids(state)).toEqual([1, 2]);
    expect(strip(state).tabs[1].title).toBe('Two');
    expect(activeId(state)).toBe('home');
  });

  it('add is ignored when the report is already open', () => {
    const before = opened(2);
    const state = tabsReducer(before, tabAdded({ ...dash(1), title: 'Other title' }));
    expect(strip(state)).toEqual(strip(before));
  });

  it('add is ignored once 200 tabs are open', () => {
    const full = opened(MAX_TABS);
    expect(ids(full)).toHaveLength(200);
    const state = tabsReducer(full, tabAdded(dash(MAX_TABS + 1)));
    expect(ids(state)).toHaveLength(200);
    expect(ids(state)).not.toContain(MAX_TABS + 1);
  });

  it('open focuses an open tab without adding a second one', () => {
    const state = tabsReducer(opened(3), tabOpened(dash(1)));
    expect(ids(state)).toEqual([1, 2, 3]);
    expect(activeId(state)).toBe(1);
  });

  it('open adds and focuses a report that has no tab yet (as when reached by URL)', () => {
    const state = tabsReducer(opened(2, 'home'), tabOpened({ ...dash(9), title: 'By URL' }));
    expect(ids(state)).toEqual([1, 2, 9]);
    expect(activeId(state)).toBe(9);
  });

  it('open at 200 tabs neither adds nor moves focus', () => {
    const state = tabsReducer(opened(MAX_TABS, 5), tabOpened(dash(MAX_TABS + 1)));
    expect(ids(state)).toHaveLength(200);
    expect(activeId(state)).toBe(5);
  });

  it('keeps dashboards and explorer views with the same id apart', () => {
    const state = tabsReducer(opened(1), tabOpened({ workspaceId: WS, objectType: 'explorer_view', objectId: 1 }));
    expect(strip(state).tabs.map((tab) => tab.objectType)).toEqual(['dashboard', 'explorer_view']);
  });

  it('close of the focused tab focuses the next tab', () => {
    const state = tabsReducer(opened(3, 2), tabClosed(dash(2)));
    expect(ids(state)).toEqual([1, 3]);
    expect(activeId(state)).toBe(3);
  });

  it('close of the focused last tab focuses the previous tab', () => {
    const state = tabsReducer(opened(3, 3), tabClosed(dash(3)));
    expect(ids(state)).toEqual([1, 2]);
    expect(activeId(state)).toBe(2);
  });

  it('close of the only tab returns to Home', () => {
    const state = tabsReducer(opened(1), tabClosed(dash(1)));
    expect(ids(state)).toEqual([]);
    expect(activeId(state)).toBe('home');
  });

  it('close of another tab keeps the focus where it is', () => {
    const state = tabsReducer(opened(3, 3), tabClosed(dash(1)));
    expect(ids(state)).toEqual([2, 3]);
    expect(activeId(state)).toBe(3);
  });

  it('closeOthers keeps Home and the chosen tab, and focuses it', () => {
    const state = tabsReducer(opened(4, 1), otherTabsClosed(dash(3)));
    expect(ids(state)).toEqual([3]);
    expect(activeId(state)).toBe(3);
  });

  it('closeAll returns to Home alone', () => {
    const state = tabsReducer(opened(4, 2), allTabsClosed({ workspaceId: WS }));
    expect(ids(state)).toEqual([]);
    expect(activeId(state)).toBe('home');
  });

  it('sync updates a tab title', () => {
    const state = tabsReducer(opened(2), tabTitleSynced({ ...dash(1), title: 'Renamed' }));
    expect(strip(state).tabs.map((tab) => tab.title)).toEqual(['Renamed', 'Report 2']);
  });

  it('a tab whose report is no longer in the list closes, focus moving as for close', () => {
    const before = opened(3, 2);
    const requestedAt = Math.max(...strip(before).tabs.map((tab) => tab.openedAt));
    const state = tabsReducer(
      before,
      reportsListed({
        workspaceId: WS,
        requestedAt,
        reports: [
          { objectType: 'dashboard', objectId: 1, title: 'Report 1' },
          { objectType: 'dashboard', objectId: 3, title: 'Now called three' },
        ],
      }),
    );
    expect(ids(state)).toEqual([1, 3]);
    expect(activeId(state)).toBe(3);
    expect(strip(state).tabs[1].title).toBe('Now called three');
  });

  it('a list requested before a tab was opened does not close it (a report created a moment ago)', () => {
    const before = opened(1);
    const requestedAt = strip(before).tabs[0].openedAt - 1;
    const state = tabsReducer(before, reportsListed({ workspaceId: WS, requestedAt, reports: [] }));
    expect(ids(state)).toEqual([1]);
  });

  it('Home gets focus back from the plus button or the home route', () => {
    const state = tabsReducer(opened(2, 1), homeTabOpened({ workspaceId: WS }));
    expect(ids(state)).toEqual([1, 2]);
    expect(activeId(state)).toBe('home');
  });

  it('keeps each workspace’s strip apart', () => {
    const state = tabsReducer(opened(2), tabOpened({ workspaceId: 8, objectType: 'dashboard', objectId: 5 }));
    expect(ids(state)).toEqual([1, 2]);
    expect(selectWorkspaceTabs({ tabs: state }, 8).tabs.map((tab) => tab.objectId)).toEqual([5]);
  });
});

describe('tabs in local storage', () => {
  const storageOf = (entries: Record<string, string>) => {
    const keys = Object.keys(entries);
    return { length: keys.length, key: (index: number) => keys[index] ?? null, getItem: (key: string) => entries[key] };
  };

  it('reads back every workspace’s stored strip', () => {
    const saved = strip(opened(2, 1));
    const state = loadTabsState(storageOf({ [tabsKey(WS)]: JSON.stringify(saved), other: 'x' }));
    expect(strip(state)).toEqual(saved);
  });

  it('leaves out unreadable entries', () => {
    const state = loadTabsState(
      storageOf({
        [tabsKey(1)]: '{not json',
        [tabsKey(2)]: JSON.stringify({ tabs: [{ objectType: 'chart', objectId: 1 }], active: null }),
        [tabsKey('abc')]: JSON.stringify({ tabs: [], active: null }),
      }),
    );
    expect(state.byWorkspace).toEqual({});
  });
});
