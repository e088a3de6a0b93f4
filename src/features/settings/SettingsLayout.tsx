import { Button, Icon, type IconName } from '@blueprintjs/core';
import { useEffect } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { settingsTabVisible, type SettingsTab } from '../../app/guards';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { signedOut } from '../session/sessionActions';
import { selectSettingsMenuCollapsed, settingsMenuCollapsedSet, settingsMenuToggled } from '../shell/shellSlice';
import { useCurrentUser, useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { useGetWorkspaceFlagsQuery } from '../workspaces/workspacesApi';

/** Spec 1 §9: the settings menu is 240 px wide, 48 px collapsed. */
export const SETTINGS_MENU_WIDTH = 240;
export const SETTINGS_MENU_COLLAPSED_WIDTH = 48;
/** Below this window width the menu collapses by itself. */
const SMALL_SCREEN_PX = 900;

interface Entry {
  tab: SettingsTab;
  path: string;
  icon: IconName;
  text: string;
}

/** /workspaces/{id}/settings: the side menu (with the visibility rules of spec 1 §2.6) and the tab. */
export function SettingsLayout() {
  const dispatch = useAppDispatch();
  const user = useCurrentUser();
  const workspace = useCurrentWorkspace();
  const collapsed = useAppSelector(selectSettingsMenuCollapsed);
  const { data: flags = [] } = useGetWorkspaceFlagsQuery(workspace.id);

  useEffect(() => {
    if (window.innerWidth < SMALL_SCREEN_PX) dispatch(settingsMenuCollapsedSet(true));
  }, [dispatch]);

  const entries: Entry[] = [
    { tab: 'profile', path: 'profile', icon: 'person', text: 'Profile' },
    { tab: 'general', path: 'general', icon: 'settings', text: 'General' },
    { tab: 'members', path: 'members', icon: 'people', text: 'Members' },
    { tab: 'integrations', path: 'integrations', icon: 'data-connection', text: 'Integrations' },
    { tab: 'data-model', path: 'data-model', icon: 'database', text: 'Data model' },
    { tab: 'agency', path: 'agency', icon: 'office', text: workspace.licenseHolder ?? 'Agency' },
    { tab: 'admin', path: 'admin/workspaces', icon: 'shield', text: 'All workspaces' },
  ];
  const visible = entries.filter((entry) => settingsTabVisible(entry.tab, { user, workspace, flags }));

  return (
    <div className="or-settings">
      <nav
        className="or-settings-menu"
        aria-label="Settings"
        style={{ width: collapsed ? SETTINGS_MENU_COLLAPSED_WIDTH : SETTINGS_MENU_WIDTH }}
      >
        <Button
          variant="minimal"
          icon={collapsed ? 'menu-open' : 'menu-closed'}
          aria-label={collapsed ? 'Expand menu' : 'Collapse menu'}
          onClick={() => dispatch(settingsMenuToggled())}
        />
        {visible.map((entry) => (
          <NavLink
            key={entry.tab}
            to={`/workspaces/${workspace.id}/settings/${entry.path}`}
            className={({ isActive }) => `or-settings-link${isActive ? ' or-active' : ''}`}
            title={entry.text}
          >
            <Icon icon={entry.icon} />
            {!collapsed && <span>{entry.text}</span>}
          </NavLink>
        ))}
        <a className="or-settings-link" href="/logout" title="Logout" onClick={() => dispatch(signedOut())}>
          <Icon icon="log-out" />
          {!collapsed && <span>Logout</span>}
        </a>
      </nav>
      <section className="or-settings-content">
        <Outlet />
      </section>
    </div>
  );
}
