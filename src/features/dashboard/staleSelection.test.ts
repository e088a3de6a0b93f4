import { type Report } from '../../contracts/reports';
import { setupStore } from '../../store/store';
import {
  documentClosed,
  documentEdited,
  redone,
  remoteReportLoaded,
  reportKey,
  undone,
} from '../report-document/reportDocumentSlice';
import { editModeSet, selectSelectedWidget, widgetSelected } from './dashboardSlice';
import { dropStaleSelections } from './staleSelection';

const key = reportKey('dashboard', 5);
const sales = { id: 'sales', type: 'rich_text', content: '<p>Sales</p>' };
const costs = { id: 'costs', type: 'rich_text', content: '<p>Costs</p>' };
const report: Report = {
  id: 5,
  workspace_id: 1,
  type: 'dashboard',
  title: 'Sales',
  dataset: null,
  config: { title: 'Sales', widgets: [sales] },
  version: 3,
  owner: null,
  created_at: '2026-11-01T10:00:00.000Z',
  created_by: null,
  modified_at: '2026-11-01T10:00:00.000Z',
  modified_by: null,
  last_opened_at: null,
  access_level: 'full_access',
  share_level: 'private',
};

describe('a selected widget that leaves its dashboard', () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  function editing() {
    const store = setupStore();
    stop = dropStaleSelections();
    store.dispatch(remoteReportLoaded({ key, report }));
    store.dispatch(documentEdited({ key, config: { title: 'Sales', widgets: [sales, costs] } }));
    store.dispatch(editModeSet({ key, editMode: true }));
    store.dispatch(widgetSelected({ key, widgetId: 'costs' }));
    return store;
  }

  it('stays selected through edits that keep it', () => {
    const store = editing();
    store.dispatch(documentEdited({ key, config: { title: 'Sales', widgets: [costs] } }));
    expect(selectSelectedWidget(store.getState(), key)).toBe('costs');
  });

  it('is unselected when an edit removes it', () => {
    const store = editing();
    store.dispatch(documentEdited({ key, config: { title: 'Sales', widgets: [sales] } }));
    expect(selectSelectedWidget(store.getState(), key)).toBeNull();
  });

  it('is unselected when an undo takes it away, and stays so after the redo', () => {
    const store = editing();
    store.dispatch(undone({ key }));
    expect(selectSelectedWidget(store.getState(), key)).toBeNull();
    store.dispatch(redone({ key }));
    expect(selectSelectedWidget(store.getState(), key)).toBeNull();
  });

  it('is unselected when its report closes', () => {
    const store = editing();
    store.dispatch(documentClosed({ key }));
    expect(selectSelectedWidget(store.getState(), key)).toBeNull();
  });
});
