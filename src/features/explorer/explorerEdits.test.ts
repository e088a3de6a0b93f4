import { configureStore } from '@reduxjs/toolkit';
import { type ExplorerConfig, type Report } from '../../contracts/reports';
import {
  documentEdited,
  initialReportDocumentsState,
  redone,
  remoteReportLoaded,
  reportDocumentsReducer as reducer,
  reportKey,
  selectDocument,
  undone,
} from '../reports/state/reportDocumentSlice';
import {
  MAX_COLUMN_WIDTH,
  MIN_COLUMN_WIDTH,
  columnFilterChanged,
  columnHidden,
  columnMoved,
  columnPinned,
  columnResized,
  columnsReordered,
  columnSorted,
  columnsOf,
  dateFieldChanged,
  filtersCleared,
  gridLayout,
  movedInList,
  pivotChanged,
  rowGroupChanged,
  valueColumnChanged,
  valueOrder,
} from './explorerEdits';
import { explorerEdited } from './explorerReportView';

const base: ExplorerConfig = {
  dataset: 'campaign_metrics_by_send_date',
  columns: [{ colId: 'campaign_name' }, { colId: 'country' }, { colId: 'sent', width: 120 }],
  valueColumns: ['sent'],
};
const ids = (config: ExplorerConfig) => columnsOf(config).map((column) => column.colId);
const column = (config: ExplorerConfig, colId: string) => columnsOf(config).find((c) => c.colId === colId);

describe('column edits', () => {
  it('hides, pins and resizes one column, adding a column the view did not list', () => {
    expect(column(columnHidden(base, 'country', true), 'country')).toEqual({ colId: 'country', hide: true });
    expect(column(columnPinned(base, 'sent', 'left'), 'sent')).toEqual({ colId: 'sent', width: 120, pinned: 'left' });
    expect(column(columnPinned(base, 'sent', null), 'sent')?.pinned).toBeNull();
    expect(column(columnResized(base, 'sent', 201.6), 'sent')?.width).toBe(202);
    expect(column(columnResized(base, 'sent', 1), 'sent')?.width).toBe(MIN_COLUMN_WIDTH);
    expect(column(columnResized(base, 'sent', 1e9), 'sent')?.width).toBe(MAX_COLUMN_WIDTH);
    expect(ids(columnHidden(base, 'revenue', true))).toEqual(['campaign_name', 'country', 'sent', 'revenue']);
  });

  it('sorts by one column unless the sort is added to the others', () => {
    const bySent = columnSorted(base, 'sent', 'desc');
    expect(gridLayout(bySent).sort).toEqual([{ field: 'sent', desc: true }]);
    const thenCountry = columnSorted(bySent, 'country', 'asc', true);
    expect(gridLayout(thenCountry).sort).toEqual([
      { field: 'country', desc: false },
      { field: 'sent', desc: true },
    ]);
    expect(gridLayout(columnSorted(thenCountry, 'country', 'asc')).sort).toEqual([{ field: 'country', desc: false }]);
    expect(gridLayout(columnSorted(bySent, 'sent', null)).sort).toEqual([]);
  });

  it('reorders columns, clamping the target index', () => {
    expect(ids(columnMoved(base, 'sent', 0))).toEqual(['sent', 'campaign_name', 'country']);
    expect(ids(columnMoved(base, 'campaign_name', 99))).toEqual(['country', 'sent', 'campaign_name']);
    expect(ids(columnMoved(base, 'campaign_name', -3))).toEqual(['campaign_name', 'country', 'sent']);
    expect(ids(columnsReordered(base, ['open_rate', 'sent']))).toEqual([
      'open_rate',
      'sent',
      'campaign_name',
      'country',
    ]);
    expect(column(columnsReordered(base, ['sent']), 'sent')?.width).toBe(120);
  });

  it("moves a panel list's entry one place, keeping the other columns and the group levels' order", () => {
    const grouped = rowGroupChanged(rowGroupChanged(base, 'country', true), 'campaign_name', true);
    const values = { ...grouped, valueColumns: ['sent', 'open_rate', 'revenue'] };
    expect(valueOrder(values, values.valueColumns)).toEqual(['sent', 'open_rate', 'revenue']);
    const moved = movedInList(values, ['sent', 'open_rate', 'revenue'], 'revenue', -1);
    expect(valueOrder(moved, values.valueColumns)).toEqual(['sent', 'revenue', 'open_rate']);
    expect(gridLayout(moved).rowGroups).toEqual(['country', 'campaign_name']);
    const swapped = movedInList(values, ['country', 'campaign_name'], 'country', 1);
    expect(gridLayout(swapped).rowGroups).toEqual(['campaign_name', 'country']);
    // Past either end nothing moves.
    expect(movedInList(values, ['country', 'campaign_name'], 'country', -1)).toBe(values);
  });

  it('groups rows in the order the levels were added, and ungroups', () => {
    const two = rowGroupChanged(rowGroupChanged(base, 'country', true), 'campaign_name', true);
    expect(gridLayout(two).rowGroups).toEqual(['country', 'campaign_name']);
    expect(gridLayout(rowGroupChanged(two, 'country', false)).rowGroups).toEqual(['campaign_name']);
  });

  it('pivots by at most one dimension, leaving its row group, and turns pivot mode off with none', () => {
    const grouped = rowGroupChanged(base, 'country', true);
    const pivoted = pivotChanged(pivotChanged(grouped, 'campaign_name'), 'country');
    expect(gridLayout(pivoted)).toMatchObject({ pivot: 'country', rowGroups: [] });
    expect(columnsOf(pivoted).filter((c) => c.pivot)).toHaveLength(1);
    const off = pivotChanged(pivoted, null);
    expect(off.pivotMode).toBe(false);
    expect(gridLayout(off).pivot).toBeNull();
  });

  it('adds and removes value columns', () => {
    const more = valueColumnChanged(valueColumnChanged(base, 'open_rate', true), 'revenue', true);
    expect(more.valueColumns).toEqual(['sent', 'open_rate', 'revenue']);
    expect(valueColumnChanged(more, 'sent', false).valueColumns).toEqual(['open_rate', 'revenue']);
    expect(valueColumnChanged(more, 'sent', true).valueColumns).toEqual(['open_rate', 'revenue', 'sent']);
  });

  it('sets and clears column filters; an empty model is no model', () => {
    const filter = { filterType: 'text', type: 'contains', filter: 'sale' };
    const one = columnFilterChanged(base, 'campaign_name', filter);
    expect(one.filterModel).toEqual({ campaign_name: filter });
    expect(columnFilterChanged(one, 'campaign_name', null).filterModel).toBeNull();
    expect(
      filtersCleared(columnFilterChanged(one, 'country', { filterType: 'set', values: [] })).filterModel,
    ).toBeNull();
    expect(dateFieldChanged(base, 'event_date').dateField).toBe('event_date');
  });

  it('moves columns of an older view saved under `view` to `columns`', () => {
    const legacy: ExplorerConfig = { dataset: 'x', view: [{ colId: 'a' }, { colId: 'b' }] };
    const next = columnHidden(legacy, 'b', true);
    expect(next.view).toBeUndefined();
    expect(next.columns).toEqual([{ colId: 'a' }, { colId: 'b', hide: true }]);
  });
});

describe('grid edits are report edits', () => {
  const key = reportKey('explorer_view', 3);
  const user = { id: 1, name: 'Alice' };
  const report: Report = {
    id: 3,
    workspace_id: 1,
    type: 'explorer_view',
    title: 'Explorer',
    dataset: null,
    config: base,
    version: 1,
    owner: user,
    created_at: '2026-11-01T10:00:00.000Z',
    created_by: user,
    modified_at: '2026-11-01T10:00:00.000Z',
    modified_by: user,
    last_opened_at: null,
    access_level: 'full_access',
    share_level: 'private',
  };

  it('undoes and redoes a sequence of column edits in order', () => {
    const edits = [
      (c: ExplorerConfig) => rowGroupChanged(c, 'country', true),
      (c: ExplorerConfig) => pivotChanged(c, 'campaign_name'),
      (c: ExplorerConfig) => columnResized(c, 'sent', 300),
    ];
    let state = reducer(initialReportDocumentsState, remoteReportLoaded({ key, report }));
    const configs = [base];
    for (const edit of edits) {
      configs.push(edit(configs[configs.length - 1]));
      state = reducer(state, documentEdited({ key, config: configs[configs.length - 1] }));
    }
    const present = () => selectDocument({ reportDocuments: state }, key)!;
    expect(present()).toMatchObject({ config: configs[3], dirty: true, canUndo: true, canRedo: false });
    state = reducer(state, undone({ key }));
    state = reducer(state, undone({ key }));
    expect(present().config).toEqual(configs[1]);
    state = reducer(state, redone({ key }));
    expect(present().config).toEqual(configs[2]);
    state = reducer(state, undone({ key }));
    state = reducer(state, undone({ key }));
    expect(present()).toMatchObject({ config: base, dirty: false, canUndo: false });
  });

  it('builds each edit on the one before, even when both come before the page renders again', () => {
    const store = configureStore({ reducer: { reportDocuments: reducer } });
    store.dispatch(remoteReportLoaded({ key, report }));
    store.dispatch(explorerEdited(key, (c) => rowGroupChanged(c, 'country', true)));
    store.dispatch(explorerEdited(key, (c) => columnPinned(c, 'sent', 'left')));
    const { config } = selectDocument(store.getState(), key)!;
    expect(gridLayout(config as ExplorerConfig).rowGroups).toEqual(['country']);
    expect(columnsOf(config as ExplorerConfig).find((c) => c.colId === 'sent')?.pinned).toBe('left');
    store.dispatch(undone({ key }));
    expect(gridLayout(selectDocument(store.getState(), key)!.config as ExplorerConfig).rowGroups).toEqual(['country']);
  });
});
