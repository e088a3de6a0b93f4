import { setupStore } from '../../../store/store';
import { editModeSet, selectSelectedWidget, widgetSelected } from './dashboardSlice';
import { documentClosed, documentEdited, draftRestored, redone, reportKey, undone } from './reportDocumentSlice';
import { dropStaleSelections } from './staleSelection';

const key = reportKey('dashboard', 5);
const sales = { id: 'sales', type: 'rich_text', content: '<p>Sales</p>' };
const costs = { id: 'costs', type: 'rich_text', content: '<p>Costs</p>' };
/** The document starts from a draft with one widget, so an undo goes back to it. */
const draft = {
  config: { title: 'Sales', widgets: [sales] },
  title: 'Sales',
  baseVersion: 3,
  baseModifiedAt: '2026-11-01T10:00:00.000Z',
};

describe('a selected widget that leaves its dashboard', () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  function editing() {
    const store = setupStore();
    stop = dropStaleSelections();
    store.dispatch(draftRestored({ key, draft }));
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
