/** @jest-environment ./test/nodeEnvironment.js */
import { json, stubNetwork } from '../../../../test/stubNetwork';
import { setupStore } from '../../../store/store';
import { reportsApi } from '../reportsApi';
import { closeGoneReports } from './goneReports';
import { entryOfDraft, reportKey, selectDocument } from './reportDocumentSlice';

const key = reportKey('dashboard', 5);
const draft = { config: { widgets: [] }, title: 'Plan', baseVersion: 1, baseModifiedAt: '2026-11-01T00:00:00.000Z' };

describe('a report that is gone', () => {
  let restore: () => void = () => undefined;
  let stop: () => void = () => undefined;
  afterEach(() => {
    restore();
    stop();
  });

  async function answered(status: number) {
    restore = stubNetwork(() => json({ error: 'Not found' }, status)).restore;
    const store = setupStore({ reportDocuments: { docs: { [key]: entryOfDraft(draft) } } });
    stop = closeGoneReports();
    const request = store.dispatch(
      reportsApi.endpoints.getReport.initiate({ workspaceId: 3, type: 'dashboard', id: 5 }),
    );
    await request;
    request.unsubscribe();
    return store;
  }

  it('takes its unsaved changes with it when the server no longer knows it', async () => {
    const store = await answered(404);
    expect(selectDocument(store.getState(), key)).toBeUndefined();
  });

  it('keeps them when the server only failed', async () => {
    const store = await answered(403);
    expect(selectDocument(store.getState(), key)?.title).toBe('Plan');
  });
});
