import {
  Button,
  Callout,
  Checkbox,
  Classes,
  Drawer,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Spinner,
  Switch,
  TagInput,
  TextArea,
} from '@blueprintjs/core';
import { useMemo } from 'react';
import { ALERT_DATASETS, WEEKDAYS, type Weekday } from '../../contracts/alerting';
import { type DatasetSchema } from '../../contracts/datasets';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { FieldGroup } from '../shell/components/FieldGroup';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { useSettled } from '../shell/useSettled';
import { FilterForm } from '../widget-config/FilterForm';
import { datasetTitle, dimensionOptions, fieldText } from '../widget-config/settingsOptions';
import { useWidgetData } from '../widgets/useWidgetData';
import {
  type AlertDraft,
  type AlertIssues,
  alertDateFields,
  alertIssues,
  alertMessages,
  datasetSwitched,
  hasIssues,
  showsDateField,
  bodyOfDraft,
} from './alertForm';
import { alertDraftEdited, alertFormReset, alertFormSubmitted, selectAlertForm } from './alertFormSlice';
import { useSaveAlertRuleMutation } from './alertingApi';
import { AlertPreview } from './AlertPreview';
import { WebhookPanel } from './WebhookPanel';

const PREVIEW_DEBOUNCE_MS = 500;

/** The group-by choices: visible dimensions, dates and UTM fields left out (spec 3 §5). */
const groupByOptions = (schema: DatasetSchema) => dimensionOptions(schema).filter((option) => option.group !== 'UTM');

interface FieldsProps {
  draft: AlertDraft;
  issues: AlertIssues | null;
  schema: DatasetSchema | undefined;
  workspaceId: number;
  edit(change: Partial<AlertDraft>): void;
}

function RuleFields({ draft, issues, schema, workspaceId, edit }: FieldsProps) {
  const scope = { workspaceId };
  return (
    <>
      <FieldGroup label="Title" labelFor="alert-title" error={issues?.title}>
        <InputGroup id="alert-title" value={draft.title} onValueChange={(title) => edit({ title })} />
      </FieldGroup>
      <FormGroup label="Dataset" labelFor="alert-dataset">
        <HTMLSelect
          id="alert-dataset"
          fill
          value={draft.dataset}
          onChange={(event) => edit(datasetSwitched(draft, event.currentTarget.value))}
          options={ALERT_DATASETS.map((id) => ({ value: id, label: datasetTitle(id) }))}
        />
      </FormGroup>
      {schema && showsDateField(schema) && (
        <FormGroup label="Date field" labelFor="alert-date-field">
          <HTMLSelect
            id="alert-date-field"
            fill
            value={draft.dateField ?? schema.dateField}
            onChange={(event) => edit({ dateField: event.currentTarget.value })}
            options={alertDateFields(schema).map((field) => ({ value: field.id, label: fieldText(field) }))}
          />
        </FormGroup>
      )}
      {schema ? (
        <>
          <FormGroup label="Filters">
            <FilterForm schema={schema} scope={scope} value={draft.filters} onChange={(filters) => edit({ filters })} />
          </FormGroup>
          <FieldGroup label="Conditions" error={issues?.conditions}>
            <FilterForm
              kind="conditions"
              schema={schema}
              scope={scope}
              value={draft.conditions}
              onChange={(conditions) => edit({ conditions })}
            />
          </FieldGroup>
          <FieldGroup label="Group by" labelFor="alert-dimension" error={issues?.dimension}>
            <HTMLSelect
              id="alert-dimension"
              fill
              value={draft.dimension ?? ''}
              onChange={(event) => edit({ dimension: event.currentTarget.value || null })}
              options={[{ value: '', label: 'No grouping' }, ...groupByOptions(schema)]}
            />
          </FieldGroup>
        </>
      ) : (
        <Spinner size={20} aria-label="Loading the dataset" />
      )}
    </>
  );
}

function DeliveryFields({ draft, issues, edit }: Omit<FieldsProps, 'schema' | 'workspaceId'>) {
  const toggleDay = (day: Weekday) =>
    edit({
      mutedDays: draft.mutedDays.includes(day)
        ? draft.mutedDays.filter((muted) => muted !== day)
        : WEEKDAYS.filter((candidate) => candidate === day || draft.mutedDays.includes(candidate)),
    });
  return (
    <>
      <FieldGroup label="Duration (days)" labelFor="alert-duration" error={issues?.duration}>
        <InputGroup
          id="alert-duration"
          inputMode="numeric"
          value={draft.duration}
          onValueChange={(text) => edit({ duration: text.replace(/\D/g, '') })}
        />
      </FieldGroup>
      <FormGroup label="Muted weekdays">
        {WEEKDAYS.map((day) => (
          <Checkbox
            key={day}
            inline
            label={day[0].toUpperCase() + day.slice(1)}
            checked={draft.mutedDays.includes(day)}
            onChange={() => toggleDay(day)}
          />
        ))}
      </FormGroup>
      <Switch label="Enabled" checked={draft.enabled} onChange={() => edit({ enabled: !draft.enabled })} />
      <FieldGroup label="Recipients" error={issues?.recipients}>
        <TagInput
          values={draft.recipients}
          addOnBlur
          separator={/[,\s;]+/}
          inputProps={{ 'aria-label': 'Recipients' }}
          onChange={(values) => edit({ recipients: values.map(String) })}
        />
      </FieldGroup>
      <FormGroup label="Message" labelFor="alert-message">
        <TextArea id="alert-message" fill value={draft.message} onChange={(e) => edit({ message: e.target.value })} />
      </FormGroup>
      <FieldGroup label="Webhook URL" labelFor="alert-webhook" error={issues?.webhookUrl}>
        <InputGroup id="alert-webhook" value={draft.webhookUrl} onValueChange={(webhookUrl) => edit({ webhookUrl })} />
      </FieldGroup>
    </>
  );
}

export interface AlertDrawerBodyProps {
  workspaceId: number;
  /** Back to the alerting route, after a save or on close. */
  onDone(): void;
}

/**
 * The 'edit-alert' drawer's form (spec 3 §2): the rule's fields, its 30-day preview, Reset and Save. Issues show
 * once Save was pressed; a failed save keeps the form and says 'Failed to update alert'.
 */
export function AlertDrawerBody({ workspaceId, onDone }: AlertDrawerBodyProps) {
  const dispatch = useAppDispatch();
  const { locale } = useCurrentWorkspace();
  const { draft, ruleId, submitted } = useAppSelector(selectAlertForm);
  const data = useWidgetData({ workspaceId }, draft?.dataset ?? null);
  const schema = data.schema?.id === draft?.dataset ? data.schema : undefined;
  const issues = useMemo(() => (draft ? alertIssues(draft, schema) : null), [draft, schema]);
  const settled = useSettled(draft, PREVIEW_DEBOUNCE_MS);
  const [save, { isLoading: saving }] = useSaveAlertRuleMutation();
  if (!draft || !issues || !ruleId) return <Spinner className="or-page-spinner" />;

  const edit = (change: Partial<AlertDraft>) => dispatch(alertDraftEdited(change));
  const onSave = async () => {
    dispatch(alertFormSubmitted());
    if (hasIssues(issues)) return;
    try {
      await save({ workspaceId, ruleId, body: bodyOfDraft(draft) }).unwrap();
      onDone();
    } catch {
      dispatch(notificationShown(alertMessages.saveFailed, 'danger'));
    }
  };
  const shown = submitted ? issues : null;
  const previewable = settled && schema && !hasIssues(alertIssues(settled, schema));
  return (
    <>
      <div className={`${Classes.DRAWER_BODY} or-alert-drawer-body`}>
        <RuleFields draft={draft} issues={shown} schema={schema} workspaceId={workspaceId} edit={edit} />
        <DeliveryFields draft={draft} issues={shown} edit={edit} />
        <WebhookPanel workspaceId={workspaceId} ruleId={ruleId} />
        <FormGroup label="Preview of the last 30 days">
          {previewable ? (
            <AlertPreview workspaceId={workspaceId} body={bodyOfDraft(settled)} format={{ schema, locale }} />
          ) : (
            <Callout compact>Complete the rule to see how often it would have triggered.</Callout>
          )}
        </FormGroup>
      </div>
      <div className={`${Classes.DRAWER_FOOTER} or-alert-drawer-footer`}>
        <Button text="Reset" onClick={() => dispatch(alertFormReset())} />
        <Button text="Save" intent="primary" loading={saving} onClick={() => void onSave()} />
      </div>
    </>
  );
}

export interface AlertDrawerProps extends AlertDrawerBodyProps {
  isOpen: boolean;
}

export function AlertDrawer({ isOpen, ...body }: AlertDrawerProps) {
  return (
    <Drawer isOpen={isOpen} onClose={body.onDone} title="Alert" size="640px" className="or-alert-drawer">
      {isOpen && <AlertDrawerBody {...body} />}
    </Drawer>
  );
}
