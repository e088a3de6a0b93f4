import { Alert, Button, Card, FileInput, FormGroup, H3, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { type Locale } from '../../contracts/common';
import { LOGO_MAX_BYTES, workspaceNameSchema } from '../../contracts/workspaces';
import { useAppDispatch } from '../../store/hooks';
import { useGetMeQuery } from '../auth/authApi';
import { notificationShown } from '../notifications/notificationsSlice';
import { limitMessage } from '../session/apiErrors';
import { FieldGroup } from '../shell/components/FieldGroup';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import {
  useDeleteWorkspaceMutation,
  useUpdateWorkspaceSettingsMutation,
  useUploadLogoMutation,
} from '../workspaces/workspacesApi';
import { canDeleteWorkspace, formatBytes, logoProblem } from './generalRules';

const LOCALES: { value: Locale; label: string }[] = [
  { value: 'en_US', label: 'United States' },
  { value: 'en_GB', label: 'United Kingdom' },
  { value: 'nl_NL', label: 'EU' },
];

/**
 * settings/general: name, region, logo, Save and Delete workspace (fields disabled for members).
 * Long because it is one settings form (name, region, logo, delete) over its fields' state, each control a few lines.
 */
export function GeneralPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const workspace = useCurrentWorkspace();
  const { refetch: refetchMe } = useGetMeQuery();
  const admin = workspace.role === 'admin';
  const [name, setName] = useState(workspace.name);
  const [locale, setLocale] = useState<Locale>(workspace.locale);
  const [logo, setLogo] = useState<string | null>(workspace.logo);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [updateSettings, { isLoading: saving }] = useUpdateWorkspaceSettingsMutation();
  const [uploadLogo, { isLoading: uploading }] = useUploadLogoMutation();
  const [deleteWorkspace, { isLoading: deleting }] = useDeleteWorkspaceMutation();

  const onLogo = async (file: File | undefined) => {
    if (!file) return;
    const problem = logoProblem(file);
    setLogoError(problem);
    if (problem) return;
    try {
      const { asset_id: assetId } = await uploadLogo({ workspaceId: workspace.id, file }).unwrap();
      setLogo(assetId);
    } catch (error) {
      dispatch(notificationShown(limitMessage(error) ?? 'Image upload faield', 'danger'));
    }
  };

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setNameError(null);
    try {
      await updateSettings({ workspaceId: workspace.id, body: { name: parsed.data, locale, logo } }).unwrap();
      dispatch(notificationShown('Updated workspace settings', 'success'));
    } catch {
      dispatch(notificationShown('Failed to update workspace settings', 'danger'));
    }
  };

  const onDelete = async () => {
    setConfirmDelete(false);
    try {
      const { redirect } = await deleteWorkspace(workspace.id).unwrap();
      await refetchMe();
      dispatch(notificationShown('Deleted workspace', 'success'));
      navigate(redirect, { replace: true });
    } catch {
      dispatch(notificationShown('Failed to delete workspace', 'danger'));
    }
  };

  return (
    <div className="or-settings-page">
      <H3>General</H3>
      <Card className="or-settings-card">
        <form onSubmit={(event) => void onSave(event)}>
          <FieldGroup label="Name" labelFor="general-name" error={nameError}>
            <InputGroup id="general-name" value={name} onValueChange={setName} disabled={!admin} />
          </FieldGroup>
          <FormGroup label="Region" labelFor="general-locale">
            <HTMLSelect
              id="general-locale"
              value={locale}
              options={LOCALES}
              disabled={!admin}
              onChange={(event) => setLocale(event.currentTarget.value as Locale)}
            />
          </FormGroup>
          <FormGroup
            label="Logo"
            labelFor="general-logo"
            intent={logoError ? 'danger' : 'none'}
            helperText={logoError ?? `An SVG or a transparent PNG works best (at most ${formatBytes(LOGO_MAX_BYTES)}).`}
          >
            {logo && (
              <img
                className="or-logo-preview"
                src={`/api/assets/workspaces/${workspace.id}/${logo}`}
                alt="Workspace logo"
              />
            )}
            <FileInput
              inputProps={{ id: 'general-logo', accept: 'image/*' }}
              text={uploading ? 'Uploading…' : 'Choose file…'}
              disabled={!admin || uploading}
              onInputChange={(event) => void onLogo(event.currentTarget.files?.[0])}
            />
          </FormGroup>
          <Button type="submit" intent="primary" text="Save" disabled={!admin} loading={saving} />
        </form>
      </Card>
      {canDeleteWorkspace(workspace) && (
        <Card className="or-settings-card">
          <Button intent="danger" text="Delete workspace" loading={deleting} onClick={() => setConfirmDelete(true)} />
          <Alert
            isOpen={confirmDelete}
            intent="danger"
            confirmButtonText="Delete workspace"
            cancelButtonText="Cancel"
            onConfirm={() => void onDelete()}
            onCancel={() => setConfirmDelete(false)}
          >
            Delete {workspace.displayName}? Its reports, alerts and settings are removed for every member.
          </Alert>
        </Card>
      )}
    </div>
  );
}
