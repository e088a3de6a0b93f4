import { Button } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { type Target } from '../../../contracts/targets';
import { localToday } from '../../date-range/ranges';
import { openDrawerParams } from '../../shell/drawers';
import { useTargetDeletion } from '../../targets/DeleteTargetAlert';
import { useGetReportTargetsQuery, useGetTargetsQuery } from '../../targets/targetsApi';
import { type WidgetProps } from '../types';
import { WidgetEmpty, WidgetError, WidgetLoading, widgetMessages } from '../WidgetStates';
import { TargetCard } from './TargetCard';

/** Spec 2 §4, word for word. */
export const NO_TARGET = 'No target selected';
export const NO_TARGET_HELP = 'Add at least one target in the configuration panel';

/** The targets a widget shows: the workspace's (signed in) or the public dashboard's, in the widget's order. */
function useWidgetTargets({ widget, context }: WidgetProps) {
  const { workspaceId, publicReportId } = context.scope;
  const own = useGetTargetsQuery(workspaceId, { skip: publicReportId !== undefined });
  const shared = useGetReportTargetsQuery(publicReportId ?? 0, { skip: publicReportId === undefined });
  const result = publicReportId === undefined ? own : shared;
  const ids = widget.targets;
  const targets = useMemo(() => {
    const byId = new Map((result.data?.data ?? []).map((target) => [target.id, target]));
    return (ids ?? []).flatMap((id) => byId.get(String(id)) ?? []);
  }, [result.data, ids]);
  return { targets, isLoading: result.isLoading, isError: result.isError };
}

/**
 * A grid of target cards (spec 2 §2, §4). In edit mode or with write access a card can be edited or deleted
 * and targets added (the Target drawer); otherwise the cards are read-only.
 */
export function TargetWidget(props: WidgetProps) {
  const { widget, context, onChange } = props;
  const [params, setParams] = useSearchParams();
  const { targets, isLoading, isError } = useWidgetTargets(props);
  const editable = (context.editMode || context.canEdit) && context.scope.publicReportId === undefined;
  const drop = (target: Target) =>
    onChange?.({ ...widget, targets: (widget.targets ?? []).filter((id) => String(id) !== target.id) });
  const deletion = useTargetDeletion(context.scope.workspaceId, drop);
  const openDrawer = (targetId?: string) =>
    setParams(openDrawerParams(params, 'target', { widgetId: widget.id, ...(targetId ? { targetId } : {}) }));

  if (isError) return <WidgetError title={widgetMessages.chartError} />;
  if (isLoading) return <WidgetLoading />;
  const add = editable ? <Button icon="add" text="Add target" variant="outlined" onClick={() => openDrawer()} /> : null;
  if (targets.length === 0) {
    if (context.editMode) return <WidgetEmpty icon="locate" title={NO_TARGET} action={add ?? undefined} />;
    return <WidgetEmpty icon="locate" title={NO_TARGET} description={NO_TARGET_HELP} action={add ?? undefined} />;
  }
  const today = localToday();
  return (
    <div className="or-target-grid">
      {targets.map((target) => (
        <TargetCard
          key={target.id}
          target={target}
          scope={context.scope}
          locale={context.locale}
          today={today}
          onEdit={editable ? () => openDrawer(target.id) : undefined}
          onDelete={editable ? () => deletion.ask(target) : undefined}
        />
      ))}
      {add}
      {deletion.alert}
    </div>
  );
}
