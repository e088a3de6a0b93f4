import '../widgets/target/target.css';
import { Button, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { COPY_SUFFIX } from '../../contracts/reports';
import { compareTargets, type Target } from '../../contracts/targets';
import { useAppDispatch } from '../../store/hooks';
import { localToday } from '../date-range/ranges';
import { notificationShown } from '../notifications/notificationsSlice';
import { closeDrawerParams, DRAWER_PREFIX, drawerFromParams, openDrawerParams } from '../shell/drawers';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { TargetCard } from '../widgets/target/TargetCard';
import { useTargetDeletion } from './DeleteTargetAlert';
import { FAILED_TO_UPDATE, TargetDrawer } from './TargetDrawer';
import { newTargetId, useGetTargetsQuery, useSaveTargetMutation } from './targetsApi';

export const NO_TARGETS = 'No targets yet';

/** The targets whose title contains the search, case-insensitively, in the spec's order. */
export function searchTargets(targets: readonly Target[], search: string): Target[] {
  const needle = search.trim().toLowerCase();
  return targets.filter((target) => target.title.toLowerCase().includes(needle)).sort(compareTargets);
}

/**
 * The targets screen (spec 2 §2 /workspaces/{id}/targets): every target of the workspace as a card, with
 * search, add, edit, duplicate and delete. Each card runs its own query in the engine's pool.
 */
export function TargetsPage() {
  const workspace = useCurrentWorkspace();
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const { data, isLoading, isError } = useGetTargetsQuery(workspace.id);
  const [saveTarget] = useSaveTargetMutation();
  const deletion = useTargetDeletion(workspace.id);
  const shown = useMemo(() => searchTargets(data?.data ?? [], search), [data, search]);
  const scope = { workspaceId: workspace.id };
  const openDrawer = (targetId?: string) => setParams(openDrawerParams(params, 'target', targetId ? { targetId } : {}));

  const duplicate = async ({ id: _id, workspaceId: _workspaceId, ...target }: Target) => {
    try {
      await saveTarget({
        workspaceId: workspace.id,
        id: newTargetId(),
        body: { ...target, title: `${target.title}${COPY_SUFFIX}` },
      }).unwrap();
    } catch {
      dispatch(notificationShown(FAILED_TO_UPDATE, 'danger'));
    }
  };

  let content;
  if (isLoading) content = <Spinner />;
  else if (isError) content = <NonIdealState icon="error" title="Yikes! Something went wrong fetching your data." />;
  else if (shown.length === 0) content = <NonIdealState icon="locate" title={NO_TARGETS} />;
  else {
    const today = localToday();
    content = (
      <div className="or-target-grid" aria-label="Targets">
        {shown.map((target) => (
          <TargetCard
            key={target.id}
            target={target}
            scope={scope}
            locale={workspace.locale}
            today={today}
            onEdit={() => openDrawer(target.id)}
            onDuplicate={() => void duplicate(target)}
            onDelete={() => deletion.ask(target)}
          />
        ))}
      </div>
    );
  }
  return (
    <div className="or-page or-targets-page">
      <h2>Targets</h2>
      <div className="or-targets-toolbar">
        <InputGroup
          leftIcon="search"
          placeholder="Search targets"
          aria-label="Search targets"
          value={search}
          onValueChange={setSearch}
        />
        <Button icon="add" intent="primary" text="Add target" onClick={() => openDrawer()} />
      </div>
      {content}
      {deletion.alert}
      <TargetDrawer
        isOpen={drawerFromParams(params).type === 'target'}
        scope={scope}
        locale={workspace.locale}
        targetId={params.get(`${DRAWER_PREFIX}targetId`) ?? undefined}
        onClose={() => setParams(closeDrawerParams(params))}
      />
    </div>
  );
}
