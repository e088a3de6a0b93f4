import { Button, Callout, FormGroup, H4, InputGroup, Spinner, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import { useCopyToClipboard } from '../notifications/useCopyToClipboard';
import { useGetGcsBucketQuery, useGetSftpAccountQuery } from './integrationsApi';

export type PushKind = 'gcs' | 'sftp';

const FAILED = 'The credentials could not be loaded. Please try again.';

/** One issued value, read-only (so it can be selected by hand too) with its copy button. */
function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const copy = useCopyToClipboard();
  const button = (
    <Button variant="minimal" icon="duplicate" aria-label={`Copy ${label}`} onClick={() => void copy(value)} />
  );
  return (
    <FormGroup label={label} labelFor={`push-${label}`}>
      {multiline ? (
        <div className="or-push-multiline">
          <TextArea id={`push-${label}`} readOnly fill rows={4} value={value} />
          {button}
        </div>
      ) : (
        <InputGroup id={`push-${label}`} readOnly value={value} rightElement={button} />
      )}
    </FormGroup>
  );
}

function SftpAccount({ workspaceId }: { workspaceId: number }) {
  const { data, isError } = useGetSftpAccountQuery(workspaceId);
  if (isError) return <Callout intent="danger">{FAILED}</Callout>;
  if (!data) return <Spinner size={20} />;
  const account = data.data;
  return (
    <>
      <CopyField label="Host" value={account.host} />
      <CopyField label="Port" value={String(account.port)} />
      <CopyField label="Username" value={account.username} />
      <CopyField label="Password" value={account.password} />
      <CopyField label="Path" value={account.path} />
    </>
  );
}

function GcsBucket({ workspaceId }: { workspaceId: number }) {
  const { data, isError } = useGetGcsBucketQuery(workspaceId);
  if (isError) return <Callout intent="danger">{FAILED}</Callout>;
  if (!data) return <Spinner size={20} />;
  return (
    <>
      <CopyField label="Bucket" value={data.data.name} />
      <CopyField label="Service account key (JSON)" value={data.data.key_json} multiline />
    </>
  );
}

const TITLES: Record<PushKind, { title: string; description: string }> = {
  sftp: {
    title: 'SFTP account',
    description: 'Deliver export files to this SFTP account (password authentication) for the import to pick up.',
  },
  gcs: {
    title: 'Google Cloud Storage bucket',
    description: 'Deliver export files to this bucket with its service account key for the import to pick up.',
  },
};

/**
 * The credentials the product issued to the workspace for pushing files, on the page of an integration whose data
 * arrives that way. Admins only (as the server insists); fetched, and so generated, only when asked to be shown.
 */
export function PushCredentials({ workspaceId, kind }: { workspaceId: number; kind: PushKind }) {
  const [shown, setShown] = useState(false);
  const { title, description } = TITLES[kind];
  return (
    <section aria-label={title} className="or-integration-form">
      <H4>{title}</H4>
      <p>{description}</p>
      {!shown ? (
        <Button icon="eye-open" text="Show credentials" onClick={() => setShown(true)} />
      ) : kind === 'sftp' ? (
        <SftpAccount workspaceId={workspaceId} />
      ) : (
        <GcsBucket workspaceId={workspaceId} />
      )}
    </section>
  );
}
