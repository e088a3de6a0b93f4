import { Button, Callout, H3, InputGroup, Spinner } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { workspaceNameSchema } from '../../contracts/workspaces';
import { useAppDispatch } from '../../store/hooks';
import { useGetMeQuery } from '../auth/authApi';
import { notificationShown } from '../notifications/notificationsSlice';
import { limitMessage } from '../session/apiErrors';
import { FieldGroup } from '../shell/components/FieldGroup';
import { FormDialog } from '../shell/components/FormDialog';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { useCreateWorkspaceMutation, useGetAgencyWorkspacesQuery } from '../workspaces/workspacesApi';
import { WorkspaceTable } from '../workspaces/WorkspaceTable';

/** settings/agency: the workspaces of the same agency licence, with Create (spec 1 §2.6). */
export function AgencyPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const workspace = useCurrentWorkspace();
  const { refetch: refetchMe } = useGetMeQuery();
  const agency = workspace.licenseType === 'agency';
  const { data = [], isLoading } = useGetAgencyWorkspacesQuery(workspace.id, { skip: !agency });
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [createWorkspace, { isLoading: saving }] = useCreateWorkspaceMutation();

  if (!agency) return <Callout intent="warning">Not applicable for this workspace</Callout>;

  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    try {
      const { id } = await createWorkspace({
        name: parsed.data,
        license_id: workspace.licenseId ?? undefined,
      }).unwrap();
      await refetchMe();
      dispatch(notificationShown('Successfully created workspace', 'success'));
      navigate(`/workspaces/${id}/settings/members`);
    } catch (error) {
      dispatch(notificationShown(limitMessage(error) ?? 'Failed to create workspace', 'danger'));
    }
  };

  return (
    <div className="or-settings-page">
      <div className="or-page-header">
        <H3>{workspace.licenseHolder ?? 'Agency'}</H3>
        <Button intent="primary" icon="add" text="Create" onClick={() => setCreating(true)} />
      </div>
      {isLoading ? (
        <Spinner />
      ) : (
        <WorkspaceTable workspaces={data} onOpen={(id) => navigate(`/workspaces/${id}/settings/general`)} />
      )}
      <FormDialog
        isOpen={creating}
        title="Create workspace"
        submitText="Create"
        saving={saving}
        cancellable={false}
        onSubmit={onCreate}
        onClose={() => setCreating(false)}
      >
        <FieldGroup label="Name" labelFor="agency-name" error={error}>
          <InputGroup id="agency-name" autoFocus value={name} onValueChange={setName} />
        </FieldGroup>
      </FormDialog>
    </div>
  );
}
