import { type UnknownAction } from '@reduxjs/toolkit';
import undoable, { ActionCreators, newHistory, type StateWithHistory } from 'redux-undo';
import { type Report, type ReportConfig, type UserRef } from '../../../contracts/reports';
import { rootReducer } from '../../../store/store';
import { signedInUserChanged, signedOut } from '../../session/sessionActions';
import {
  type BaseVersion,
  discarded,
  type DocumentEntry,
  documentClosed,
  documentEdited,
  draftRestored,
  initialReportDocumentsState,
  isReportDocumentAction,
  redone,
  type RemoteCopy,
  remoteReportLoaded,
  renamed,
  type ReportDocumentsState,
  sameJson,
  saveConflicted,
  saved,
  type Snapshot,
  type StoredDraft,
  undone,
} from './reportDocumentActions';

// Importers of the documents' reducer or selectors find the actions and types here too.
export * from './reportDocumentActions';

/** Undo history per report (spec 2 §9): the present snapshot and 99 before it. */
export const HISTORY_LIMIT = 100;

const SNAPSHOT_SET = 'reportDocuments/snapshotSet';

// Returning the same reference for an equal snapshot is what makes redux-undo skip it.
const snapshotReducer = (state: Snapshot | undefined, action: UnknownAction): Snapshot => {
  const current = state as Snapshot;
  if (action.type !== SNAPSHOT_SET) return current;
  const next = action.payload as Snapshot;
  return sameJson(current, next) ? current : next;
};

const historyReducer = undoable(snapshotReducer, { limit: HISTORY_LIMIT });

const snapshotOf = (report: Pick<Report, 'config' | 'title'>): Snapshot => ({
  config: report.config,
  title: report.title,
});

const remoteOf = (report: Report): RemoteCopy => ({
  snapshot: snapshotOf(report),
  version: report.version,
  modifiedAt: report.modified_at,
  modifiedBy: report.modified_by,
});

const isNewer = (remote: BaseVersion, base: BaseVersion) =>
  remote.version > base.version || Date.parse(remote.modifiedAt) > Date.parse(base.modifiedAt);

function withHistory(entry: DocumentEntry, history: StateWithHistory<Snapshot>): DocumentEntry {
  const dirty = entry.pristine === null || !sameJson(history.present, entry.pristine);
  return { ...entry, history, dirty };
}

/** A document reset to a server copy: no local changes, no history. */
const fromRemote = (remote: RemoteCopy): DocumentEntry => ({
  history: newHistory([], remote.snapshot, []),
  base: { version: remote.version, modifiedAt: remote.modifiedAt },
  remote,
  pristine: remote.snapshot,
  dirty: false,
  conflict: null,
});

/** The entry of a draft restored after a reload, until its report loads. */
export const entryOfDraft = (draft: StoredDraft): DocumentEntry => ({
  history: newHistory([], { config: draft.config, title: draft.title }, []),
  base: { version: draft.baseVersion, modifiedAt: draft.baseModifiedAt },
  remote: null,
  pristine: null,
  dirty: true,
  conflict: null,
});

function loadRemote(entry: DocumentEntry | undefined, remote: RemoteCopy): DocumentEntry {
  if (!entry) return fromRemote(remote);
  const conflict = entry.conflict && remote.version >= entry.conflict.version ? null : entry.conflict;
  if (entry.remote === null) {
    // A restored draft meets its report: undo can go back to the server copy when the draft was based on it.
    const draft = entry.history.present;
    const sameBase = !isNewer(remote, entry.base);
    if (sameBase && sameJson(draft, remote.snapshot)) return fromRemote(remote);
    const restored = { ...entry, remote, conflict, pristine: sameBase ? remote.snapshot : null };
    return withHistory(restored, newHistory(sameBase ? [remote.snapshot] : [], draft, []));
  }
  // The same version again changes nothing (every write on the server makes a new version).
  const known = entry.remote;
  if (known.version === remote.version && known.modifiedAt === remote.modifiedAt && conflict === entry.conflict) {
    return entry;
  }
  // The refetch only records the newer copy: replacing the document is the user's choice ('Load new version').
  return { ...entry, remote, conflict };
}

function rebase(entry: DocumentEntry, report: Report, pristine: Snapshot, history: StateWithHistory<Snapshot>) {
  const remote = remoteOf(report);
  const base = { version: remote.version, modifiedAt: remote.modifiedAt };
  return withHistory({ ...entry, remote, base, pristine, conflict: null }, history);
}

function renamedEntry(entry: DocumentEntry, report: Report): DocumentEntry {
  if (!entry.dirty) return fromRemote(remoteOf(report));
  const retitle = (snapshot: Snapshot): Snapshot =>
    snapshot.config.title === undefined
      ? { ...snapshot, title: report.title }
      : { config: { ...snapshot.config, title: report.title }, title: report.title };
  const { past, present, future } = entry.history;
  return rebase(entry, report, snapshotOf(report), newHistory(past, retitle(present), future));
}

/** The next entry of the report an action is about; the same entry when the action changes nothing. */
function nextEntry(entry: DocumentEntry | undefined, action: UnknownAction): DocumentEntry | undefined {
  if (remoteReportLoaded.match(action)) return loadRemote(entry, remoteOf(action.payload.report));
  if (draftRestored.match(action)) return entry ?? entryOfDraft(action.payload.draft);
  if (!entry || documentClosed.match(action)) return undefined;
  if (documentEdited.match(action)) {
    const { config, title } = action.payload;
    const snapshot: Snapshot = { config, title: title ?? entry.history.present.title };
    const history = historyReducer(entry.history, { type: SNAPSHOT_SET, payload: snapshot });
    return history === entry.history ? entry : withHistory(entry, history);
  }
  if (undone.match(action)) {
    return entry.history.past.length === 0
      ? entry
      : withHistory(entry, historyReducer(entry.history, ActionCreators.undo()));
  }
  if (redone.match(action)) {
    return entry.history.future.length === 0
      ? entry
      : withHistory(entry, historyReducer(entry.history, ActionCreators.redo()));
  }
  if (discarded.match(action)) return entry.remote ? { ...fromRemote(entry.remote), conflict: entry.conflict } : entry;
  if (saved.match(action)) return rebase(entry, action.payload.report, action.payload.snapshot, entry.history);
  if (renamed.match(action)) return renamedEntry(entry, action.payload.report);
  if (saveConflicted.match(action)) {
    const { version, modifiedBy } = action.payload;
    return { ...entry, conflict: { version, modifiedBy } };
  }
  return entry;
}

/**
 * A plain reducer, not Immer: every action replaces one entry of a map that holds every open report, and Immer's
 * copy-and-freeze of that map cost more than the edit itself (bench/README.md, bench:store).
 */
export function reportDocumentsReducer(
  state: ReportDocumentsState = initialReportDocumentsState,
  action: UnknownAction,
): ReportDocumentsState {
  // Another person's open reports (and their unsaved changes) never carry over to whoever signs in next.
  if (signedInUserChanged.match(action) || signedOut.match(action)) return initialReportDocumentsState;
  if (!isReportDocumentAction(action)) return state;
  const { key } = action.payload;
  const entry = state.docs[key];
  const next = nextEntry(entry, action);
  if (next === entry) return state;
  if (next) return { docs: { ...state.docs, [key]: next } };
  const { [key]: _closed, ...docs } = state.docs;
  return { docs };
}

/** Injected into the root reducer like a slice (combineSlices takes any reducer with its path). */
export const reportDocumentsSlice = { reducerPath: 'reportDocuments', reducer: reportDocumentsReducer } as const;

declare module '../../../store/store' {
  interface LazyLoadedSlices {
    reportDocuments: ReportDocumentsState;
  }
}

// With the report route's chunk, so redux-undo and this reducer stay out of the first load.
rootReducer.inject(reportDocumentsSlice);

export interface DocumentView {
  config: ReportConfig;
  title: string;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  baseVersion: number;
}

export interface NewerVersion {
  version: number;
  modifiedBy: UserRef | null;
}

/** Absent until this module has loaded and the store has seen an action since. */
type WithDocuments = { reportDocuments?: ReportDocumentsState };

const entryOf = (state: WithDocuments, key: string): DocumentEntry | undefined => state.reportDocuments?.docs[key];

// One view object per entry object, so components selecting a document re-render only when it changes.
const views = new WeakMap<DocumentEntry, DocumentView>();

export function selectDocument(state: WithDocuments, key: string): DocumentView | undefined {
  const entry = entryOf(state, key);
  if (!entry) return undefined;
  let view = views.get(entry);
  if (!view) {
    const { present, past, future } = entry.history;
    view = {
      config: present.config,
      title: present.title,
      dirty: entry.dirty,
      canUndo: past.length > 0,
      canRedo: future.length > 0,
      baseVersion: entry.base.version,
    };
    views.set(entry, view);
  }
  return view;
}

const newerVersions = new WeakMap<DocumentEntry, NewerVersion | null>();

/** The server's newer version than the local base, if any: what the newer-version notice shows. */
export function selectNewerVersion(state: WithDocuments, key: string): NewerVersion | null {
  const entry = entryOf(state, key);
  if (!entry) return null;
  if (!newerVersions.has(entry)) {
    const { remote, conflict, base } = entry;
    const newer =
      remote && isNewer(remote, base)
        ? { version: remote.version, modifiedBy: remote.modifiedBy }
        : conflict && conflict.version > base.version
          ? conflict
          : null;
    newerVersions.set(entry, newer);
  }
  return newerVersions.get(entry) ?? null;
}

/** The snapshot to send when saving, with the version it is based on. */
export function selectSaveInput(state: WithDocuments, key: string): (Snapshot & { version: number }) | undefined {
  const entry = entryOf(state, key);
  return entry && { ...entry.history.present, version: entry.base.version };
}
