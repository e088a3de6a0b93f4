import { Button, Callout, FormGroup, HTMLTable, InputGroup } from '@blueprintjs/core';
import { useCopyToClipboard } from '../notifications/useCopyToClipboard';
import { useGetWebhookDeliveriesQuery, useGetWebhookSecretQuery, useMakeWebhookSecretMutation } from './alertingApi';

const formatTime = (iso: string) => new Date(iso).toLocaleString();

/**
 * The workspace's webhook signing secret: made here and shown once (the server keeps it sealed and never answers
 * it again), so the answer lives only in this mutation's result; later the drawer says only that one exists.
 */
function SigningSecret({ workspaceId }: { workspaceId: number }) {
  const status = useGetWebhookSecretQuery(workspaceId);
  const [make, made] = useMakeWebhookSecretMutation();
  const copy = useCopyToClipboard();
  if (!status.data) return null;
  const shown = made.data;
  return (
    <FormGroup
      label="Webhook signing secret"
      helperText="Receivers check X-Openrate-Signature: sha256=HMAC of the body."
    >
      {shown ? (
        <Callout intent="warning" compact>
          <p>Copy this secret now: it will not be shown again.</p>
          <InputGroup
            readOnly
            value={shown.secret}
            aria-label="Webhook signing secret"
            rightElement={
              <Button variant="minimal" icon="duplicate" text="Copy" onClick={() => void copy(shown.secret)} />
            }
          />
        </Callout>
      ) : status.data.configured ? (
        <p>A signing secret exists (created {formatTime(status.data.createdAt ?? '')}).</p>
      ) : null}
      <Button
        size="small"
        loading={made.isLoading}
        text={status.data.configured ? 'Rotate secret' : 'Create secret'}
        onClick={() =>
          void make({ workspaceId, rotate: status.data!.configured })
            .unwrap()
            .catch(() => {})
        }
      />
      {made.isError && (
        <Callout intent="danger" compact>
          Failed to change the secret: only a workspace admin may create or rotate it.
        </Callout>
      )}
    </FormGroup>
  );
}

/** The rule's last webhook deliveries: status, attempts, the last error (never a secret) and when. */
function DeliveryLog({ workspaceId, ruleId }: { workspaceId: number; ruleId: string }) {
  // An unsaved rule has no log yet (404): nothing to show.
  const { data } = useGetWebhookDeliveriesQuery({ workspaceId, ruleId });
  if (!data || data.length === 0) return null;
  return (
    <FormGroup label="Webhook deliveries">
      <HTMLTable compact aria-label="Webhook deliveries">
        <thead>
          <tr>
            <th>Day</th>
            <th>Status</th>
            <th>Attempts</th>
            <th>Last error</th>
            <th>Time</th>
          </tr>
        </thead>
        <tbody>
          {data.map((delivery) => (
            <tr key={delivery.id}>
              <td>{delivery.day}</td>
              <td>{delivery.status}</td>
              <td>{delivery.attempts}</td>
              <td>{delivery.error ?? ''}</td>
              <td>{formatTime(delivery.modifiedAt)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </FormGroup>
  );
}

export function WebhookPanel({ workspaceId, ruleId }: { workspaceId: number; ruleId: string }) {
  return (
    <>
      <SigningSecret workspaceId={workspaceId} />
      <DeliveryLog workspaceId={workspaceId} ruleId={ruleId} />
    </>
  );
}
