import { Button, Icon, type IconName } from '@blueprintjs/core';
import { NavLink, useSearchParams } from 'react-router-dom';
import { type Me } from '../../../contracts/me';
import { type Workspace } from '../../../contracts/workspaces';
import { useGetWorkspaceFlagsQuery } from '../../workspaces/workspacesApi';
import { openDrawerParams } from '../drawers';
import { FeedbackPopover } from './FeedbackPopover';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

export interface SidebarProps {
  user: Me;
  workspace: Workspace;
}

function SidebarLink({ to, icon, text }: { to: string; icon: IconName; text: string }) {
  return (
    <NavLink to={to} className={({ isActive }) => `or-sidebar-link${isActive ? ' or-active' : ''}`}>
      <Icon icon={icon} />
      <span>{text}</span>
    </NavLink>
  );
}

/** The main shell's left sidebar. */
export function Sidebar({ user, workspace }: SidebarProps) {
  const base = `/workspaces/${workspace.id}`;
  const { data: flags = [] } = useGetWorkspaceFlagsQuery(workspace.id);
  const [, setParams] = useSearchParams();
  return (
    <nav className="or-sidebar" aria-label="Main">
      <div className="or-sidebar-brand">Openrate</div>
      <WorkspaceSwitcher workspaces={user.workspaces} current={workspace} />
      <SidebarLink to={`${base}/reports`} icon="dashboard" text="Reports" />
      <SidebarLink to={`${base}/alerting`} icon="notifications" text="Alerting" />
      <SidebarLink to={`${base}/targets`} icon="locate" text="Targets" />
      {flags.includes('engagement') && <SidebarLink to={`${base}/engagement`} icon="people" text="Engagement" />}
      <div className="or-sidebar-spacer" />
      <FeedbackPopover workspaceId={workspace.id} />
      <Button
        variant="minimal"
        alignText="left"
        icon="help"
        text="Help"
        onClick={() => setParams((params) => openDrawerParams(params, 'getting-started'))}
      />
      <SidebarLink to={`${base}/settings/profile`} icon="cog" text="Settings" />
    </nav>
  );
}
