import './dataModel.css';
import {
  Button,
  ButtonGroup,
  Callout,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { useEffect, useMemo, useRef } from 'react';
import { Navigate, useBlocker, useNavigate, useParams } from 'react-router-dom';
import { deriveFieldId, fieldMessages } from '../../engine/dataModel/validation';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { useReportShortcuts } from '../reports/useReportShortcuts';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import {
  SAVE_CUSTOM_FIELDS_FAILED,
  useGetCustomFieldsQuery,
  useGetSchemaTablesQuery,
  useSaveCustomFieldsMutation,
} from './dataModelApi';
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
  renamedFieldId,
  rulesReordered,
  selectCanRedo,
  selectCanUndo,
  selectEditedTableId,
  selectFieldErrors,
  selectHasErrors,
  selectHasPendingChanges,
  selectLocalFields,
  tableChanged,
} from './dataModelSlice';
import { FieldEditor } from './FieldEditor';
import { FieldTree } from './FieldTree';
import { groupsWithTable, tableFields } from './tableFields';

/** The table a data-model path names, so only a change of table (or leaving) asks about unsaved changes. */
const tableOfPath = (pathname: string) => /\/data-model\/tables\/([^/]+)/.exec(pathname)?.[1] ?? null;

/** Asks before unsaved changes are left behind: another table, another page, or closing the tab. */
function useUnsavedChangesGuard(pending: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      pending && tableOfPath(currentLocation.pathname) !== tableOfPath(nextLocation.pathname),
  );
  useEffect(() => {
    if (!pending) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [pending]);
  return blocker;
}

/**
 * settings/data-model: admins edit the workspace's custom fields, table by table, with undo (spec 1 §4).
 * Long because it routes between tables and fields, loads the saved copy into the editor, guards unsaved changes and
 * saves, all over the one editor state; the panels it shows are their own components.
 */
export function DataModelPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const workspace = useCurrentWorkspace();
  const { tableId, fieldId } = useParams();
  const base = `/workspaces/${workspace.id}/settings/data-model`;
  const tables = useGetSchemaTablesQuery(workspace.id);
  const saved = useGetCustomFieldsQuery(workspace.id);
  const [save, { isLoading: saving }] = useSaveCustomFieldsMutation();

  const local = useAppSelector(selectLocalFields);
  const editedTableId = useAppSelector(selectEditedTableId);
  const pending = useAppSelector(selectHasPendingChanges);
  const hasErrors = useAppSelector(selectHasErrors);
  const errors = useAppSelector(selectFieldErrors);
  const canUndo = useAppSelector(selectCanUndo);
  const canRedo = useAppSelector(selectCanRedo);

  const table = tables.data?.tables.find((candidate) => candidate.id === tableId);
  const remote = useMemo(() => (table && saved.data ? tableFields(table, saved.data) : null), [table, saved.data]);

  // The saved copy into the editor: a fresh start on arrival and on another table, else only the saved side.
  const loaded = useRef<string | null>(null);
  useEffect(() => {
    if (!remote || !tableId) return;
    if (loaded.current === null) dispatch(dataModelInit({ tableId, fields: remote }));
    else if (loaded.current !== tableId) dispatch(tableChanged({ tableId, fields: remote }));
    else dispatch(remoteSynced({ fields: remote }));
    loaded.current = tableId;
  }, [dispatch, remote, tableId]);

  const blocker = useUnsavedChangesGuard(pending);
  const ready = remote !== null && editedTableId === tableId;

  const onSave = async () => {
    if (!tableId || !saved.data || !pending || saving) return;
    if (hasErrors) {
      dispatch(notificationShown(fieldMessages.resolveErrors, 'danger'));
      return;
    }
    try {
      await save({ workspaceId: workspace.id, groups: groupsWithTable(saved.data, tableId, local) }).unwrap();
    } catch {
      dispatch(notificationShown(SAVE_CUSTOM_FIELDS_FAILED, 'danger'));
    }
  };
  useReportShortcuts(
    { undo: () => dispatch(dataModelUndo()), redo: () => dispatch(dataModelRedo()), save: () => void onSave() },
    'Data model',
  );

  if (tables.isError || saved.isError) {
    return <NonIdealState className="or-page" icon="error" title="Unable to load the data model" />;
  }
  if (!tables.data) return <Spinner className="or-page-spinner" />;
  if (!tableId && tables.data.tables[0]) return <Navigate replace to={`${base}/tables/${tables.data.tables[0].id}`} />;
  if (tableId && !table) return <NonIdealState className="or-page" icon="database" title="Table not found" />;

  const fieldPath = (field?: string) => `${base}/tables/${tableId}${field ? `/fields/${field}` : ''}`;
  const selected = ready ? local.find((field) => field.id === fieldId) : undefined;
  const onChange: Parameters<typeof FieldEditor>[0]['onChange'] = (changes) => {
    if (!fieldId) return;
    const nextId = changes.name === undefined ? fieldId : renamedFieldId(local, fieldId, changes.name);
    dispatch(fieldUpdated({ id: fieldId, changes }));
    if (nextId !== fieldId) navigate(fieldPath(nextId), { replace: true });
  };
  const onAdd = (type: 'metric' | 'dimension', name: string) => {
    const derived = deriveFieldId(name, new Set(local.map((field) => field.id ?? '')));
    dispatch(fieldAdded({ type, name }));
    if ('id' in derived) navigate(fieldPath(derived.id));
  };

  return (
    <div className="or-data-model">
      <header className="or-data-model-toolbar">
        <h2 className={Classes.HEADING}>Data model</h2>
        <ButtonGroup>
          <Button icon="undo" text="Undo" disabled={!canUndo} onClick={() => dispatch(dataModelUndo())} />
          <Button icon="redo" text="Redo" disabled={!canRedo} onClick={() => dispatch(dataModelRedo())} />
        </ButtonGroup>
        <Button
          text="Discard changes"
          variant="minimal"
          disabled={!pending}
          onClick={() => dispatch(changesDiscarded())}
        />
        <Button intent="primary" text="Save" loading={saving} disabled={!pending} onClick={() => void onSave()} />
        {pending && hasErrors && (
          <Callout compact intent="danger">
            {fieldMessages.resolveErrors}
          </Callout>
        )}
      </header>
      <div className="or-data-model-body">
        <FieldTree
          tables={tables.data.tables}
          tableId={ready ? tableId : undefined}
          fields={local}
          selectedId={fieldId}
          errorIds={new Set(Object.keys(errors))}
          onSelect={(table, field) => navigate(`${base}/tables/${table}${field ? `/fields/${field}` : ''}`)}
          onMove={(id, to) => dispatch(fieldMoved({ id, to }))}
          onAdd={onAdd}
        />
        {selected && tableId ? (
          <FieldEditor
            workspaceId={workspace.id}
            tableId={tableId}
            locale={workspace.locale}
            fields={local}
            field={selected}
            errors={errors[selected.id ?? '']}
            onChange={onChange}
            onMoveRule={(from, to) => fieldId && dispatch(rulesReordered({ id: fieldId, from, to }))}
            onRemove={() => {
              if (fieldId) dispatch(fieldRemoved({ id: fieldId }));
              navigate(fieldPath());
            }}
          />
        ) : (
          <NonIdealState icon="select" title="Select a field" />
        )}
      </div>
      <Dialog title="Unsaved Changes" isOpen={blocker.state === 'blocked'} onClose={() => blocker.reset?.()}>
        <DialogBody>You have unsaved changes to the data model. They are lost if you continue.</DialogBody>
        <DialogFooter
          actions={
            <>
              <Button
                text="Continue without Saving"
                onClick={() => {
                  dispatch(changesDiscarded());
                  blocker.proceed?.();
                }}
              />
              <Button intent="primary" text="Keep Editing" onClick={() => blocker.reset?.()} />
            </>
          }
        />
      </Dialog>
    </div>
  );
}
