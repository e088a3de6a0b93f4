import { Button, Classes, Tag } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { type Me } from '../../../contracts/me';
import { type Workspace } from '../../../contracts/workspaces';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { notificationShown } from '../../notifications/notificationsSlice';
import { useRequestActivationMutation } from '../../workspaces/workspacesApi';
import { activationRequested, selectActivationRequested } from '../../workspaces/workspacesSlice';
import { openDrawerParams } from '../drawers';

/** The red banner of an impersonated session, with the way back (spec 1 §4). */
export function ImpersonationBanner({ user }: { user: Me }) {
  if (!user.impersonatedBy) return null;
  return (
    <div className="or-impersonation" role="status">
      Impersonating {user.email}{' '}
      <a href="/impersonate/exit" className="or-impersonation-exit">
        EXIT
      </a>
    </div>
  );
}

/** Whether this workspace's onboarding was requested, here or in an earlier visit. */
function useActivation(workspace: Workspace) {
  const dispatch = useAppDispatch();
  const requestedLocally = useAppSelector((state) => selectActivationRequested(state, workspace.id));
  const [requestActivation, { isLoading }] = useRequestActivationMutation();
  const requested = requestedLocally || workspace.activationRequested;

  const request = async () => {
    try {
      await requestActivation(workspace.id).unwrap();
      dispatch(activationRequested(workspace.id));
      dispatch(notificationShown('Request received', 'success'));
    } catch {
      dispatch(
        notificationShown(
          'Something went wrong while processing your request. Please contact support@openrate.app.',
          'danger',
        ),
      );
    }
  };
  return { requested, isLoading, request };
}

/** The demo-data chip of a workspace in status 'new'; it opens the demo drawer ('drawer.type' demo). */
export function DemoDataChip({ workspace }: { workspace: Workspace }) {
  const { requested } = useActivation(workspace);
  const [, setParams] = useSearchParams();
  if (workspace.status !== 'new') return null;
  return (
    <div className="or-demo-chip">
      <Tag intent="warning" round interactive onClick={() => setParams((current) => openDrawerParams(current, 'demo'))}>
        {requested ? 'Demo data (Onboarding requested)' : 'Demo data'}
      </Tag>
    </div>
  );
}

/** The demo drawer's body: what demo data means here, and the activation request. */
export function DemoDrawerBody({ workspace }: { workspace: Workspace }) {
  const { requested, isLoading, request } = useActivation(workspace);
  return (
    <div className={Classes.DRAWER_BODY}>
      <div className={Classes.DIALOG_BODY}>
        <p>
          {workspace.displayName} shows demo data: every report, alert and segment works on generated campaigns, so you
          can try the product before your own platforms are connected.
        </p>
        <p>When you are ready, request onboarding and we will connect your data and replace the demo data.</p>
        {requested ? (
          <Tag intent="success" minimal>
            Onboarding requested
          </Tag>
        ) : (
          <Button intent="primary" loading={isLoading} text="Request onboarding" onClick={() => void request()} />
        )}
      </div>
    </div>
  );
}

const isSmallPortrait = () =>
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(max-width: 600px) and (orientation: portrait)').matches;

/** Small portrait screens are asked to turn to landscape (spec 1 §2.2). */
export function ScreenTooSmallNotice() {
  const [small, setSmall] = useState(isSmallPortrait);
  useEffect(() => {
    const update = () => setSmall(isSmallPortrait());
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  if (!small) return null;
  return (
    <div className="or-too-small" role="alert">
      Your screen is too small for Openrate. Please rotate your device to landscape.
    </div>
  );
}
