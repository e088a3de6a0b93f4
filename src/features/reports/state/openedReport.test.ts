/** @jest-environment ./test/nodeEnvironment.js */
import { json, stubNetwork } from '../../../../test/stubNetwork';
import { type Report } from '../../../contracts/reports';
import { setupStore } from '../../../store/store';
import { type ReportRef, reportsApi } from '../reportsApi';
import { draftItem } from './draftPersistence';
import { reportOpened } from './openedReport';
import { reportKey, selectDocument, selectNewerVersion } from './reportDocumentSlice';

const alice = { id: 1, name: 'Alice' };
const ref: ReportRef = { workspaceId: 3, type: 'dashboard', id: 5 };
const key = reportKey('dashboard', 5);
const MEMBER = 9;

function report(version: number, title = 'Sales'): Report {
  const at = `2026-11-0${version}T10:00:00.000Z`;
  return {
    ...{ id: 5, workspace_id: 3, type: 'dashboard', title, dataset: null, config: { widgets: [] }, version },
    ...{ owner: alice, created_at: at, created_by: alice, modified_at: at, modified_by: alice },
    ...{ last_opened_at: null, access_level: 'full_access', share_level: 'private' },
  };
}

/** A storage holding nothing but, when given, the member's draft of the report. */
const storageWith = (draft?: object): Pick<Storage, 'getItem'> => ({
  getItem: (item) => (draft && item === draftItem(MEMBER, key) ? JSON.stringify(draft) : null),
});

describe('an opened report page', () => {
  let served = report(1);
  let restore: () => void = () => undefined;
  let store = setupStore();
  beforeEach(() => {
    store = setupStore();
    served = report(1);
    restore = stubNetwork(() => json({ data: served })).restore;
  });
  afterEach(() => {
    // Unused answers would otherwise stay cached on a timer that outlives the test.
    store.dispatch(reportsApi.util.resetApiState());
    restore();
  });

  const fetched = async () => {
    const request = store.dispatch(reportsApi.endpoints.getReport.initiate(ref, { forceRefetch: true }));
    await request;
    request.unsubscribe();
  };

  it('takes in the server copy once it arrives, and each newer one while open', async () => {
    const close = store.dispatch(reportOpened(ref, MEMBER, storageWith()));
    expect(selectDocument(store.getState(), key)).toBeUndefined();
    await fetched();
    expect(selectDocument(store.getState(), key)).toMatchObject({ title: 'Sales', baseVersion: 1, dirty: false });
    served = report(2, 'Sales 2');
    await fetched();
    // A refetch only records the newer copy: the notice offers it, the document stays.
    expect(selectNewerVersion(store.getState(), key)).toMatchObject({ version: 2 });
    close();
  });

  it('starts from the cached copy when the report was already asked for', async () => {
    const request = store.dispatch(reportsApi.endpoints.getReport.initiate(ref));
    await request;
    store.dispatch(reportOpened(ref, MEMBER, storageWith()))();
    request.unsubscribe();
    expect(selectDocument(store.getState(), key)).toMatchObject({ title: 'Sales', baseVersion: 1 });
  });

  it('restores a draft from an earlier visit before the server copy', async () => {
    const draft = { config: { widgets: [] }, title: 'My plan', baseVersion: 1, baseModifiedAt: report(1).modified_at };
    const close = store.dispatch(reportOpened(ref, MEMBER, storageWith(draft)));
    expect(selectDocument(store.getState(), key)).toMatchObject({ title: 'My plan', dirty: true });
    await fetched();
    expect(selectDocument(store.getState(), key)).toMatchObject({ title: 'My plan', dirty: true, canUndo: true });
    close();
  });

  it('gives no document to a report whose page is not open', async () => {
    store.dispatch(reportOpened(ref, MEMBER, storageWith()))();
    await fetched();
    expect(selectDocument(store.getState(), key)).toBeUndefined();
  });
});
