/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { meFixture } from '../../../test/meFixture';
import { memoryCacheStorage } from '../../../test/memoryCacheStorage';
import { memoryStorage } from '../../../test/memoryStorage';
import { reportFixture } from '../../../test/reportFixture';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { cacheStorageDatasetStore } from '../datasets/datasetCache';
import { draftItem } from '../reports/state/draftPersistence';
import { documentEdited, remoteReportLoaded, reportKey } from '../reports/state/reportDocumentSlice';
import { loadReportsListState } from '../reports/state/reportsListPersistence';
import { loadTabsState } from '../reports/state/tabsPersistence';
import { signedOut } from './sessionActions';
import { LAST_MEMBER_KEY, startUserDataListeners } from './userDataPersistence';

const MIA = 7;
const BEN = 8;
const key = reportKey('dashboard', 5);
const draft = JSON.stringify({ config: { widgets: [] }, title: 'Secret plan', baseVersion: 1, baseModifiedAt: 'x' });
const tabs = JSON.stringify({
  tabs: [{ objectType: 'dashboard', objectId: 5, title: 'Secret plan', openedAt: 1 }],
  active: null,
});
const listView = JSON.stringify({ order: 'title' });

/** What Mia's browser holds: her work, and choices that belong to the browser. */
const miasBrowser = () =>
  memoryStorage({
    [LAST_MEMBER_KEY]: String(MIA),
    [draftItem(MIA, key)]: draft,
    'reportTabs:1': tabs,
    'reportListView:1': listView,
    currentWorkspaceId: '1',
    workspace_id: '1',
    activationRequested: '[1]',
    first_day_of_week: '0',
    darkMode: 'dark',
    settingsMenuCollapsed: 'true',
    'another-app': 'kept',
  });
const browserWide = { darkMode: 'dark', settingsMenuCollapsed: 'true', 'another-app': 'kept' };

const report = reportFixture({ id: 5, workspace_id: 1, title: 'Secret plan', access_level: 'full_access' });

/** The app as main.tsx starts it: state read from storage, then signed in as `memberId`. */
async function signedInApp(storage: ReturnType<typeof memoryStorage>, memberId: number) {
  const store = setupStore({ tabs: loadTabsState(storage), reportsList: loadReportsListState(storage) });
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, meFixture({ memberId })));
  return store;
}

describe('user data kept in the browser', () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  it('stays while the same user signs in again (drafts survive reloads)', async () => {
    const storage = miasBrowser();
    stop = startUserDataListeners(storage);
    const store = await signedInApp(storage, MIA);
    expect(storage.getItem(draftItem(MIA, key))).toBe(draft);
    expect(storage.getItem('reportTabs:1')).toBe(tabs);
    expect(store.getState().tabs.byWorkspace['1']?.tabs).toHaveLength(1);
    expect(store.getState().reportsList.byWorkspace['1']?.order).toBe('title');
  });

  it("is removed at logout, except the browser's own choices", async () => {
    const storage = miasBrowser();
    stop = startUserDataListeners(storage);
    const store = await signedInApp(storage, MIA);
    store.dispatch(remoteReportLoaded({ key, report }));
    store.dispatch(documentEdited({ key, config: { title: 'Secret plan', widgets: [] } }));
    store.dispatch(signedOut());
    expect(Object.fromEntries(storage.items)).toEqual(browserWide);
    expect(store.getState().reportDocuments?.docs).toEqual({});
    expect(store.getState().tabs.byWorkspace).toEqual({});
  });

  it('is removed, stored and in memory, when another user signs in on the same browser', async () => {
    const storage = miasBrowser();
    stop = startUserDataListeners(storage);
    const store = await signedInApp(storage, MIA);
    store.dispatch(remoteReportLoaded({ key, report }));
    store.dispatch(documentEdited({ key, config: { title: 'Secret plan', widgets: [] } }));

    await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, meFixture({ memberId: BEN })));
    expect(Object.fromEntries(storage.items)).toEqual({ ...browserWide, [LAST_MEMBER_KEY]: String(BEN) });
    expect(store.getState().reportDocuments?.docs).toEqual({});
    expect(store.getState().tabs.byWorkspace).toEqual({});
    expect(store.getState().reportsList.byWorkspace).toEqual({});
  });

  it('is removed at start-up when the browser was last used by someone else', async () => {
    const storage = miasBrowser();
    stop = startUserDataListeners(storage);
    const store = await signedInApp(storage, BEN);
    expect(Object.fromEntries(storage.items)).toEqual({ ...browserWide, [LAST_MEMBER_KEY]: String(BEN) });
    expect(store.getState().tabs.byWorkspace).toEqual({});
    expect(store.getState().reportsList.byWorkspace).toEqual({});
  });

  describe('dataset files kept for the next visit', () => {
    const url = '/api/workspaces/1/datasets/campaign_metrics_by_send_date';
    async function keptFor(memberId: number) {
      const storage = miasBrowser();
      const datasets = cacheStorageDatasetStore(memoryCacheStorage());
      await datasets.put(url, '"v1"', new Uint8Array([1, 2, 3]), 3);
      stop = startUserDataListeners(storage, datasets);
      const store = await signedInApp(storage, memberId);
      return { store, datasets };
    }
    /** The removal is asynchronous (Cache Storage); waits until it is done or gives up. */
    async function gone(datasets: ReturnType<typeof cacheStorageDatasetStore>) {
      for (let n = 0; n < 200 && (await datasets.get(url)); n++) await new Promise((r) => setTimeout(r, 5));
      return (await datasets.get(url)) === undefined;
    }

    it('stay while the same user signs in again', async () => {
      const { datasets } = await keptFor(MIA);
      expect(await (await datasets.get(url))?.read()).toEqual(new Uint8Array([1, 2, 3]));
    });

    it('are removed at logout', async () => {
      const { store, datasets } = await keptFor(MIA);
      store.dispatch(signedOut());
      expect(await gone(datasets)).toBe(true);
    });

    it('are removed at start-up when no one is remembered (a logout cut short by leaving the page)', async () => {
      const datasets = cacheStorageDatasetStore(memoryCacheStorage());
      await datasets.put(url, '"v1"', new Uint8Array([1, 2, 3]), 3);
      stop = startUserDataListeners(memoryStorage({ darkMode: 'dark' }), datasets);
      expect(await gone(datasets)).toBe(true);
    });

    it('are removed when another user signs in on the same browser', async () => {
      const { datasets } = await keptFor(BEN);
      expect(await gone(datasets)).toBe(true);
    });
  });
});
