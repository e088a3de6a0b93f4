import {
  Button,
  Classes,
  FormGroup,
  H3,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Menu,
  MenuItem,
  PopoverNext,
  Tag,
} from '@blueprintjs/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { type Role, emailSchema } from '../../contracts/common';
import { type Invitation, type Member } from '../../contracts/members';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { errorCode, errorStatus } from '../session/apiErrors';
import { FieldGroup } from '../shell/components/FieldGroup';
import { FormDialog } from '../shell/components/FormDialog';
import { useCurrentUser, useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { useSettled } from '../shell/useSettled';
import { filterInvitations, filterMembers, memberActions, refusalMessage } from './memberRules';
import {
  useChangeMemberRoleMutation,
  useGetMembersAndInvitationsQuery,
  useInviteMemberMutation,
  useRemoveMemberMfaMutation,
  useRemoveMemberMutation,
  useRenameMemberMutation,
  useWithdrawInvitationMutation,
} from './membersApi';

/** The refusal's own words when the server explains it (staff address, already a member...), else the spec's. */
const failureMessage = (error: unknown, fallback: string) =>
  refusalMessage(errorStatus(error as Parameters<typeof errorStatus>[0]), errorCode(error), fallback);

/** Spec 1 §9: search input debounce. */
const SEARCH_DEBOUNCE_MS = 200;

function InviteDialog({ workspaceId, onClose }: { workspaceId: number; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [error, setError] = useState<string | null>(null);
  const [invite, { isLoading }] = useInviteMemberMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setError('Please enter a valid email address');
      return;
    }
    try {
      await invite({ workspaceId, email: parsed.data, role }).unwrap();
      dispatch(notificationShown(`Invite sent to ${parsed.data}`, 'success'));
      onClose();
    } catch (failure) {
      dispatch(notificationShown(failureMessage(failure, 'An error occurred while sending the invite.'), 'danger'));
    }
  };

  return (
    <FormDialog title="Invite member" submitText="Invite" saving={isLoading} onSubmit={onSubmit} onClose={onClose}>
      <FieldGroup label="Email" labelFor="invite-email" error={error}>
        <InputGroup id="invite-email" type="email" autoFocus value={email} onValueChange={setEmail} />
      </FieldGroup>
      <FormGroup label="Role" labelFor="invite-role">
        <HTMLSelect
          id="invite-role"
          value={role}
          options={[
            { value: 'member', label: 'Member' },
            { value: 'admin', label: 'Admin' },
          ]}
          onChange={(event) => setRole(event.currentTarget.value as Role)}
        />
      </FormGroup>
    </FormDialog>
  );
}

function RenameDialog({ workspaceId, member, onClose }: { workspaceId: number; member: Member; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [name, setName] = useState(member.name);
  const [error, setError] = useState<string | null>(null);
  const [rename, { isLoading }] = useRenameMemberMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Name cannot be empty');
      return;
    }
    try {
      await rename({ workspaceId, memberId: member.id, name: name.trim() }).unwrap();
      onClose();
    } catch {
      dispatch(notificationShown('Failed to update name', 'danger'));
    }
  };

  return (
    <FormDialog title="Change name" submitText="Save" saving={isLoading} onSubmit={onSubmit} onClose={onClose}>
      <FormGroup
        label="Name"
        labelFor="member-name"
        intent={error ? 'danger' : 'none'}
        helperText={error ?? 'Shown in this workspace only; their own profile keeps its name.'}
      >
        <InputGroup id="member-name" autoFocus value={name} onValueChange={setName} />
      </FormGroup>
    </FormDialog>
  );
}

/** A row's last cell for admins: the "more" button with the row's actions in a menu. */
function ActionsMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td>
      <PopoverNext shouldReturnFocusOnClose={false} placement="bottom-end" content={<Menu>{children}</Menu>}>
        <Button variant="minimal" icon="more" aria-label={label} />
      </PopoverNext>
    </td>
  );
}

const formatLastSeen = (lastSeen: string | null) => (lastSeen ? new Date(lastSeen).toLocaleString() : 'Never');

/**
 * settings/members: the searchable members table; admins invite and manage members.
 * Long because the members and invitations tables share the page's search, dialogs and admin actions; to be split into
 * the two tables.
 */
export function MembersPage() {
  const dispatch = useAppDispatch();
  const user = useCurrentUser();
  const workspace = useCurrentWorkspace();
  const admin = workspace.role === 'admin';
  const { data, isLoading } = useGetMembersAndInvitationsQuery(workspace.id);
  const members = data?.members ?? [];
  const invitations = data?.invitations ?? [];
  const [search, setSearch] = useState('');
  const [inviting, setInviting] = useState(false);
  const [renaming, setRenaming] = useState<Member | null>(null);
  const [changeRole] = useChangeMemberRoleMutation();
  const [removeMember] = useRemoveMemberMutation();
  const [removeMfa] = useRemoveMemberMfaMutation();
  const [withdraw] = useWithdrawInvitationMutation();
  const [invite] = useInviteMemberMutation();

  const query = useSettled(search, SEARCH_DEBOUNCE_MS);

  const onRole = async (member: Member, role: Role) => {
    try {
      await changeRole({ workspaceId: workspace.id, memberId: member.id, role }).unwrap();
      dispatch(notificationShown('Role changed successfully', 'success'));
    } catch {
      dispatch(notificationShown('Failed to update role.', 'danger'));
    }
  };
  const onRemove = async (member: Member) => {
    try {
      await removeMember({ workspaceId: workspace.id, memberId: member.id }).unwrap();
    } catch {
      dispatch(notificationShown('Failed to remove workspace member', 'danger'));
    }
  };
  const onRemoveMfa = async (member: Member) => {
    try {
      await removeMfa({ workspaceId: workspace.id, memberId: member.id }).unwrap();
    } catch (failure) {
      dispatch(
        notificationShown(failureMessage(failure, 'Failed to remove multifactor authentication for member'), 'danger'),
      );
    }
  };
  const onWithdraw = async (invitation: Invitation) => {
    try {
      await withdraw({ workspaceId: workspace.id, invitationId: invitation.id }).unwrap();
      dispatch(notificationShown(`Invitation for ${invitation.email} withdrawn`, 'success'));
    } catch {
      dispatch(notificationShown('Failed to withdraw the invitation', 'danger'));
    }
  };
  const onResend = async (invitation: Invitation) => {
    try {
      await invite({ workspaceId: workspace.id, email: invitation.email, role: invitation.role }).unwrap();
      dispatch(notificationShown(`Invite sent to ${invitation.email}`, 'success'));
    } catch (failure) {
      dispatch(notificationShown(failureMessage(failure, 'An error occurred while sending the invite.'), 'danger'));
    }
  };

  const shown = filterMembers(members, query);
  const shownInvitations = filterInvitations(invitations, query);
  return (
    <div className="or-settings-page">
      <div className="or-page-header">
        <H3>Members</H3>
        {admin && <Button intent="primary" icon="new-person" text="Invite" onClick={() => setInviting(true)} />}
      </div>
      <InputGroup
        leftIcon="search"
        placeholder="Search members"
        aria-label="Search members"
        value={search}
        onValueChange={setSearch}
      />
      <HTMLTable className="or-members-table" striped>
        <thead>
          <tr>
            <th>Name</th>
            <th>Email</th>
            <th>MFA</th>
            <th>Last seen</th>
            <th>Role</th>
            {admin && <th aria-label="Actions" />}
          </tr>
        </thead>
        <tbody>
          {shown.map((member) => {
            const actions = memberActions(member, { admin, selfId: user.memberId });
            return (
              <tr key={member.id} data-testid={`member-${member.email}`}>
                <td>{member.name}</td>
                <td>{member.email}</td>
                <td>{member.mfaEnabled ? 'Enabled' : 'Disabled'}</td>
                <td>{formatLastSeen(member.lastSeen)}</td>
                <td>
                  <Tag minimal>{member.role === 'admin' ? 'Admin' : 'Member'}</Tag>
                </td>
                {admin && (
                  <ActionsMenu label={`Actions for ${member.email}`}>
                    <MenuItem icon="edit" text="Change name" onClick={() => setRenaming(member)} />
                    {actions.changeRole && (
                      <MenuItem
                        icon="people"
                        text={member.role === 'admin' ? 'Make member' : 'Make admin'}
                        onClick={() => void onRole(member, member.role === 'admin' ? 'member' : 'admin')}
                      />
                    )}
                    {actions.removeMfa && (
                      <MenuItem icon="unlock" text="Remove MFA" onClick={() => void onRemoveMfa(member)} />
                    )}
                    {actions.remove && (
                      <MenuItem
                        icon="trash"
                        intent="danger"
                        text="Remove from workspace"
                        onClick={() => void onRemove(member)}
                      />
                    )}
                  </ActionsMenu>
                )}
              </tr>
            );
          })}
          {shownInvitations.map((invitation) => (
            // Until accepted, an invitation shows only what the admin typed: no name, MFA state or last seen.
            <tr key={`invitation-${invitation.id}`} data-testid={`invitation-${invitation.email}`}>
              <td className={Classes.TEXT_MUTED}>—</td>
              <td>{invitation.email}</td>
              <td className={Classes.TEXT_MUTED}>—</td>
              <td>
                <Tag minimal intent={invitation.expired ? 'danger' : 'primary'}>
                  {invitation.expired ? 'Invitation expired' : 'Invited'}
                </Tag>
              </td>
              <td>
                <Tag minimal>{invitation.role === 'admin' ? 'Admin' : 'Member'}</Tag>
              </td>
              {admin && (
                <ActionsMenu label={`Actions for invitation of ${invitation.email}`}>
                  <MenuItem icon="envelope" text="Send again" onClick={() => void onResend(invitation)} />
                  <MenuItem
                    icon="cross"
                    intent="danger"
                    text="Withdraw invitation"
                    onClick={() => void onWithdraw(invitation)}
                  />
                </ActionsMenu>
              )}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {!isLoading && shown.length === 0 && shownInvitations.length === 0 && <p>No members match your search.</p>}
      {inviting && <InviteDialog workspaceId={workspace.id} onClose={() => setInviting(false)} />}
      {renaming && <RenameDialog workspaceId={workspace.id} member={renaming} onClose={() => setRenaming(null)} />}
    </div>
  );
}
