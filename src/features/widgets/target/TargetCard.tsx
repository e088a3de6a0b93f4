import './target.css';
import { Button, Classes, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { type Locale } from '../../../contracts/common';
import { type DatasetSchema, type Field } from '../../../contracts/datasets';
import { type Target } from '../../../contracts/targets';
import { formatField, formatValue, NOT_AVAILABLE, TARGET_CURRENCY } from '../../../engine/format';
import { useTargetProgressQuery } from '../../../store/engineApi';
import { DatasetGate, queryState } from '../DatasetGate';
import { useWidgetPriority } from '../queryPriority';
import { type DataScope } from '../types';
import { useSupersedeKey } from '../useWidgetData';
import { effectiveFilters, fieldLabel, resultRows } from '../widgetQuery';
import { WidgetError, WidgetErrorBoundary } from '../WidgetStates';
import { TargetChart } from './TargetChart';
import { isTargetMetric, pacingDay, type ProgressPoint, targetNumbers } from './targetProgress';

/** Spec 2 §8, word for word. */
export const CARD_CRASHED = 'Something went wrong';
export const unsupportedMetric = (metric: string) => `Unsupported metric "${metric}"`;

/** What a card's menu offers; an action left out is not offered (read-only cards have none). */
export interface TargetCardActions {
  onEdit?(): void;
  onDuplicate?(): void;
  onDelete?(): void;
}

export interface TargetCardProps extends TargetCardActions {
  target: Target;
  scope: DataScope;
  locale: Locale;
  /** Today as yyyy-MM-dd: the day pacing reads. */
  today: string;
}

/** Money in euros and percentages as percent, whatever the locale (spec 2 §9 "Defaults and targets"). */
const show = (value: number | null, field: Field, locale: Locale) =>
  formatField(value, field, locale, { currency: TARGET_CURRENCY });

function CardMenu({ title, onEdit, onDuplicate, onDelete }: TargetCardActions & { title: string }) {
  if (!onEdit && !onDuplicate && !onDelete) return null;
  return (
    <PopoverNext
      // One per card: its menu mounts when first opened.
      lazy
      placement="bottom-end"
      content={
        <Menu>
          {onEdit && <MenuItem icon="edit" text="Edit" onClick={onEdit} />}
          {onDuplicate && <MenuItem icon="duplicate" text="Duplicate" onClick={onDuplicate} />}
          {onDelete && <MenuItem icon="trash" intent="danger" text="Delete" onClick={onDelete} />}
        </Menu>
      }
    >
      <Button icon="more" variant="minimal" size="small" aria-label={`Target menu of ${title}`} />
    </PopoverNext>
  );
}

function CardBody({
  target,
  scope,
  locale,
  today,
  schema,
  version,
  onDelete,
}: TargetCardProps & {
  schema: DatasetSchema;
  version: string;
}) {
  const field = schema.fields.find((candidate) => candidate.id === target.metric);
  const supported = field !== undefined && isTargetMetric(field);
  const supersedeKey = useSupersedeKey(`target-${target.id}`);
  const result = useTargetProgressQuery(
    {
      workspaceId: scope.workspaceId,
      query: {
        kind: 'targetProgress',
        dataset: schema.id,
        metric: target.metric,
        range: { start: target.dateStart, end: target.dateEnd },
        target: target.target,
        filters: effectiveFilters(target.filters, schema),
      },
      version,
      supersedeKey,
      priority: useWidgetPriority(),
    },
    { skip: !supported },
  );
  if (!field || !supported) {
    const remove = onDelete && <Button text="Remove" icon="trash" variant="outlined" onClick={onDelete} />;
    return <WidgetError icon="warning-sign" title={unsupportedMetric(target.metric)} action={remove || undefined} />;
  }
  const state = queryState(result);
  if (state || !result.currentData) return state;
  const points = resultRows(result.currentData) as unknown as ProgressPoint[];
  const fieldsById = new Map(schema.fields.map((candidate) => [candidate.id, candidate]));
  const numbers = targetNumbers(target, field, points, today, fieldsById);
  return (
    <div className={`or-target-card-body or-target-card-${numbers.status}`} data-status={numbers.status}>
      <div className="or-target-card-numbers">
        <span>
          <span className="or-target-card-current" aria-label="Current value">
            {show(numbers.current, field, locale)}
          </span>
          <span className="or-muted"> / expected {show(numbers.expected, field, locale)}</span>
        </span>
        <span aria-label="Percent reached">
          {numbers.percent === null ? NOT_AVAILABLE : formatValue(numbers.percent, 'percent', locale)}
        </span>
      </div>
      <div className="or-target-card-numbers or-muted">
        <span>
          {fieldLabel(field)} target <strong aria-label="Target">{show(target.target, field, locale)}</strong>
        </span>
      </div>
      <TargetChart
        points={points}
        lastDay={pacingDay(target, today)}
        visualization={target.visualization}
        label={`${fieldLabel(field)}: cumulative against expected`}
      />
    </div>
  );
}

/**
 * One target (spec 2 §2, §4): its title and period, the cumulative value against the expected value at today's
 * date, the target and the percent reached, over a line or bar chart; the success or error colour by pace.
 */
export function TargetCard(props: TargetCardProps) {
  const { target } = props;
  return (
    <article className={`or-target-card ${Classes.CARD}`} aria-label={`Target ${target.title}`}>
      <header className="or-target-card-header">
        <div>
          <h4 className="or-target-card-title">{target.title}</h4>
          <span className="or-muted">
            {target.dateStart} – {target.dateEnd}
          </span>
        </div>
        <CardMenu
          title={target.title}
          onEdit={props.onEdit}
          onDuplicate={props.onDuplicate}
          onDelete={props.onDelete}
        />
      </header>
      <WidgetErrorBoundary resetKey={JSON.stringify(target)} fallback={<WidgetError title={CARD_CRASHED} />}>
        <DatasetGate widget={{ id: target.id, type: 'target', dataset: target.dataset }} scope={props.scope}>
          {(schema, version) => <CardBody {...props} schema={schema} version={version} />}
        </DatasetGate>
      </WidgetErrorBoundary>
    </article>
  );
}
