import { type DashboardConfig, type Report } from '../../../contracts/reports';
import {
  discarded,
  documentClosed,
  documentEdited,
  entryOfDraft,
  HISTORY_LIMIT,
  initialReportDocumentsState,
  redone,
  remoteReportLoaded,
  renamed,
  type ReportDocumentsState,
  reportDocumentsReducer as reducer,
  reportKey,
  saveConflicted,
  saved,
  selectDocument,
  selectNewerVersion,
  selectSaveInput,
  undone,
} from './reportDocumentSlice';

const key = reportKey('dashboard', 7);
const alice = { id: 1, name: 'Alice' };
const bob = { id: 2, name: 'Bob' };

const config = (title: string, widgets: DashboardConfig['widgets'] = []): DashboardConfig => ({ title, widgets });

function report(overrides: Partial<Report> = {}): Report {
  return {
    id: 7,
    workspace_id: 1,
    type: 'dashboard',
    title: 'Sales',
    dataset: null,
    config: config('Sales'),
    version: 1,
    owner: alice,
    created_at: '2026-11-01T10:00:00.000Z',
    created_by: alice,
    modified_at: '2026-11-01T10:00:00.000Z',
    modified_by: alice,
    last_opened_at: null,
    access_level: 'full_access',
    share_level: 'private',
    ...overrides,
  };
}

const view = (state: ReportDocumentsState) => selectDocument({ reportDocuments: state }, key);
const newer = (state: ReportDocumentsState) => selectNewerVersion({ reportDocuments: state }, key);
const loaded = (remote = report()) => reducer(initialReportDocumentsState, remoteReportLoaded({ key, report: remote }));
const edit = (state: ReportDocumentsState, title: string) =>
  reducer(state, documentEdited({ key, config: config(title) }));

describe('the report document', () => {
  it('starts as the server copy with nothing to undo, redo or save', () => {
    expect(view(loaded())).toEqual({
      config: config('Sales'),
      title: 'Sales',
      dirty: false,
      canUndo: false,
      canRedo: false,
      baseVersion: 1,
    });
  });

  it('ignores edits of a report that is not loaded', () => {
    const state = reducer(initialReportDocumentsState, documentEdited({ key, config: config('A') }));
    expect(view(state)).toBeUndefined();
  });

  it('adds an edit to the history, marks it unsaved and allows undo', () => {
    const state = edit(loaded(), 'A');
    expect(view(state)).toMatchObject({ config: config('A'), dirty: true, canUndo: true, canRedo: false });
  });

  it('does not record a snapshot identical to the last one', () => {
    const once = edit(loaded(), 'A');
    const twice = edit(once, 'A');
    expect(twice).toBe(once);
    expect(reducer(twice, undone({ key })).docs[key].history.past).toHaveLength(0);
  });

  it('treats keys holding undefined as absent when comparing snapshots', () => {
    const state = loaded();
    const same = reducer(state, documentEdited({ key, config: { ...config('Sales'), filters: undefined } }));
    expect(same).toBe(state);
  });

  it('keeps the title when an edit gives only a config, and records a title change', () => {
    const state = reducer(loaded(), documentEdited({ key, config: config('Sales'), title: 'Renamed' }));
    expect(view(state)).toMatchObject({ title: 'Renamed', dirty: true, canUndo: true });
    expect(view(edit(state, 'B'))?.title).toBe('Renamed');
  });

  it('undoes and redoes snapshot by snapshot', () => {
    let state = edit(edit(loaded(), 'A'), 'B');
    state = reducer(state, undone({ key }));
    expect(view(state)).toMatchObject({ config: config('A'), canUndo: true, canRedo: true });
    state = reducer(state, undone({ key }));
    expect(view(state)).toMatchObject({ config: config('Sales'), canUndo: false, canRedo: true, dirty: false });
    state = reducer(state, redone({ key }));
    state = reducer(state, redone({ key }));
    expect(view(state)).toMatchObject({ config: config('B'), canUndo: true, canRedo: false, dirty: true });
  });

  it('needs more than one snapshot to undo, and something undone to redo', () => {
    const state = loaded();
    expect(reducer(state, undone({ key }))).toBe(state);
    expect(reducer(state, redone({ key }))).toBe(state);
  });

  it('clears redo with a new edit', () => {
    const state = edit(reducer(edit(edit(loaded(), 'A'), 'B'), undone({ key })), 'C');
    expect(view(state)).toMatchObject({ config: config('C'), canRedo: false });
    expect(state.docs[key].history.past.map((snapshot) => snapshot.config.title)).toEqual(['Sales', 'A']);
  });

  it('caps the history at 100 entries, dropping the oldest', () => {
    let state = loaded();
    for (let index = 1; index <= HISTORY_LIMIT + 20; index += 1) state = edit(state, `Edit ${index}`);
    const { past, present } = state.docs[key].history;
    expect(past.length + 1).toBe(HISTORY_LIMIT);
    expect(past[0].config.title).toBe('Edit 21');
    expect(present.config.title).toBe('Edit 120');
  });

  it('keeps one history per report', () => {
    const other = reportKey('explorer_view', 3);
    let state = edit(loaded(), 'A');
    state = reducer(
      state,
      remoteReportLoaded({
        key: other,
        report: report({ id: 3, type: 'explorer_view', config: { dataset: 'list_members' } }),
      }),
    );
    state = reducer(state, documentEdited({ key: other, config: { dataset: 'campaign_metrics_by_send_date' } }));
    state = reducer(state, undone({ key: other }));
    expect(view(state)).toMatchObject({ config: config('A'), canUndo: true });
    expect(selectDocument({ reportDocuments: state }, other)).toMatchObject({ dirty: false, canRedo: true });
  });

  it('discards back to the remote version', () => {
    const state = reducer(edit(edit(loaded(), 'A'), 'B'), discarded({ key }));
    expect(view(state)).toEqual(view(loaded()));
  });

  it('is not dirty when undone or edited back to the server copy', () => {
    expect(view(reducer(edit(loaded(), 'A'), undone({ key })))?.dirty).toBe(false);
    // An edit that restores the same values is equal to the server copy, so nothing is left to save.
    expect(view(edit(edit(loaded(), 'A'), 'Sales'))?.dirty).toBe(false);
  });

  it('keeps the local document when the refetch brings the same version', () => {
    const state = edit(loaded(), 'A');
    const next = reducer(state, remoteReportLoaded({ key, report: report() }));
    expect(next).toBe(state);
    expect(view(next)).toMatchObject({ config: config('A'), dirty: true });
    expect(newer(next)).toBeNull();
  });

  describe('a newer version on the server', () => {
    const bobSaved = report({
      version: 2,
      modified_at: '2026-11-02T09:00:00.000Z',
      modified_by: bob,
      config: config('Bob'),
    });

    it('is noticed with its author, and the local changes stay until the user chooses', () => {
      const state = reducer(edit(loaded(), 'A'), remoteReportLoaded({ key, report: bobSaved }));
      expect(newer(state)).toEqual({ version: 2, modifiedBy: bob });
      expect(view(state)).toMatchObject({ config: config('A'), dirty: true, baseVersion: 1 });
    });

    it('is noticed even without local changes', () => {
      const state = reducer(loaded(), remoteReportLoaded({ key, report: bobSaved }));
      expect(newer(state)).toEqual({ version: 2, modifiedBy: bob });
      expect(view(state)).toMatchObject({ config: config('Sales'), dirty: false });
    });

    it('is noticed from a newer modified time at the same version', () => {
      const touched = report({ modified_at: '2026-11-03T09:00:00.000Z', modified_by: bob });
      expect(newer(reducer(loaded(), remoteReportLoaded({ key, report: touched })))).toEqual({
        version: 1,
        modifiedBy: bob,
      });
    });

    it("is loaded with 'Load new version', dropping the local changes and the history", () => {
      let state = reducer(edit(loaded(), 'A'), remoteReportLoaded({ key, report: bobSaved }));
      state = reducer(state, discarded({ key }));
      expect(view(state)).toEqual({
        config: config('Bob'),
        title: 'Sales',
        dirty: false,
        canUndo: false,
        canRedo: false,
        baseVersion: 2,
      });
      expect(newer(state)).toBeNull();
    });

    it('is noticed at once from a refused save, before the refetch', () => {
      let state = reducer(edit(loaded(), 'A'), saveConflicted({ key, version: 2, modifiedBy: bob }));
      expect(newer(state)).toEqual({ version: 2, modifiedBy: bob });
      state = reducer(state, remoteReportLoaded({ key, report: bobSaved }));
      expect(state.docs[key].conflict).toBeNull();
      expect(newer(state)).toEqual({ version: 2, modifiedBy: bob });
    });
  });

  describe('saving', () => {
    it('moves the base to the saved version and clears the unsaved mark', () => {
      let state = edit(loaded(), 'A');
      const sent = selectSaveInput({ reportDocuments: state }, key);
      expect(sent).toEqual({ config: config('A'), title: 'Sales', version: 1 });
      const answer = report({ version: 2, modified_at: '2026-11-02T09:00:00.000Z', config: config('A') });
      state = reducer(state, saved({ key, report: answer, snapshot: { config: config('A'), title: 'Sales' } }));
      expect(view(state)).toMatchObject({ config: config('A'), dirty: false, baseVersion: 2, canUndo: true });
      expect(newer(state)).toBeNull();
      // The refetch of our own save is not someone else's newer version.
      expect(newer(reducer(state, remoteReportLoaded({ key, report: answer })))).toBeNull();
    });

    it('keeps edits made while the save was on its way as unsaved changes', () => {
      let state = edit(edit(loaded(), 'A'), 'B');
      const answer = report({ version: 2, modified_at: '2026-11-02T09:00:00.000Z', config: config('A') });
      state = reducer(state, saved({ key, report: answer, snapshot: { config: config('A'), title: 'Sales' } }));
      expect(view(state)).toMatchObject({ config: config('B'), dirty: true, baseVersion: 2 });
    });
  });

  describe('renaming from the page', () => {
    const renamedReport = report({
      title: 'Q4',
      config: config('Q4'),
      version: 2,
      modified_at: '2026-11-02T09:00:00.000Z',
    });

    it('takes the renamed report when there are no local changes', () => {
      const state = reducer(loaded(), renamed({ key, report: renamedReport }));
      expect(view(state)).toMatchObject({ title: 'Q4', dirty: false, baseVersion: 2 });
      expect(newer(state)).toBeNull();
    });

    it('keeps local changes on top of the renamed version', () => {
      const withWidget = config('Sales', [{ id: 'w1', type: 'rich_text' }]);
      let state = reducer(loaded(), documentEdited({ key, config: withWidget }));
      state = reducer(state, renamed({ key, report: renamedReport }));
      expect(view(state)).toMatchObject({ title: 'Q4', dirty: true, baseVersion: 2 });
      expect(view(state)?.config).toEqual({ ...withWidget, title: 'Q4' });
      expect(newer(state)).toBeNull();
    });
  });

  describe('a draft restored after a reload', () => {
    const draft = { config: config('Draft'), title: 'Sales', baseVersion: 1, baseModifiedAt: report().modified_at };
    const restored: ReportDocumentsState = { docs: { [key]: entryOfDraft(draft) } };

    it('shows the unsaved changes before the report loads', () => {
      expect(view(restored)).toMatchObject({ config: config('Draft'), dirty: true, canUndo: false, baseVersion: 1 });
      expect(reducer(restored, discarded({ key }))).toBe(restored);
    });

    it('can be undone back to the server copy it was based on', () => {
      let state = reducer(restored, remoteReportLoaded({ key, report: report() }));
      expect(view(state)).toMatchObject({ config: config('Draft'), dirty: true, canUndo: true });
      state = reducer(state, undone({ key }));
      expect(view(state)).toMatchObject({ config: config('Sales'), dirty: false });
    });

    it('is no change when equal to the server copy', () => {
      const same: ReportDocumentsState = { docs: { [key]: entryOfDraft({ ...draft, config: config('Sales') }) } };
      expect(view(reducer(same, remoteReportLoaded({ key, report: report() })))).toEqual(view(loaded()));
    });

    it('raises the notice when the server moved on since', () => {
      const bobSaved = report({ version: 3, modified_at: '2026-11-04T09:00:00.000Z', modified_by: bob });
      const state = reducer(restored, remoteReportLoaded({ key, report: bobSaved }));
      expect(newer(state)).toEqual({ version: 3, modifiedBy: bob });
      expect(view(state)).toMatchObject({ config: config('Draft'), dirty: true, canUndo: false, baseVersion: 1 });
    });
  });

  it('forgets a closed document', () => {
    expect(view(reducer(edit(loaded(), 'A'), documentClosed({ key })))).toBeUndefined();
  });

  it('answers the same view object until the document changes', () => {
    const state = loaded();
    expect(view(state)).toBe(view(state));
    expect(view(edit(state, 'A'))).not.toBe(view(state));
  });
});
