import { Button, Callout, Checkbox, H4, InputGroup, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { type CopernicaNode, INTEGRATION_ERRORS, type IntegrationUnit } from '../../contracts/integrations';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { useGetCopernicaNodesQuery, useGetTrackedViewsQuery, useSaveTrackedViewsMutation } from './integrationsApi';

interface Scope {
  workspaceId: number;
  integrationId: number;
}
interface Selection {
  tracked: IntegrationUnit[];
  toggle(node: CopernicaNode): void;
}

/** One level of the tree, loaded when its parent is opened. */
function Level({
  scope,
  parent,
  selection,
}: {
  scope: Scope;
  parent?: { kind: 'database' | 'view'; id: string };
  selection: Selection;
}) {
  const { data, isLoading, isError } = useGetCopernicaNodesQuery({ ...scope, parent });
  if (isLoading) return <Spinner size={16} />;
  if (isError || !data) return <Callout intent="danger">{INTEGRATION_ERRORS.copernicaDatabases}</Callout>;
  return (
    <ul className="or-copernica-level">
      {data.data.map((node) => (
        <Node key={node.id} scope={scope} node={node} database={!parent} selection={selection} />
      ))}
    </ul>
  );
}

function Node({
  scope,
  node,
  database,
  selection,
}: {
  scope: Scope;
  node: CopernicaNode;
  database: boolean;
  selection: Selection;
}) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      {node.has_children && (
        <Button
          variant="minimal"
          size="small"
          icon={open ? 'chevron-down' : 'chevron-right'}
          aria-label={`${open ? 'Collapse' : 'Expand'} ${node.name}`}
          onClick={() => setOpen(!open)}
        />
      )}
      {database ? (
        <span>{node.name}</span>
      ) : (
        <Checkbox
          inline
          label={node.name}
          checked={selection.tracked.some((view) => view.id === node.id)}
          onChange={() => selection.toggle(node)}
        />
      )}
      {open && (
        <Level scope={scope} parent={{ kind: database ? 'database' : 'view', id: node.id }} selection={selection} />
      )}
    </li>
  );
}

/** Copernica: pick the views to track in the databases → views → views tree, rename them, save with PUT. */
export function CopernicaViews({ workspaceId, integrationId }: Scope) {
  const scope = { workspaceId, integrationId };
  const saved = useGetTrackedViewsQuery(scope);
  const [save, saving] = useSaveTrackedViewsMutation();
  const [tracked, setTracked] = useState<IntegrationUnit[] | null>(null);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (saved.data && tracked === null) setTracked(saved.data.data);
  }, [saved.data, tracked]);
  if (!tracked) return <Spinner size={20} />;

  const selection: Selection = {
    tracked,
    toggle: (node) =>
      setTracked(
        tracked.some((view) => view.id === node.id)
          ? tracked.filter((view) => view.id !== node.id)
          : [...tracked, { id: node.id, name: node.name }],
      ),
  };
  const submit = async () => {
    try {
      setTracked((await save({ ...scope, views: tracked }).unwrap()).data);
      dispatch(
        notificationShown('Copernica tracked-view imports run nightly, so changes show the next day', 'success'),
      );
    } catch {
      dispatch(notificationShown(INTEGRATION_ERRORS.copernicaDatabases, 'danger'));
    }
  };
  return (
    <section aria-label="Copernica views">
      <H4>Views</H4>
      <Level scope={scope} selection={selection} />
      <H4>Tracked views</H4>
      {tracked.map((view) => (
        <InputGroup
          key={view.id}
          aria-label={`Name of tracked view ${view.id}`}
          value={view.name}
          onValueChange={(name) => setTracked(tracked.map((item) => (item.id === view.id ? { ...item, name } : item)))}
        />
      ))}
      <p>Copernica tracked-view imports run nightly, so changes show the next day</p>
      <Button
        intent="primary"
        text="Save"
        loading={saving.isLoading}
        disabled={tracked.some((view) => view.name.trim() === '')}
        onClick={() => void submit()}
      />
    </section>
  );
}
