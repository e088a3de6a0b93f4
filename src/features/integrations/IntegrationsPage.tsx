import { Alert, Button, Callout, Card, H3, H4, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { INTEGRATION_TYPES, type Integration, type IntegrationType } from '../../contracts/integrations';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { INSUFFICIENT_PRIVILEGES, isActive, isConnectable, PUSH_DESTINATIONS } from './integrationRules';
import { useGetIntegrationsQuery, useRemoveIntegrationMutation } from './integrationsApi';

function EnabledList({ workspaceId, integrations }: { workspaceId: number; integrations: Integration[] }) {
  const [removing, setRemoving] = useState<Integration | null>(null);
  const [remove] = useRemoveIntegrationMutation();
  const dispatch = useAppDispatch();
  if (integrations.length === 0) return <p>No integrations have been enabled yet.</p>;
  const confirm = async () => {
    if (!removing) return;
    setRemoving(null);
    try {
      await remove({ workspaceId, integrationId: removing.id }).unwrap();
    } catch {
      dispatch(notificationShown('Failed to remove the integration', 'danger'));
    }
  };
  return (
    <>
      <HTMLTable className="or-integrations-enabled">
        <tbody>
          {integrations.map((integration) => (
            <tr key={integration.id}>
              <td>
                <Link to={integration.type}>{INTEGRATION_TYPES[integration.type].label}</Link>
              </td>
              <td>{integration.units.map((unit) => unit.name).join(', ')}</td>
              <td>
                <Tag intent={isActive(integration) ? 'success' : 'none'}>
                  {isActive(integration) ? 'Active' : 'Inactive'}
                </Tag>
              </td>
              <td>
                <Button variant="minimal" icon="trash" aria-label="Remove" onClick={() => setRemoving(integration)} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <Alert
        isOpen={removing !== null}
        intent="danger"
        icon="trash"
        confirmButtonText="Remove"
        cancelButtonText="Cancel"
        onConfirm={() => void confirm()}
        onCancel={() => setRemoving(null)}
      >
        Remove {removing ? INTEGRATION_TYPES[removing.type].label : ''} and its credentials from this workspace?
      </Alert>
    </>
  );
}

function AvailableCard({ type, enabled }: { type: IntegrationType; enabled: Integration | undefined }) {
  const info = INTEGRATION_TYPES[type];
  return (
    <Card className="or-integration-card" role="region" aria-label={info.label}>
      <H4>
        {info.label} {info.isNew && <Tag intent="primary">New</Tag>}
      </H4>
      <p>Connects an {info.unit}</p>
      {info.custom ? (
        <>
          <Callout intent="warning">Please contact the provider to setup {info.label} for your workspace</Callout>
          {/* The provider delivers files with credentials the workspace hands over: on the type's page. */}
          {PUSH_DESTINATIONS[type] && (
            <Link to={type}>
              <Button variant="minimal" text="Delivery credentials" />
            </Link>
          )}
        </>
      ) : isConnectable(type) ? (
        <Link to={type}>
          <Button text={enabled ? 'Manage' : 'Connect'} />
        </Link>
      ) : (
        <Button text="Connect" disabled title="Not available yet" />
      )}
    </Card>
  );
}

/** settings/integrations: the 'Enabled' list and the 'Available' grid; members see the spec's warning. */
export function IntegrationsPage() {
  const workspace = useCurrentWorkspace();
  const admin = workspace.role === 'admin';
  const { data, isLoading } = useGetIntegrationsQuery(workspace.id, { skip: !admin });
  if (!admin) return <Callout intent="warning">{INSUFFICIENT_PRIVILEGES}</Callout>;
  if (isLoading || !data) return <NonIdealState icon={<Spinner />} />;
  const byType = new Map(data.data.map((integration) => [integration.type, integration]));
  return (
    <div className="or-page">
      <H3>Enabled</H3>
      <EnabledList workspaceId={workspace.id} integrations={data.data} />
      <H3>Available</H3>
      <div className="or-integrations-grid">
        {(Object.keys(INTEGRATION_TYPES) as IntegrationType[]).map((type) => (
          <AvailableCard key={type} type={type} enabled={byType.get(type)} />
        ))}
      </div>
    </div>
  );
}
