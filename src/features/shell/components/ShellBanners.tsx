import { Button, Tag } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { type Me } from '../../../contracts/me';
import { type Workspace } from '../../../contracts/workspaces';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { notificationShown } from '../../notifications/notificationsSlice';
import { useRequestActivationMutation } from '../../workspaces/workspacesApi';
import { activationRequested, selectActivationRequested } from '../../workspaces/workspacesSlice';

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

/** The demo-data chip of a workspace in status 'new', with the activation request. */
export function DemoDataChip({ workspace }: { workspace: Workspace }) {
  const dispatch = useAppDispatch();
  const requestedLocally = useAppSelector((state) => selectActivationRequested(state, workspace.id));
  const [requestActivation, { isLoading }] = useRequestActivationMutation();
  if (workspace.status !== 'new') return null;
  const requested = requestedLocally || workspace.activationRequested;

  const onRequest = async () => {
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

  return (
    <div className="or-demo-chip">
      <Tag intent="warning" round>
        {requested ? 'Demo data (Onboarding requested)' : 'Demo data'}
      </Tag>
      {!requested && (
        <Button small minimal loading={isLoading} text="Request onboarding" onClick={() => void onRequest()} />
      )}
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
