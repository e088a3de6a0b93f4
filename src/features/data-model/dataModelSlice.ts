import { createAction, createSelector, createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import undoable, { newHistory, type StateWithHistory } from 'redux-undo';
import type { CustomField } from '../../contracts/dataModel';
import type { Field } from '../../contracts/datasets';
import { canMoveField, removeField, renameFieldReferences } from '../../engine/dataModel/edit';
import { deriveFieldId, validateField, type FieldErrors, type ModelField } from '../../engine/dataModel/validation';
import { rootReducer } from '../../store/store';
import { sameJson } from '../reports/state/reportDocumentActions';

/** One field of a table in the editor: a built-in field (fixed) or a custom field of the data model. */
export type TableField = Field | CustomField;

export const isCustomField = (field: TableField): field is CustomField => 'custom' in field && field.custom === true;

/** The undoable part: the table being edited and its fields as the admin has changed them. */
export interface EditorState {
  tableId: string | null;
  local: TableField[];
}

/**
 * The data-model editor (spec 1 §4): `remote` is the table's fields as saved, `history` the local copy with
 * its undo history. The saved copy stays out of the history, so undoing never pretends a save did not happen.
 */
export interface DataModelState {
  remote: TableField[];
  history: StateWithHistory<EditorState>;
}

export const DATA_MODEL_HISTORY_LIMIT = 100;
export const DEFAULT_CUSTOM_CATEGORY = 'Custom';

/** The id a custom field gets for a new name: derived from it, kept when the name gives none or a taken one. */
export function renamedFieldId(fields: readonly TableField[], id: string, name: string): string {
  const taken = new Set(fields.filter((field) => field.id !== id).map((field) => field.id ?? ''));
  const derived = deriveFieldId(name, taken);
  return 'id' in derived ? derived.id : id;
}

/** A new custom field with the defaults of its type (a metric's expression and a dimension's rules to fill). */
export function newCustomField(type: 'metric' | 'dimension', id: string, name: string, category: string): CustomField {
  const base = { id, name, shortName: name, category, features: [], custom: true as const };
  return type === 'metric'
    ? { ...base, type, format: 'number', expr: '' }
    : { ...base, type, format: 'string', rules: [], rules_else: null };
}

function customIndex(fields: readonly TableField[], id: string): number {
  const index = fields.findIndex((field) => field.id === id);
  return index >= 0 && isCustomField(fields[index]) ? index : -1;
}

const editorSlice = createSlice({
  name: 'dataModel',
  initialState: { tableId: null, local: [] } as EditorState,
  reducers: {
    /** Changes a custom field; a new name gives a new id, carried into every rule and expression. */
    fieldUpdated(state, action: PayloadAction<{ id: string; changes: Partial<Omit<CustomField, 'id' | 'custom'>> }>) {
      const { id, changes } = action.payload;
      const index = customIndex(state.local, id);
      if (index < 0) return;
      state.local[index] = { ...(state.local[index] as CustomField), ...changes };
      if (changes.name === undefined) return;
      const nextId = renamedFieldId(state.local, id, changes.name);
      if (nextId !== id) state.local = renameFieldReferences(state.local, id, nextId);
    },
    /** Moves a custom field to position `to`, unless it would cross a field it depends on or that depends on it. */
    fieldMoved(state, action: PayloadAction<{ id: string; to: number }>) {
      const from = customIndex(state.local, action.payload.id);
      const { to } = action.payload;
      if (from < 0 || from === to || !canMoveField(state.local, from, to)) return;
      const [moved] = state.local.splice(from, 1);
      state.local.splice(to, 0, moved);
    },
    rulesReordered(state, action: PayloadAction<{ id: string; from: number; to: number }>) {
      const { id, from, to } = action.payload;
      const field = state.local[customIndex(state.local, id)] as CustomField | undefined;
      const rules = field?.rules;
      if (!rules || from === to || !rules[from] || to < 0 || to >= rules.length) return;
      const [moved] = rules.splice(from, 1);
      rules.splice(to, 0, moved);
    },
    /** A new custom field after the last field of its category (at the end when the category is new). */
    fieldAdded(state, action: PayloadAction<{ type: 'metric' | 'dimension'; name: string; category?: string }>) {
      const { type, name, category = DEFAULT_CUSTOM_CATEGORY } = action.payload;
      const derived = deriveFieldId(name, new Set(state.local.map((field) => field.id ?? '')));
      if (!('id' in derived)) return;
      const last = state.local.findLastIndex((field) => field.category === category);
      const at = last < 0 ? state.local.length : last + 1;
      state.local.splice(at, 0, newCustomField(type, derived.id, name.trim(), category));
    },
    /** Removes a custom field and strips the rules that refer to it. */
    fieldRemoved(state, action: PayloadAction<{ id: string }>) {
      if (customIndex(state.local, action.payload.id) < 0) return;
      state.local = removeField(state.local, action.payload.id);
    },
    localReplaced(state, action: PayloadAction<TableField[]>) {
      state.local = action.payload;
    },
  },
});

export const { fieldUpdated, fieldMoved, rulesReordered, fieldAdded, fieldRemoved } = editorSlice.actions;

/** Loads a table's saved fields into the editor, without history. */
export const dataModelInit = createAction<{ tableId: string; fields: TableField[] }>('dataModel/tableLoaded');
/** Another table: its saved fields, a fresh history (the page asks first when changes are pending). */
export const tableChanged = createAction<{ tableId: string; fields: TableField[] }>('dataModel/tableChanged');
/** The saved copy changed (a save, its optimistic update, or that update rolled back); local edits stay. */
export const remoteSynced = createAction<{ fields: TableField[] }>('dataModel/remoteSynced');
/** Local edits dropped: back to the saved copy (undoable). */
export const changesDiscarded = createAction('dataModel/changesDiscarded');
// Own types, so an undo here never reaches another undoable reducer of the store; named as events for DevTools.
export const dataModelUndo = createAction('dataModel/undone');
export const dataModelRedo = createAction('dataModel/redone');

const historyReducer = undoable(editorSlice.reducer, {
  limit: DATA_MODEL_HISTORY_LIMIT,
  undoType: dataModelUndo.type,
  redoType: dataModelRedo.type,
  ignoreInitialState: true,
});

const fresh = (tableId: string | null, fields: TableField[]): DataModelState => ({
  remote: fields,
  history: newHistory([], { tableId, local: fields }, []),
});

export const initialDataModelState: DataModelState = fresh(null, []);

export function dataModelReducer(state: DataModelState = initialDataModelState, action: UnknownAction): DataModelState {
  if (dataModelInit.match(action) || tableChanged.match(action)) {
    return fresh(action.payload.tableId, action.payload.fields);
  }
  if (remoteSynced.match(action)) return { ...state, remote: action.payload.fields };
  const historyAction = changesDiscarded.match(action) ? editorSlice.actions.localReplaced(state.remote) : action;
  const history = historyReducer(state.history, historyAction);
  return history === state.history ? state : { ...state, history };
}

declare module '../../store/store' {
  interface LazyLoadedSlices {
    dataModel: DataModelState;
  }
}

// With the data model page's chunk, so redux-undo and this reducer stay out of the first load.
rootReducer.inject({ reducerPath: 'dataModel', reducer: dataModelReducer });

/** Absent until this module has loaded and the store has seen an action since. */
type WithDataModel = { dataModel?: DataModelState };

const dataModelOf = (state: WithDataModel) => state.dataModel ?? initialDataModelState;

export const selectLocalFields = (state: WithDataModel) => dataModelOf(state).history.present.local;
export const selectRemoteFields = (state: WithDataModel) => dataModelOf(state).remote;
export const selectEditedTableId = (state: WithDataModel) => dataModelOf(state).history.present.tableId;
export const selectCanUndo = (state: WithDataModel) => dataModelOf(state).history.past.length > 0;
export const selectCanRedo = (state: WithDataModel) => dataModelOf(state).history.future.length > 0;

export const selectHasPendingChanges = createSelector(
  [selectLocalFields, selectRemoteFields],
  (local, remote) => !sameJson(local, remote),
);

/** Every custom field's errors by id (fields without errors are absent), checked in its place in the table. */
export const selectFieldErrors = createSelector([selectLocalFields], (local) => {
  const errors: Record<string, FieldErrors> = {};
  local.forEach((field, index) => {
    if (!isCustomField(field)) return;
    const fieldErrors = validateField(local as ModelField[], index);
    if (Object.keys(fieldErrors).length > 0) errors[field.id ?? ''] = fieldErrors;
  });
  return errors;
});

export const selectHasErrors = createSelector([selectFieldErrors], (errors) => Object.keys(errors).length > 0);
