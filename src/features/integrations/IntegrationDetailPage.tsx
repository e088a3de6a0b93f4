import { Button, Callout, H3, HTMLSelect, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  INTEGRATION_ERRORS,
  INTEGRATION_TYPES,
  type Integration,
  type IntegrationType,
} from '../../contracts/integrations';
import { errorCode } from '../session/apiErrors';
import { FieldGroup } from '../shell/components/FieldGroup';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { CopernicaViews } from './CopernicaViews';
import { GoogleAnalytics } from './GoogleAnalytics';
import {
  type Field,
  FIELDS,
  INSUFFICIENT_PRIVILEGES,
  isActive,
  isConnectable,
  PUSH_DESTINATIONS,
} from './integrationRules';
import {
  useConnectIntegrationMutation,
  useConnectKlaviyoMutation,
  useEnableKlaviyoMutation,
  useGetIntegrationsQuery,
} from './integrationsApi';
import { PushCredentials } from './PushCredentials';

/** The spec's message for a refused connect when the server gives none of its own. */
const FALLBACK: Partial<Record<IntegrationType, string>> = {
  klaviyo: INTEGRATION_ERRORS.klaviyo,
  copernica: INTEGRATION_ERRORS.copernica,
  iterable: INTEGRATION_ERRORS.iterable,
  webpower: INTEGRATION_ERRORS.mailpro,
  mailplus: INTEGRATION_ERRORS.mailplus,
};

function ConnectForm({ type, fields, existing }: { type: IntegrationType; fields: Field[]; existing?: Integration }) {
  const workspace = useCurrentWorkspace();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((field) => [field.name, field.options?.[0] ?? ''])),
  );
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState<Record<string, string>>({});
  const [enableKlaviyo] = useEnableKlaviyoMutation();
  const [connectKlaviyo, klaviyoState] = useConnectKlaviyoMutation();
  const [connect, connectState] = useConnectIntegrationMutation();
  // The Klaviyo integration a refused key left enabled: a retry connects it, even before the list shows it.
  const enabledId = useRef<number | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const empty = fields.filter((field) => field.required && !values[field.name]?.trim());
    setMissing(Object.fromEntries(empty.map((field) => [field.name, field.required!])));
    if (empty.length > 0) return;
    try {
      if (type === 'klaviyo') {
        const integrationId = existing?.id ?? enabledId.current ?? (await enableKlaviyo(workspace.id).unwrap()).data.id;
        enabledId.current = integrationId;
        await connectKlaviyo({ workspaceId: workspace.id, integrationId, apiKey: values.api_key }).unwrap();
      } else {
        await connect({ workspaceId: workspace.id, type, body: values }).unwrap();
      }
      setValues((current) => ({
        ...current,
        ...Object.fromEntries(fields.filter((f) => f.secret).map((f) => [f.name, ''])),
      }));
    } catch (failure) {
      setError(errorCode(failure) ?? FALLBACK[type] ?? INTEGRATION_ERRORS.enable);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="or-integration-form">
      {fields.map((field) => (
        <FieldGroup
          key={field.name}
          label={field.label}
          labelFor={`integration-${field.name}`}
          error={missing[field.name]}
        >
          {field.options ? (
            <HTMLSelect
              id={`integration-${field.name}`}
              options={field.options}
              value={values[field.name]}
              onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
            />
          ) : (
            <InputGroup
              id={`integration-${field.name}`}
              type={field.secret ? 'password' : 'text'}
              autoComplete="off"
              value={values[field.name]}
              onValueChange={(value) => setValues({ ...values, [field.name]: value })}
            />
          )}
        </FieldGroup>
      ))}
      {error && <Callout intent="danger">{error}</Callout>}
      <Button
        type="submit"
        intent="primary"
        text={existing ? 'Update credentials' : 'Connect'}
        loading={klaviyoState.isLoading || connectState.isLoading}
      />
    </form>
  );
}

/** settings/integrations/{integrationType}: the type's connection state and its connect form. */
export function IntegrationDetailPage() {
  const workspace = useCurrentWorkspace();
  const { integrationType = '' } = useParams();
  const admin = workspace.role === 'admin';
  const { data } = useGetIntegrationsQuery(workspace.id, { skip: !admin });
  if (!admin) return <Callout intent="warning">{INSUFFICIENT_PRIVILEGES}</Callout>;
  if (!(integrationType in INTEGRATION_TYPES)) {
    return <NonIdealState className="or-page" icon="data-connection" title="Unknown integration" />;
  }
  const type = integrationType as IntegrationType;
  const info = INTEGRATION_TYPES[type];
  const existing = data?.data.find((integration) => integration.type === type);
  const fields = FIELDS[type];
  return (
    <div className="or-page">
      <Link to=".." relative="path">
        All integrations
      </Link>
      <H3>
        {info.label}{' '}
        {existing && (
          <Tag intent={isActive(existing) ? 'success' : 'none'}>{isActive(existing) ? 'Active' : 'Inactive'}</Tag>
        )}
      </H3>
      {existing && existing.units.length > 0 && type !== 'google_analytics' && (
        <ul aria-label={`Connected ${info.unit}s`}>
          {existing.units.map((unit) => (
            <li key={unit.id}>{unit.name}</li>
          ))}
        </ul>
      )}
      {info.custom && (
        <Callout intent="warning">Please contact the provider to setup {info.label} for your workspace</Callout>
      )}
      {type === 'google_analytics' && data && <GoogleAnalytics workspaceId={workspace.id} existing={existing} />}
      {!info.custom && !isConnectable(type) && <Callout>Connecting {info.label} is not available yet.</Callout>}
      {type === 'copernica' && existing && isActive(existing) && (
        <CopernicaViews workspaceId={workspace.id} integrationId={existing.id} />
      )}
      {fields && data && <ConnectForm key={type} type={type} fields={fields} existing={existing} />}
      {PUSH_DESTINATIONS[type] && <PushCredentials workspaceId={workspace.id} kind={PUSH_DESTINATIONS[type]} />}
    </div>
  );
}
