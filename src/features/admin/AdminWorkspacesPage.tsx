import { Button, H3, H4, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { type WorkspaceSummary } from '../../contracts/workspaces';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { errorCode } from '../session/apiErrors';
import { useGetAdminWorkspacesQuery } from '../workspaces/workspacesApi';
import { WorkspaceTable } from '../workspaces/WorkspaceTable';
import { useGetAdminWorkspaceMembersQuery, useImpersonateMutation } from './adminApi';

export const IMPERSONATE_FAILED = 'Failed to impersonate';

/** The members of the picked workspace, each with 'Impersonate'. */
function WorkspaceMembers({ workspace }: { workspace: WorkspaceSummary }) {
  const dispatch = useAppDispatch();
  const { data, isLoading } = useGetAdminWorkspaceMembersQuery(workspace.id);
  const [impersonate, { isLoading: starting, originalArgs }] = useImpersonateMutation();

  const onImpersonate = async (userId: number) => {
    try {
      await impersonate(userId).unwrap();
      // A new session as another user: load the app afresh so nothing of the staff member's state carries over.
      window.location.assign('/');
    } catch (error) {
      dispatch(notificationShown(errorCode(error) ?? IMPERSONATE_FAILED, 'danger'));
    }
  };

  if (isLoading) return <Spinner />;
  const members = data?.data ?? [];
  return (
    <section aria-label={`Members of ${workspace.name}`}>
      <H4>Members of {workspace.name}</H4>
      {members.length === 0 ? (
        <NonIdealState icon="people" title="No members" />
      ) : (
        <HTMLTable className="or-members-table" striped>
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.id}>
                <td>{member.name}</td>
                <td>{member.email}</td>
                <td>{member.role}</td>
                <td>
                  <Button
                    size="small"
                    variant="outlined"
                    text="Impersonate"
                    aria-label={`Impersonate ${member.email}`}
                    loading={starting && originalArgs === member.id}
                    disabled={starting}
                    onClick={() => void onImpersonate(member.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}

/** settings/admin/workspaces: every workspace, for product staff; pick one to act as one of its members. */
export function AdminWorkspacesPage() {
  const { data = [], isLoading } = useGetAdminWorkspacesQuery();
  const [pickedId, setPickedId] = useState<number | null>(null);
  const picked = data.find((workspace) => workspace.id === pickedId);
  return (
    <div className="or-settings-page">
      <H3>All workspaces</H3>
      {isLoading ? (
        <Spinner />
      ) : (
        <WorkspaceTable
          workspaces={data}
          renderName={(workspace) => (
            <Button
              variant="minimal"
              size="small"
              text={workspace.name}
              active={workspace.id === pickedId}
              aria-pressed={workspace.id === pickedId}
              onClick={() => setPickedId(workspace.id)}
            />
          )}
        />
      )}
      {picked && <WorkspaceMembers key={picked.id} workspace={picked} />}
    </div>
  );
}
