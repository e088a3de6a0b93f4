import type { CustomField } from '../../contracts/dataModel';
import type { Field } from '../../contracts/datasets';
import { expressionMessages } from '../../engine/dataModel/expression';
import { fieldMessages } from '../../engine/dataModel/validation';
import { setupStore } from '../../store/store';
import {
  changesDiscarded,
  dataModelInit,
  dataModelRedo,
  dataModelUndo,
  fieldAdded,
  fieldMoved,
  fieldRemoved,
  fieldUpdated,
  remoteSynced,
  rulesReordered,
  selectCanRedo,
  selectCanUndo,
  selectEditedTableId,
  selectFieldErrors,
  selectHasErrors,
  selectHasPendingChanges,
  selectLocalFields,
  tableChanged,
  type TableField,
} from './dataModelSlice';
import { groupsOfTable } from './tableFields';

const builtIn = (id: string, type: Field['type'], format: Field['format'], category: string): Field => ({
  id,
  name: id,
  category,
  format,
  type,
  features: [],
});

const custom = (fields: Partial<CustomField> & { id: string }): CustomField => ({
  name: fields.id,
  category: 'Custom',
  type: 'dimension',
  format: 'string',
  features: [],
  custom: true,
  ...fields,
});

const sent = builtIn('sent', 'metric', 'number', 'Volume');
const opens = builtIn('open', 'metric', 'number', 'Volume');
const country = builtIn('country', 'dimension', 'country', 'Campaign');
const openRate = custom({ id: 'open_rate', name: 'Open rate', type: 'metric', format: 'percent', expr: 'open / sent' });
const region = custom({ id: 'region', rules: [{ field: 'country', type: 'equals', value: 'NL', result: 'Benelux' }] });
const zone = custom({
  id: 'zone',
  rules: [
    { field: 'region', type: 'equals', value: 'Benelux', result: 'EU' },
    { field: 'country', type: 'equals', value: 'US', result: 'NA' },
  ],
});
const doubled = custom({ id: 'doubled', type: 'metric', format: 'number', expr: 'open_rate * 2' });

const table: TableField[] = [sent, opens, openRate, country, region, zone, doubled];

function editorWith(fields: TableField[] = table) {
  const store = setupStore();
  store.dispatch(dataModelInit({ tableId: 'campaigns', fields }));
  const ids = () => selectLocalFields(store.getState()).map((field) => field.id);
  const field = (id: string) => selectLocalFields(store.getState()).find((candidate) => candidate.id === id);
  return { store, ids, field, state: () => store.getState() };
}

describe('data-model editor state', () => {
  it('init loads the saved fields without pending changes or history', () => {
    const { state, ids } = editorWith();
    expect(selectEditedTableId(state())).toBe('campaigns');
    expect(ids()).toEqual(['sent', 'open', 'open_rate', 'country', 'region', 'zone', 'doubled']);
    expect(selectHasPendingChanges(state())).toBe(false);
    expect(selectCanUndo(state())).toBe(false);
    expect(selectHasErrors(state())).toBe(false);
  });

  it('updating a field is a pending change that undo and redo take back and forth', () => {
    const { store, state, field } = editorWith();
    store.dispatch(fieldUpdated({ id: 'open_rate', changes: { shortName: 'OR' } }));
    expect(field('open_rate')).toMatchObject({ shortName: 'OR' });
    expect(selectHasPendingChanges(state())).toBe(true);
    store.dispatch(dataModelUndo());
    expect((field('open_rate') as CustomField).shortName).toBeUndefined();
    expect(selectHasPendingChanges(state())).toBe(false);
    expect(selectCanRedo(state())).toBe(true);
    store.dispatch(dataModelRedo());
    expect(field('open_rate')).toMatchObject({ shortName: 'OR' });
    expect(selectCanRedo(state())).toBe(false);
  });

  it('built-in fields cannot be changed, moved or removed', () => {
    const { store, state } = editorWith();
    store.dispatch(fieldUpdated({ id: 'sent', changes: { name: 'Sent mails' } }));
    store.dispatch(fieldMoved({ id: 'sent', to: 3 }));
    store.dispatch(fieldRemoved({ id: 'country' }));
    expect(selectLocalFields(state())).toEqual(table);
    expect(selectCanUndo(state())).toBe(false);
  });

  it('renaming derives the new id and carries it into every rule and expression', () => {
    const { store, ids, field } = editorWith();
    store.dispatch(fieldUpdated({ id: 'region', changes: { name: 'Sales Area' } }));
    expect(ids()).toContain('sales_area');
    expect(field('sales_area')).toMatchObject({ name: 'Sales Area' });
    expect((field('zone') as CustomField).rules?.[0].field).toBe('sales_area');

    store.dispatch(fieldUpdated({ id: 'open_rate', changes: { name: 'Opened share' } }));
    expect((field('doubled') as CustomField).expr).toBe('opened_share * 2');
    store.dispatch(dataModelUndo());
    expect((field('doubled') as CustomField).expr).toBe('open_rate * 2');
  });

  it('a name whose id is taken gets a suffix; an empty name keeps the id and shows the error', () => {
    const { store, ids, state } = editorWith();
    store.dispatch(fieldUpdated({ id: 'zone', changes: { name: 'Region' } }));
    expect(ids()).toContain('region_1');
    store.dispatch(fieldUpdated({ id: 'region_1', changes: { name: '' } }));
    expect(ids()).toContain('region_1');
    expect(selectFieldErrors(state()).region_1).toMatchObject({ name: fieldMessages.nameRequired });
    expect(selectHasErrors(state())).toBe(true);
  });

  it('reordering keeps a field after what it depends on and before what depends on it', () => {
    const { store, ids } = editorWith();
    // zone depends on region: it cannot move above it, nor region below it.
    store.dispatch(fieldMoved({ id: 'zone', to: 4 }));
    expect(ids()).toEqual(['sent', 'open', 'open_rate', 'country', 'region', 'zone', 'doubled']);
    store.dispatch(fieldMoved({ id: 'region', to: 6 }));
    expect(ids()).toEqual(['sent', 'open', 'open_rate', 'country', 'region', 'zone', 'doubled']);
    // open_rate uses open: it cannot go above it; doubled uses open_rate.
    store.dispatch(fieldMoved({ id: 'open_rate', to: 0 }));
    store.dispatch(fieldMoved({ id: 'open_rate', to: 6 }));
    expect(ids()).toEqual(['sent', 'open', 'open_rate', 'country', 'region', 'zone', 'doubled']);
    // Crossing unrelated fields is fine, built-in ones included.
    store.dispatch(fieldMoved({ id: 'doubled', to: 3 }));
    expect(ids()).toEqual(['sent', 'open', 'open_rate', 'doubled', 'country', 'region', 'zone']);
    store.dispatch(dataModelUndo());
    expect(ids()).toEqual(['sent', 'open', 'open_rate', 'country', 'region', 'zone', 'doubled']);
  });

  it('reorders a dimension’s rules', () => {
    const { store, field } = editorWith();
    store.dispatch(rulesReordered({ id: 'zone', from: 1, to: 0 }));
    expect((field('zone') as CustomField).rules?.map((rule) => rule.result)).toEqual(['NA', 'EU']);
    store.dispatch(rulesReordered({ id: 'zone', from: 0, to: 5 }));
    expect((field('zone') as CustomField).rules?.map((rule) => rule.result)).toEqual(['NA', 'EU']);
  });

  it('adds a field after the last field of its category, with the errors of an unfinished field', () => {
    const { store, ids, field, state } = editorWith();
    store.dispatch(fieldAdded({ type: 'metric', name: 'Click rate', category: 'Volume' }));
    expect(ids()).toEqual(['sent', 'open', 'click_rate', 'open_rate', 'country', 'region', 'zone', 'doubled']);
    expect(field('click_rate')).toMatchObject({ type: 'metric', name: 'Click rate', expr: '', custom: true });
    expect(selectFieldErrors(state()).click_rate).toEqual({ expr: expressionMessages.required });
    store.dispatch(fieldAdded({ type: 'dimension', name: 'Brand' }));
    expect(ids().at(-1)).toBe('brand');
    expect(selectFieldErrors(state()).brand).toEqual({ rules: fieldMessages.atLeastOneRule });
    store.dispatch(fieldAdded({ type: 'dimension', name: '  ' }));
    expect(ids()).toHaveLength(9);
  });

  it('removing a field strips the rules that refer to it; undo brings both back', () => {
    const { store, ids, field } = editorWith();
    store.dispatch(fieldRemoved({ id: 'region' }));
    expect(ids()).not.toContain('region');
    expect((field('zone') as CustomField).rules).toEqual([
      { field: 'country', type: 'equals', value: 'US', result: 'NA' },
    ]);
    store.dispatch(dataModelUndo());
    expect((field('zone') as CustomField).rules).toHaveLength(2);
  });

  it('discard goes back to the saved fields and can itself be undone', () => {
    const { store, state, ids } = editorWith();
    store.dispatch(fieldRemoved({ id: 'doubled' }));
    store.dispatch(changesDiscarded());
    expect(ids()).toContain('doubled');
    expect(selectHasPendingChanges(state())).toBe(false);
    store.dispatch(dataModelUndo());
    expect(ids()).not.toContain('doubled');
  });

  it('sync replaces the saved copy only: equal to the edits means nothing pending, history kept', () => {
    const { store, state } = editorWith();
    store.dispatch(fieldUpdated({ id: 'zone', changes: { rules_else: 'Other' } }));
    const edited = selectLocalFields(state());
    store.dispatch(remoteSynced({ fields: edited }));
    expect(selectHasPendingChanges(state())).toBe(false);
    expect(selectCanUndo(state())).toBe(true);
    // A save rolled back: the old copy again, the edits still pending.
    store.dispatch(remoteSynced({ fields: table }));
    expect(selectHasPendingChanges(state())).toBe(true);
    expect(selectLocalFields(state())).toEqual(edited);
  });

  it('changing table loads its fields with a fresh history', () => {
    const { store, state, ids } = editorWith();
    store.dispatch(fieldRemoved({ id: 'zone' }));
    store.dispatch(tableChanged({ tableId: 'contacts', fields: [country] }));
    expect(selectEditedTableId(state())).toBe('contacts');
    expect(ids()).toEqual(['country']);
    expect(selectCanUndo(state())).toBe(false);
    expect(selectHasPendingChanges(state())).toBe(false);
  });

  it('a metric may only use metrics above it', () => {
    const { store, state } = editorWith();
    store.dispatch(fieldUpdated({ id: 'open_rate', changes: { expr: 'open / doubled' } }));
    expect(selectFieldErrors(state()).open_rate).toEqual({ expr: expressionMessages.invalidTokens });
  });

  it('an undo of another editor does not touch this one', () => {
    const { store, ids } = editorWith();
    store.dispatch(fieldRemoved({ id: 'zone' }));
    store.dispatch({ type: '@@redux-undo/UNDO' });
    expect(ids()).not.toContain('zone');
  });
});

describe('saved groups of a table', () => {
  it('anchors each run of custom fields to the built-in field before it, or before the first one', () => {
    const first = custom({ id: 'first' });
    expect(groupsOfTable('campaigns', [first, ...table])).toEqual([
      { table: 'campaigns', action: 'insert_before', anchor: 'sent', fields: [first] },
      { table: 'campaigns', action: 'insert_after', anchor: 'open', fields: [openRate] },
      { table: 'campaigns', action: 'insert_after', anchor: 'country', fields: [region, zone, doubled] },
    ]);
  });
});
