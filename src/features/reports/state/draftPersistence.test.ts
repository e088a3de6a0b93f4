import { meFixture } from '../../../../test/meFixture';
import { memoryStorage } from '../../../../test/memoryStorage';
import { reportFixture } from '../../../../test/reportFixture';
import { setupStore } from '../../../store/store';
import { authApi } from '../../auth/authApi';
import { draftItem, parseDraft, persistReportDrafts, readDraft } from './draftPersistence';
import {
  discarded,
  documentEdited,
  draftRestored,
  remoteReportLoaded,
  reportKey,
  saved,
  selectDocument,
  undone,
} from './reportDocumentSlice';

const key = reportKey('dashboard', 5);
const MIA = 7;

/** A store whose signed-in user is `memberId`, as after the app's first /api/me. */
async function storeOf(memberId: number) {
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, meFixture({ memberId })));
  return store;
}
const report = reportFixture({ id: 5, workspace_id: 1, title: 'Sales', version: 3, access_level: 'full_access' });
const edited = { title: 'Sales', widgets: [{ id: 'w1', type: 'rich_text', content: '<p>Hi</p>' }] };

describe('unsaved report changes in local storage', () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  it('keeps a draft while the report has local changes and removes it once it has none', async () => {
    const storage = memoryStorage();
    const store = await storeOf(MIA);
    stop = persistReportDrafts(storage);
    store.dispatch(remoteReportLoaded({ key, report }));
    expect(storage.items.size).toBe(0);

    store.dispatch(documentEdited({ key, config: edited }));
    expect(JSON.parse(storage.getItem(draftItem(MIA, key))!)).toEqual({
      config: edited,
      title: 'Sales',
      baseVersion: 3,
      baseModifiedAt: report.modified_at,
    });

    store.dispatch(undone({ key }));
    expect(storage.getItem(draftItem(MIA, key))).toBeNull();
    store.dispatch(documentEdited({ key, config: edited }));
    store.dispatch(discarded({ key }));
    expect(storage.getItem(draftItem(MIA, key))).toBeNull();

    store.dispatch(documentEdited({ key, config: edited }));
    const answer = { ...report, version: 4, config: edited };
    store.dispatch(saved({ key, report: answer, snapshot: { config: edited, title: 'Sales' } }));
    expect(storage.getItem(draftItem(MIA, key))).toBeNull();
  });

  it("restores the user's own draft after a reload, unsaved and based on its version", async () => {
    const storage = memoryStorage();
    const first = await storeOf(MIA);
    stop = persistReportDrafts(storage);
    first.dispatch(remoteReportLoaded({ key, report }));
    first.dispatch(documentEdited({ key, config: edited }));
    stop();

    expect(readDraft(storage, 8, key)).toBeNull();
    const draft = readDraft(storage, MIA, key);
    expect(draft).not.toBeNull();
    const reloaded = await storeOf(MIA);
    reloaded.dispatch(draftRestored({ key, draft: draft! }));
    expect(selectDocument(reloaded.getState(), key)).toMatchObject({ config: edited, dirty: true, baseVersion: 3 });
    reloaded.dispatch(remoteReportLoaded({ key, report }));
    expect(selectDocument(reloaded.getState(), key)).toMatchObject({ config: edited, dirty: true, canUndo: true });
  });

  it('does not restore a draft over a document already open', async () => {
    const store = await storeOf(MIA);
    store.dispatch(remoteReportLoaded({ key, report }));
    const before = store.getState().reportDocuments;
    store.dispatch(
      draftRestored({ key, draft: { config: edited, title: 'Old', baseVersion: 1, baseModifiedAt: 'x' } }),
    );
    expect(store.getState().reportDocuments).toBe(before);
  });

  it('ignores drafts it cannot read', () => {
    const valid = JSON.stringify({ config: edited, title: 'Sales', baseVersion: 3, baseModifiedAt: 'x' });
    expect(parseDraft('dashboard/5', valid)).toMatchObject({ config: edited, baseVersion: 3 });
    expect(parseDraft('dashboard/06', valid)).toBeNull();
    expect(parseDraft('chart/5', valid)).toBeNull();
    expect(parseDraft('dashboard/5', null)).toBeNull();
    expect(parseDraft('dashboard/7', '{not json')).toBeNull();
    expect(parseDraft('dashboard/8', JSON.stringify({ config: edited, title: 'Sales', baseVersion: 0 }))).toBeNull();
    const badConfig = { config: { widgets: 'none' }, title: 'Sales', baseVersion: 1, baseModifiedAt: 'x' };
    expect(parseDraft('dashboard/9', JSON.stringify(badConfig))).toBeNull();
    const explorer = { config: '{"dataset":"list_members"}', title: 'E', baseVersion: 1, baseModifiedAt: 'x' };
    expect(parseDraft('explorer_view/2', JSON.stringify(explorer))?.config).toEqual({ dataset: 'list_members' });
  });
});
