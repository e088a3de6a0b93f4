import { createAction, isAnyOf } from '@reduxjs/toolkit';
import type { StateWithHistory } from 'redux-undo';
import { type Report, type ReportConfig, type ReportType, type UserRef } from '../../../contracts/reports';

// The report documents' types and actions, apart from their reducer: the listeners and the session's cleanup in the
// first load use them, while the reducer (and redux-undo) load with the report route (reportDocumentSlice.ts).

/** What the user edits of a report: its config and its title. */
export interface Snapshot {
  config: ReportConfig;
  title: string;
}

/** The server version a local document is based on: saving sends it, a newer one raises the notice. */
export interface BaseVersion {
  version: number;
  modifiedAt: string;
}

/** The latest server copy seen by the 10 s refetch, a save or a load. */
export interface RemoteCopy extends BaseVersion {
  snapshot: Snapshot;
  modifiedBy: UserRef | null;
}

export interface DocumentEntry {
  history: StateWithHistory<Snapshot>;
  base: BaseVersion;
  /** Null only for a draft restored from storage whose report has not loaded yet. */
  remote: RemoteCopy | null;
  /** The snapshot the base version holds on the server, when known: a document equal to it is not dirty. */
  pristine: Snapshot | null;
  dirty: boolean;
  /** A save refused because of a newer version, until the refetch brings that version. */
  conflict: { version: number; modifiedBy: UserRef | null } | null;
}

/**
 * One undo history per report: `docs` maps a report key to its entry, and each entry's `history` is produced
 * by ONE shared redux-undo reducer, called only with that report's history and an action meant for it. So
 * every report gets redux-undo's rules (limit, identical snapshots skipped, redo cleared by an edit) while
 * undoing in one tab never touches another, and switching tabs keeps each history as it was. A single
 * undoable over the whole map would instead interleave the reports' edits in one timeline.
 */
export interface ReportDocumentsState {
  docs: Record<string, DocumentEntry>;
}

export const initialReportDocumentsState: ReportDocumentsState = { docs: {} };

export const reportKey = (type: ReportType, id: number): string => `${type}/${id}`;

/** Structural equality of JSON values: an edit that changes nothing is not a new snapshot. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => sameJson(item, other[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // Keys holding undefined are absent once saved as JSON, so they do not count as a change.
  const keys = (value: Record<string, unknown>) => Object.keys(value).filter((key) => value[key] !== undefined);
  const leftKeys = keys(left);
  return leftKeys.length === keys(right).length && leftKeys.every((key) => sameJson(left[key], right[key]));
}

/** A draft kept in local storage: the document and the version it was based on, nothing else. */
export interface StoredDraft extends Snapshot {
  baseVersion: number;
  baseModifiedAt: string;
}

export const draftOf = (entry: DocumentEntry): StoredDraft => ({
  ...entry.history.present,
  baseVersion: entry.base.version,
  baseModifiedAt: entry.base.modifiedAt,
});

type Keyed<P = object> = { key: string } & P;

/** The server copy of a report arrived (first load or the 10 s refetch). */
export const remoteReportLoaded = createAction<Keyed<{ report: Report }>>('reportDocuments/remoteReportLoaded');
/** The user's draft of the report from an earlier visit, when the report has no document in this one yet. */
export const draftRestored = createAction<Keyed<{ draft: StoredDraft }>>('reportDocuments/draftRestored');
/** A new snapshot of the report's local config (and title): one undo step unless nothing changed. */
export const documentEdited = createAction<Keyed<{ config: ReportConfig; title?: string }>>(
  'reportDocuments/documentEdited',
);
export const undone = createAction<Keyed>('reportDocuments/undone');
export const redone = createAction<Keyed>('reportDocuments/redone');
/**
 * Drops the local changes and takes the latest server copy: both Discard and 'Load new version'. A draft whose
 * report has not loaded yet has nothing to go back to, so it waits.
 */
export const discarded = createAction<Keyed>('reportDocuments/discarded');
/**
 * A save succeeded: `snapshot` is what was sent, `report` the server's answer. Edits made while the save was on
 * its way stay as local changes on top of the new base.
 */
export const saved = createAction<Keyed<{ report: Report; snapshot: Snapshot }>>('reportDocuments/saved');
/**
 * The report was renamed on the server from this page: a rename is a new version, so the document moves onto it
 * (keeping its local changes) instead of reporting its own rename as someone else's save.
 */
export const renamed = createAction<Keyed<{ report: Report }>>('reportDocuments/renamed');
/** A save was refused with 409: the notice shows at once, before the refetch brings the newer copy. */
export const saveConflicted = createAction<Keyed<{ version: number; modifiedBy: UserRef | null }>>(
  'reportDocuments/saveConflicted',
);
/** The report is gone (deleted): its document and draft go with it. */
export const documentClosed = createAction<Keyed>('reportDocuments/documentClosed');

/** Every action of the report documents; each names its report's key. */
export const isReportDocumentAction = isAnyOf(
  remoteReportLoaded,
  draftRestored,
  documentEdited,
  undone,
  redone,
  discarded,
  saved,
  renamed,
  saveConflicted,
  documentClosed,
);
