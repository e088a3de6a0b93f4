import { HotkeysProvider } from '@blueprintjs/core';
import { useEffect } from 'react';
import { Outlet, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../../store/hooks';
import { currentWorkspaceChanged } from '../../workspaces/workspacesSlice';
import { drawerFromParams } from '../drawers';
import { useCurrentUser, useCurrentWorkspace } from '../useCurrentWorkspace';
import { DrawerHost } from './DrawerHost';
import { DemoDataChip, ImpersonationBanner, ScreenTooSmallNotice } from './ShellBanners';
import { Sidebar } from './Sidebar';

export const PRODUCT_NAME = 'Openrate';

/** The signed-in shell of a workspace: sidebar, banners, page title and the current-workspace memory. */
export function WorkspaceLayout() {
  const dispatch = useAppDispatch();
  const user = useCurrentUser();
  const workspace = useCurrentWorkspace();
  const [params] = useSearchParams();
  // Getting started has no backdrop and stays open while the user works: the page makes room for it.
  const beside = drawerFromParams(params).type === 'getting-started';

  useEffect(() => {
    dispatch(currentWorkspaceChanged(workspace.id));
  }, [dispatch, workspace.id]);

  useEffect(() => {
    document.title = `${workspace.displayName} · ${PRODUCT_NAME}`;
    return () => {
      document.title = PRODUCT_NAME;
    };
  }, [workspace.displayName]);

  // Its pages' keyboard shortcuts (reports, the data model): ? lists them in a dialog with this title. Here rather
  // than at the root, so the hotkeys code and the dialog stay out of the sign-in page's first load.
  return (
    <HotkeysProvider dialogProps={{ title: 'Keyboard shortcuts' }}>
      <div className="or-shell">
        <ImpersonationBanner user={user} />
        <div className={beside ? 'or-shell-body or-shell-body-beside-drawer' : 'or-shell-body'}>
          <Sidebar user={user} workspace={workspace} />
          <main className="or-main">
            <DemoDataChip workspace={workspace} />
            <Outlet />
          </main>
        </div>
        <DrawerHost user={user} workspace={workspace} />
        <ScreenTooSmallNotice />
      </div>
    </HotkeysProvider>
  );
}
