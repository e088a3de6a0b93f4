import '../widgets/target/target.css';
import {
  Button,
  Classes,
  Drawer,
  FormGroup,
  HTMLSelect,
  InputGroup,
  NonIdealState,
  SegmentedControl,
  Spinner,
} from '@blueprintjs/core';
import { type ReactNode, useState } from 'react';
import { type Locale } from '../../contracts/common';
import { type Widget } from '../../contracts/reports';
import { type Target, targetDatasets, type TargetDataset, type TargetVisualization } from '../../contracts/targets';
import { useAppDispatch } from '../../store/hooks';
import { localToday } from '../date-range/ranges';
import { notificationShown } from '../notifications/notificationsSlice';
import { FieldGroup } from '../shell/components/FieldGroup';
import { FilterForm } from '../widget-config/FilterForm';
import { datasetTitle, fieldText } from '../widget-config/settingsOptions';
import { TargetCard } from '../widgets/target/TargetCard';
import { isTargetMetric } from '../widgets/target/targetProgress';
import { type DataScope } from '../widgets/types';
import { useWidgetData } from '../widgets/useWidgetData';
import { effectiveFilters } from '../widgets/widgetQuery';
import { TargetCalculator } from './TargetCalculator';
import {
  checkTargetForm,
  emptyTargetForm,
  formatTargetNumber,
  parseTargetNumber,
  type TargetForm,
  targetFormOf,
  type TargetFormIssues,
} from './targetForm';
import { newTargetId, useGetTargetsQuery, useSaveTargetMutation } from './targetsApi';

/** Spec 2 §8, word for word. */
export const FAILED_TO_UPDATE = 'Failed to update target';
export const TARGET_NOT_FOUND = 'Target not found';

export interface TargetDrawerProps {
  isOpen: boolean;
  scope: DataScope;
  locale: Locale;
  /** The target to edit; a new target when left out. */
  targetId?: string;
  /** The target widget the drawer was opened from: a new target is appended to its list. */
  widget?: Widget;
  onWidgetChange?(widget: Widget): void;
  onClose(): void;
}

interface EditorProps extends Omit<TargetDrawerProps, 'isOpen' | 'targetId'> {
  target?: Target;
}

/** What the preview card shows while the form is being typed: the form as far as it goes. */
function draftOf(id: string, workspaceId: number, form: TargetForm): Target {
  return {
    id,
    workspaceId,
    title: form.title || 'Untitled target',
    dataset: form.dataset,
    metric: form.metric,
    target: parseTargetNumber(form.targetText) ?? 0,
    dateStart: form.dateStart,
    dateEnd: form.dateEnd < form.dateStart ? form.dateStart : form.dateEnd,
    visualization: form.visualization,
    filters: form.filters,
  };
}

// Long because it is one form over one draft (dataset, metric, period, amount, filters) with its validation and save;
// to be split per field group.
function TargetEditor({ target, scope, locale, widget, onWidgetChange, onClose }: EditorProps) {
  const dispatch = useAppDispatch();
  const [id] = useState(() => target?.id ?? newTargetId());
  const [form, setForm] = useState<TargetForm>(() => (target ? targetFormOf(target) : emptyTargetForm(localToday())));
  const [issues, setIssues] = useState<TargetFormIssues>({});
  const [saveTarget, { isLoading: saving }] = useSaveTargetMutation();
  const data = useWidgetData(scope, form.dataset);
  const schema = data.schema;
  const metrics = schema?.fields.filter((field) => isTargetMetric(field) && !field.features.includes('hide')) ?? [];
  const field = metrics.find((candidate) => candidate.id === form.metric);
  const edit = (changes: Partial<TargetForm>) => setForm((current) => ({ ...current, ...changes }));

  const save = async () => {
    const checked = checkTargetForm(form, schema);
    setIssues(checked.issues ?? {});
    if (!checked.body) return;
    try {
      await saveTarget({ workspaceId: scope.workspaceId, id, body: checked.body }).unwrap();
    } catch {
      // The edit stays in the form, so the user can try again.
      dispatch(notificationShown(FAILED_TO_UPDATE, 'danger'));
      return;
    }
    if (widget && !(widget.targets ?? []).some((existing) => String(existing) === id)) {
      onWidgetChange?.({ ...widget, targets: [...(widget.targets ?? []), id] });
    }
    onClose();
  };

  const group = (key: keyof TargetFormIssues, label: string, input: ReactNode, labelFor?: string) => (
    <FieldGroup label={label} labelFor={labelFor} error={issues[key]}>
      {input}
    </FieldGroup>
  );
  return (
    <>
      <div className={`${Classes.DRAWER_BODY} or-target-drawer-body`}>
        <form className="or-target-drawer-form" onSubmit={(event) => event.preventDefault()}>
          {group(
            'title',
            'Title',
            <InputGroup id="target-title" value={form.title} onValueChange={(title) => edit({ title })} />,
            'target-title',
          )}
          <FormGroup label="Dataset" labelFor="target-dataset">
            <HTMLSelect
              id="target-dataset"
              fill
              value={form.dataset}
              onChange={(event) =>
                edit({ dataset: event.currentTarget.value as TargetDataset, metric: '', filters: [] })
              }
            >
              {targetDatasets.map((dataset) => (
                <option key={dataset} value={dataset}>
                  {datasetTitle(dataset)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {group(
            'metric',
            'Metric',
            <HTMLSelect
              id="target-metric"
              fill
              value={form.metric}
              onChange={(event) => edit({ metric: event.currentTarget.value })}
            >
              <option value="" disabled>
                {schema ? 'Select a metric…' : 'Loading…'}
              </option>
              {metrics.map((metric) => (
                <option key={metric.id} value={metric.id}>
                  {fieldText(metric)}
                </option>
              ))}
            </HTMLSelect>,
            'target-metric',
          )}
          {group(
            'target',
            'Target',
            <InputGroup
              id="target-value"
              value={form.targetText}
              onValueChange={(targetText) => edit({ targetText })}
              onBlur={() => {
                const value = parseTargetNumber(form.targetText);
                if (value !== null) edit({ targetText: formatTargetNumber(value) });
              }}
            />,
            'target-value',
          )}
          {schema && field && data.version && (
            <TargetCalculator
              name={`drawer-${id}`}
              scope={scope}
              schema={schema}
              version={data.version}
              field={field}
              range={{ start: form.dateStart, end: form.dateEnd < form.dateStart ? form.dateStart : form.dateEnd }}
              filters={effectiveFilters(form.filters, schema)}
              locale={locale}
              onApply={(value) => edit({ targetText: formatTargetNumber(value) })}
            />
          )}
          {group(
            'dateStart',
            'Start date',
            <InputGroup
              id="target-start"
              type="date"
              value={form.dateStart}
              onValueChange={(dateStart) => edit({ dateStart })}
            />,
            'target-start',
          )}
          {group(
            'dateEnd',
            'End date',
            <InputGroup
              id="target-end"
              type="date"
              value={form.dateEnd}
              onValueChange={(dateEnd) => edit({ dateEnd })}
            />,
            'target-end',
          )}
          {group(
            'filters',
            'Filters',
            schema ? (
              <FilterForm
                schema={schema}
                scope={scope}
                value={form.filters}
                onChange={(filters) => edit({ filters })}
              />
            ) : (
              <Spinner size={16} />
            ),
          )}
        </form>
        <aside className="or-target-drawer-preview" aria-label="Preview">
          <SegmentedControl
            aria-label="Visualization"
            value={form.visualization}
            options={[
              { label: 'Line', value: 'line' },
              { label: 'Bar', value: 'bar' },
            ]}
            onValueChange={(value) => edit({ visualization: value as TargetVisualization })}
          />
          {form.metric ? (
            <TargetCard
              target={draftOf(id, scope.workspaceId, form)}
              scope={scope}
              locale={locale}
              today={localToday()}
            />
          ) : (
            <NonIdealState icon="locate" title="Select a metric to preview the target" />
          )}
        </aside>
      </div>
      <div className={Classes.DRAWER_FOOTER}>
        <Button text="Cancel" variant="minimal" onClick={onClose} />
        <Button text="Save" intent="primary" loading={saving} onClick={() => void save()} />
      </div>
    </>
  );
}

/**
 * The Target drawer (spec 2 §2): a create or edit form with a live preview card and a line/bar toggle. It opens
 * when a Target tile is dropped on a dashboard, from a card's Edit and from the targets screen.
 */
export function TargetDrawer({ isOpen, targetId, ...props }: TargetDrawerProps) {
  const { data, isLoading } = useGetTargetsQuery(props.scope.workspaceId, { skip: !isOpen || !targetId });
  const target = targetId ? data?.data.find((candidate) => candidate.id === targetId) : undefined;
  let body;
  if (targetId && isLoading) body = <Spinner className={Classes.DRAWER_BODY} />;
  else if (targetId && !target) {
    body = (
      <div className={Classes.DRAWER_BODY}>
        <NonIdealState icon="search" title={TARGET_NOT_FOUND} />
      </div>
    );
  } else body = <TargetEditor key={targetId ?? 'new'} target={target} {...props} />;
  return (
    <Drawer isOpen={isOpen} onClose={props.onClose} title="Target" size="80%" className="or-target-drawer">
      {isOpen && body}
    </Drawer>
  );
}
