import { Classes, Drawer } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { type Me } from '../../../contracts/me';
import { type Workspace } from '../../../contracts/workspaces';
import { AnnotationsDrawerBody } from '../../annotations/AnnotationsDrawer';
import { usePatchMeMutation } from '../../auth/authApi';
import { ShareDrawerBody } from '../../sharing/ShareDrawer';
import { closeDrawerParams, drawerFromParams, DRAWER_PREFIX, openDrawerParams } from '../drawers';
import { FeedbackDrawerBody } from './FeedbackForm';
import { DemoDrawerBody } from './ShellBanners';

/** Getting-started topics (spec 1 §2.6): team members only for admins. */
function helpTopics(workspace: Workspace): { title: string; text: string }[] {
  return [
    { title: 'Alerting', text: 'Get an e-mail when a metric crosses a threshold: open Alerting and add a rule.' },
    ...(workspace.role === 'admin'
      ? [{ title: 'Team members', text: 'Invite colleagues from Settings › Members and choose their role.' }]
      : []),
    { title: 'Security', text: 'Turn on two-factor authentication in your profile to protect your account.' },
  ];
}

export interface DrawerHostProps {
  user: Me;
  workspace: Workspace;
}

/**
 * The help topics, opened by themselves once per visit while the user has not dismissed them for good; closing them
 * saves the dismissal.
 */
function GettingStartedDrawer({ user, workspace }: DrawerHostProps) {
  const [params, setParams] = useSearchParams();
  const [patchMe] = usePatchMeMutation();
  const drawer = drawerFromParams(params);

  const autoOpened = useRef(false);
  useEffect(() => {
    if (autoOpened.current || !user.showGettingStarted || drawer.type !== null) return;
    autoOpened.current = true;
    setParams((current) => openDrawerParams(current, 'getting-started'), { replace: true });
  }, [user.showGettingStarted, drawer.type, setParams]);

  const close = () => {
    // Closed in this visit, also when the URL opened it (a reload): not reopened while the dismissal is saving.
    autoOpened.current = true;
    setParams(closeDrawerParams(params));
    if (user.showGettingStarted) void patchMe({ showGettingStarted: false });
  };

  return (
    <Drawer
      isOpen={drawer.type === 'getting-started'}
      onClose={close}
      title="Getting started"
      size="360px"
      hasBackdrop={false}
      enforceFocus={false}
      autoFocus={false}
    >
      <div className={Classes.DRAWER_BODY}>
        <div className={Classes.DIALOG_BODY}>
          {helpTopics(workspace).map((topic) => (
            <section key={topic.title}>
              <h4>{topic.title}</h4>
              <p>{topic.text}</p>
            </section>
          ))}
        </div>
      </div>
    </Drawer>
  );
}

/** Opens the drawer the URL names ('drawer.type' and its 'drawer.' parameters). */
export function DrawerHost({ user, workspace }: DrawerHostProps) {
  const [params, setParams] = useSearchParams();
  const drawer = drawerFromParams(params);
  const close = () => setParams(closeDrawerParams(params));

  return (
    <>
      <GettingStartedDrawer user={user} workspace={workspace} />
      <Drawer
        isOpen={drawer.type === 'demo' && workspace.status === 'new'}
        onClose={close}
        title="Demo data"
        size="360px"
      >
        <DemoDrawerBody workspace={workspace} />
      </Drawer>
      <Drawer isOpen={drawer.type === 'annotations'} onClose={close} title="Annotations" size="420px">
        {drawer.type === 'annotations' && (
          <AnnotationsDrawerBody
            workspaceId={workspace.id}
            start={params.get(`${DRAWER_PREFIX}start`)}
            end={params.get(`${DRAWER_PREFIX}end`)}
          />
        )}
      </Drawer>
      <Drawer isOpen={drawer.type === 'feedback'} onClose={close} title="Feedback" size="420px">
        {drawer.type === 'feedback' && (
          <div className={Classes.DRAWER_BODY}>
            <div className={Classes.DIALOG_BODY}>
              <FeedbackDrawerBody
                workspaceId={workspace.id}
                widget={params.get(`${DRAWER_PREFIX}widget`)}
                error={params.get(`${DRAWER_PREFIX}error`)}
                onDone={close}
              />
            </div>
          </div>
        )}
      </Drawer>
      <Drawer isOpen={drawer.type === 'share'} onClose={close} title="Sharing" size="420px">
        {drawer.type === 'share' && (
          <ShareDrawerBody
            workspaceId={workspace.id}
            objectType={params.get(`${DRAWER_PREFIX}objectType`)}
            objectId={params.get(`${DRAWER_PREFIX}objectId`)}
            currentUserId={user.memberId}
          />
        )}
      </Drawer>
    </>
  );
}
