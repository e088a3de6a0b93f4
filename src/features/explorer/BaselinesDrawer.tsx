import { Alert, Button, Classes, Drawer, FormGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { nanoid } from '@reduxjs/toolkit';
import { type ReactNode, memo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { type CampaignCollection } from '../../contracts/campaignCollections';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ExplorerConfig } from '../../contracts/reports';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { closeDrawerParams, drawerFromParams, openDrawerParams } from '../shell/drawers';
import { type DataScope } from '../widgets/types';
import { BaselineList } from './BaselineList';
import { type BaselineRow, kpiDataOf, rowsOfKpiData, rowsOfTemplate, targetsOf } from './baselines';
import {
  useDeleteCampaignCollectionMutation,
  useGetCampaignCollectionsQuery,
  useSaveCampaignCollectionMutation,
} from './baselinesApi';
import { baselinesApplied } from './explorerEdits';

/** Spec 2 "Baselines drawer", word for word where the spec quotes them. */
export const baselineLabels = {
  title: 'Baselines',
  choice: 'Baseline set',
  current: 'Current',
  none: 'None',
  templateName: 'Campaign template name',
  defaultTemplateName: 'New Campaign Template',
  noneHelp: 'Applying removes the baselines from this view.',
  failedToSave: 'Failed to save template',
  failedToDelete: 'Failed to delete template',
} as const;

export interface BaselinesDrawerProps {
  schema: DatasetSchema;
  config: ExplorerConfig;
  scope: DataScope;
  /** Write access (and not the public page): baselines and templates can be applied, saved and deleted. */
  canEdit: boolean;
  onEdit(edit: (config: ExplorerConfig) => ExplorerConfig): void;
}

interface PanelProps extends BaselinesDrawerProps {
  /** Closes the drawer once a choice is applied to the view. */
  onClose(): void;
}

/** The toolbar's Baselines button and its drawer, opened through the URL as every drawer is. */
export const BaselinesButton = memo(function BaselinesButton(props: BaselinesDrawerProps) {
  const [params, setParams] = useSearchParams();
  const isOpen = drawerFromParams(params).type === 'baselines';
  const close = () => setParams(closeDrawerParams(params));
  return (
    <>
      <Button
        icon="flag"
        text={baselineLabels.title}
        variant="minimal"
        active={isOpen}
        onClick={() => setParams(openDrawerParams(params, 'baselines'))}
      />
      <Drawer isOpen={isOpen} onClose={close} title={baselineLabels.title} size="420px">
        <div className={`${Classes.DRAWER_BODY} or-baselines-drawer`}>
          <BaselinesPanel {...props} onClose={close} />
        </div>
      </Drawer>
    </>
  );
});

/** The choice ('current', 'none' or a template) and what it shows. */
function BaselinesPanel(props: PanelProps) {
  const { config, scope, canEdit } = props;
  // The public page may not read the workspace's templates: it shows the view's own baselines.
  const templates =
    useGetCampaignCollectionsQuery(scope.workspaceId, { skip: scope.publicReportId !== undefined }).data
      ?.campaignCollections ?? [];
  const [choice, setChoice] = useState<string | null>(null);
  const applied = templates.find((template) => template.baselineSet.id === String(config.baselineId ?? ''));
  const known = choice === 'current' || choice === 'none' || templates.some((template) => template.id === choice);
  const current = (known ? choice : null) ?? applied?.id ?? 'current';
  const template = templates.find((candidate) => candidate.id === current);
  return (
    <>
      <FormGroup label={baselineLabels.choice} labelFor="baseline-choice">
        <HTMLSelect id="baseline-choice" fill value={current} onChange={(event) => setChoice(event.target.value)}>
          <option value="current">{baselineLabels.current}</option>
          {canEdit && <option value="none">{baselineLabels.none}</option>}
          {templates.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {current === 'current' && <CurrentBaselines {...props} onSaved={setChoice} />}
      {current === 'none' && <NoBaselines {...props} />}
      {template && (
        <TemplateBaselines key={template.id} {...props} template={template} onDeleted={() => setChoice('current')} />
      )}
    </>
  );
}

const formatOfField = (schema: DatasetSchema) => (metric: string) =>
  schema.fields.find((field) => field.id === metric)?.format;

const Actions = ({ children }: { children: ReactNode }) => <div className="or-baselines-actions">{children}</div>;

/** 'none': applying clears the view's baselines. */
function NoBaselines({ onEdit, onClose }: PanelProps) {
  return (
    <>
      <p className={Classes.TEXT_MUTED}>{baselineLabels.noneHelp}</p>
      <Actions>
        <Button
          intent="primary"
          text="Apply"
          onClick={() => {
            onEdit((config) => baselinesApplied(config, null));
            onClose();
          }}
        />
      </Actions>
    </>
  );
}

/** The 'Campaign template name' field. */
function TemplateName({ value, onChange }: { value: string; onChange(name: string): void }) {
  return (
    <FormGroup label={baselineLabels.templateName} labelFor="baseline-template-name">
      <InputGroup id="baseline-template-name" value={value} onValueChange={onChange} />
    </FormGroup>
  );
}

/** A save of a template: the PUT, and a toast when it fails (the form keeps what was typed). */
function useTemplateSave(workspaceId: number) {
  const dispatch = useAppDispatch();
  const [saveCollection, { isLoading }] = useSaveCampaignCollectionMutation();
  const save = async (id: string, body: Parameters<typeof saveCollection>[0]['body']) => {
    try {
      await saveCollection({ workspaceId, id, body }).unwrap();
      return true;
    } catch {
      dispatch(notificationShown(baselineLabels.failedToSave, 'danger'));
      return false;
    }
  };
  return { save, saving: isLoading };
}

/** 'current': the view's own baselines, edited here, applied with a new id or saved as a new template. */
function CurrentBaselines({
  schema,
  config,
  scope,
  canEdit,
  onEdit,
  onClose,
  onSaved,
}: PanelProps & { onSaved(id: string): void }) {
  const formatOf = formatOfField(schema);
  const [rows, setRows] = useState<BaselineRow[]>(() => rowsOfKpiData(config.kpiData, formatOf));
  const [name, setName] = useState<string>(baselineLabels.defaultTemplateName);
  const { save, saving } = useTemplateSave(scope.workspaceId);
  const kpiData = kpiDataOf(rows, formatOf);
  const targets = targetsOf(rows, (metric) => schema.fields.find((field) => field.id === metric));
  const saveAsTemplate = async () => {
    if (!targets) return;
    const id = nanoid();
    const body = { name: name.trim(), rules: [], baselineSet: { id: nanoid(), targets } };
    if (await save(id, body)) onSaved(id);
  };
  return (
    <>
      <BaselineList schema={schema} rows={rows} editable={canEdit} onChange={setRows} />
      {canEdit && (
        <>
          <Actions>
            <Button
              intent="primary"
              text="Apply"
              disabled={!kpiData}
              onClick={() => {
                if (kpiData) onEdit((current) => baselinesApplied(current, { kpiData, baselineId: nanoid() }));
                onClose();
              }}
            />
          </Actions>
          <TemplateName value={name} onChange={setName} />
          <Actions>
            <Button
              text="Save as template"
              icon="floppy-disk"
              loading={saving}
              disabled={!targets || !rows.length || !name.trim()}
              onClick={() => void saveAsTemplate()}
            />
          </Actions>
        </>
      )}
    </>
  );
}

interface TemplateProps extends PanelProps {
  template: CampaignCollection;
  onDeleted(): void;
}

/** A template: viewed, applied to the view (with its set's id), edited, or deleted after a confirmation. */
function TemplateBaselines({ schema, scope, canEdit, onEdit, onClose, template, onDeleted }: TemplateProps) {
  const dispatch = useAppDispatch();
  const formatOf = formatOfField(schema);
  const saved = rowsOfTemplate(template.baselineSet.targets, formatOf);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleteCollection] = useDeleteCampaignCollectionMutation();

  const apply = () => {
    const kpiData = kpiDataOf(saved, formatOf) ?? {};
    onEdit((current) => baselinesApplied(current, { kpiData, baselineId: template.baselineSet.id }));
    onClose();
  };
  const remove = async () => {
    setConfirming(false);
    try {
      await deleteCollection({ workspaceId: scope.workspaceId, id: template.id }).unwrap();
      onDeleted();
    } catch {
      dispatch(notificationShown(baselineLabels.failedToDelete, 'danger'));
    }
  };

  if (editing)
    return <TemplateEditor schema={schema} scope={scope} template={template} onDone={() => setEditing(false)} />;
  return (
    <>
      <BaselineList schema={schema} rows={saved} />
      {canEdit && (
        <Actions>
          <Button icon="trash" text="Delete" variant="minimal" intent="danger" onClick={() => setConfirming(true)} />
          <Button icon="edit" text="Edit" variant="minimal" onClick={() => setEditing(true)} />
          <Button intent="primary" text="Apply" onClick={apply} />
        </Actions>
      )}
      <Alert
        isOpen={confirming}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText="Delete"
        cancelButtonText="Cancel"
        canEscapeKeyCancel
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      >
        <p>Are you sure you want to delete the template “{template.name}”?</p>
      </Alert>
    </>
  );
}

interface TemplateEditorProps {
  schema: DatasetSchema;
  scope: DataScope;
  template: CampaignCollection;
  /** Saved or cancelled: back to viewing the template. */
  onDone(): void;
}

/** A template in edit mode: its name and values; Save replaces it under the same ids. */
function TemplateEditor({ schema, scope, template, onDone }: TemplateEditorProps) {
  const [rows, setRows] = useState<BaselineRow[]>(() =>
    rowsOfTemplate(template.baselineSet.targets, formatOfField(schema)),
  );
  const [name, setName] = useState(template.name);
  const { save, saving } = useTemplateSave(scope.workspaceId);
  const targets = targetsOf(rows, (metric) => schema.fields.find((field) => field.id === metric));
  const saveEdits = async () => {
    if (!targets) return;
    const body = { name: name.trim(), rules: template.rules, baselineSet: { id: template.baselineSet.id, targets } };
    if (await save(template.id, body)) onDone();
  };
  return (
    <>
      <TemplateName value={name} onChange={setName} />
      <BaselineList schema={schema} rows={rows} editable onChange={setRows} />
      <Actions>
        <Button text="Cancel" variant="minimal" onClick={onDone} />
        <Button
          intent="primary"
          text="Save"
          loading={saving}
          disabled={!targets || !name.trim()}
          onClick={() => void saveEdits()}
        />
      </Actions>
    </>
  );
}
