/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { meFixture } from '../../../test/meFixture';
import { memoryCacheStorage } from '../../../test/memoryCacheStorage';
import { memoryStorage } from '../../../test/memoryStorage';
import { reportFixture } from '../../../test/reportFixture';
import { LAST_MEMBER_KEY } from '../../app/signedInHere';
import { setupStore } from '../../store/store';
import { ANSWERS_KEPT_AT_KEY, cacheStorageKeptResults } from '../../workers/keptResults';
import { authApi } from '../auth/authApi';
import { cacheStorageDatasetStore } from '../datasets/datasetCache';
import { KEPT_DATASETS_KEY } from '../datasets/keptDatasets';
import { draftItem } from '../reports/state/draftPersistence';
import { documentEdited, remoteReportLoaded, reportKey } from '../reports/state/reportDocumentSlice';
import { loadReportsListState } from '../reports/state/reportsListPersistence';
import { loadTabsState } from '../reports/state/tabsPersistence';
import { signedOut } from './sessionActions';
import { startUserDataListeners } from './userDataPersistence';

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
    [ANSWERS_KEPT_AT_KEY]: JSON.stringify({ '/workspaces/1/reports/dashboard/5': 1 }),
    [KEPT_DATASETS_KEY]: JSON.stringify({ '1/campaigns': { version: '1:v1', at: 1 } }),
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

  describe('dataset files and answers kept for the next visit', () => {
    const url = '/api/workspaces/1/datasets/campaign_metrics_by_send_date';
    const answer = 'campaign_metrics_by_send_date@"v1"\nSELECT 1';
    async function keptFor(memberId: number) {
      const storage = miasBrowser();
      const { datasets, answers } = await keptStores();
      stop = startUserDataListeners(storage, [datasets, answers]);
      const store = await signedInApp(storage, memberId);
      return { store, datasets, answers };
    }
    async function keptStores() {
      const caches = memoryCacheStorage();
      const datasets = cacheStorageDatasetStore(caches);
      await datasets.put(url, '"v1"', new Uint8Array([1, 2, 3]), 3);
      const answers = cacheStorageKeptResults(caches);
      await answers.put(answer, new Uint8Array([4, 5]));
      return { datasets, answers };
    }
    /** The removal is asynchronous (Cache Storage); waits until both are gone or gives up. */
    async function gone({ datasets, answers }: Awaited<ReturnType<typeof keptStores>>) {
      const left = async () => (await datasets.get(url)) ?? (await answers.get(answer));
      for (let n = 0; n < 200 && (await left()); n++) await new Promise((r) => setTimeout(r, 5));
      return (await left()) === undefined;
    }

    it('stay while the same user signs in again', async () => {
      const { datasets, answers } = await keptFor(MIA);
      expect(await (await datasets.get(url))?.read()).toEqual(new Uint8Array([1, 2, 3]));
      expect(await answers.get(answer)).toEqual(new Uint8Array([4, 5]));
    });

    it('are removed at logout', async () => {
      const { store, ...kept } = await keptFor(MIA);
      store.dispatch(signedOut());
      expect(await gone(kept)).toBe(true);
    });

    it('are removed at start-up when no one is remembered (a logout cut short by leaving the page)', async () => {
      const kept = await keptStores();
      stop = startUserDataListeners(memoryStorage({ darkMode: 'dark' }), [kept.datasets, kept.answers]);
      expect(await gone(kept)).toBe(true);
    });

    it('are removed when another user signs in on the same browser', async () => {
      const { store: _store, ...kept } = await keptFor(BEN);
      expect(await gone(kept)).toBe(true);
    });
  });
});
