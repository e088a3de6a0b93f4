import {
  Button,
  Card,
  Classes,
  FormGroup,
  H3,
  H4,
  HTMLSelect,
  InputGroup,
  SegmentedControl,
  Switch,
} from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { IMPERSONATION_READ_ONLY, userNameSchema } from '../../contracts/me';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { usePatchMeMutation } from '../auth/authApi';
import { LONG_NOTIFICATION_MS, notificationShown } from '../notifications/notificationsSlice';
import {
  darkModeChanged,
  firstDayOfWeekChanged,
  selectDarkMode,
  selectFirstDayOfWeek,
  type DarkMode,
} from '../prefs/prefsSlice';
import { FieldGroup } from '../shell/components/FieldGroup';
import { sortedWorkspaces, useCurrentUser } from '../shell/useCurrentWorkspace';
import { MfaDisableDialog, MfaSetupDialog } from './MfaDialogs';
import {
  useGetSubscriptionsQuery,
  useSubscribeWeeklySummaryMutation,
  useUnsubscribeWeeklySummaryMutation,
} from './subscriptionsApi';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function PersonalSettings() {
  const dispatch = useAppDispatch();
  const user = useCurrentUser();
  const darkMode = useAppSelector(selectDarkMode);
  const firstDay = useAppSelector(selectFirstDayOfWeek);
  const [name, setName] = useState(user.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const [patchMe, { isLoading }] = usePatchMeMutation();
  // The server refuses these changes to staff acting as the user; say so instead of offering them.
  const impersonating = user.impersonatedBy !== null;

  const onSaveName = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = userNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setNameError(null);
    try {
      await patchMe({ name: parsed.data }).unwrap();
      dispatch(notificationShown('Profile updated', 'success'));
    } catch {
      dispatch(notificationShown('Failed to update your profile information', 'danger'));
    }
  };

  const onFirstDay = async (day: number) => {
    dispatch(firstDayOfWeekChanged(day));
    try {
      await patchMe({ firstDayOfWeek: day }).unwrap();
      dispatch(notificationShown('First day of week updated', 'success', LONG_NOTIFICATION_MS));
    } catch {
      dispatch(notificationShown('Failed to update your profile information', 'danger'));
    }
  };

  return (
    <Card className="or-settings-card">
      <H4>Personal settings</H4>
      {impersonating && <p className={Classes.TEXT_MUTED}>{IMPERSONATION_READ_ONLY}</p>}
      <form onSubmit={(event) => void onSaveName(event)} className="or-inline-form">
        <FieldGroup label="Name" labelFor="profile-name" error={nameError}>
          <InputGroup id="profile-name" value={name} onValueChange={setName} disabled={impersonating} />
        </FieldGroup>
        <Button type="submit" text="Save" loading={isLoading} disabled={impersonating || name === user.name} />
      </form>
      <FormGroup label="First day of week" labelFor="profile-first-day">
        <HTMLSelect
          id="profile-first-day"
          value={firstDay}
          disabled={impersonating}
          options={WEEKDAYS.map((label, value) => ({ label, value }))}
          onChange={(event) => void onFirstDay(Number(event.currentTarget.value))}
        />
      </FormGroup>
      <FormGroup label="Colour mode">
        <SegmentedControl
          aria-label="Colour mode"
          value={darkMode}
          options={[
            { label: 'System', value: 'os' },
            { label: 'Light', value: 'light' },
            { label: 'Dark', value: 'dark' },
          ]}
          onValueChange={(value) => dispatch(darkModeChanged(value as DarkMode))}
        />
      </FormGroup>
    </Card>
  );
}

function ReportingSettings() {
  const dispatch = useAppDispatch();
  const user = useCurrentUser();
  const [shown, setShown] = useState(!user.isStaff);
  const { data: subscriptions = [] } = useGetSubscriptionsQuery();
  const [subscribe] = useSubscribeWeeklySummaryMutation();
  const [unsubscribe] = useUnsubscribeWeeklySummaryMutation();

  const onToggle = async (workspaceId: number, on: boolean) => {
    const existing = subscriptions.find((item) => item.payload.workspaceId === workspaceId);
    try {
      if (on) await subscribe({ workspaceId, memberId: user.memberId }).unwrap();
      else if (existing) await unsubscribe({ id: existing.id }).unwrap();
    } catch {
      dispatch(notificationShown('Failed to update alert', 'danger'));
    }
  };

  return (
    <Card className="or-settings-card">
      <H4>Reporting settings</H4>
      {user.isStaff && (
        <p>
          {!shown && "Hidden because you're admin "}
          <Button
            size="small"
            variant="minimal"
            text={shown ? 'Hide' : 'Show'}
            onClick={() => setShown((value) => !value)}
          />
        </p>
      )}
      {shown &&
        sortedWorkspaces(user.workspaces).map((workspace) => (
          <Switch
            key={workspace.id}
            label={`Weekly summary: ${workspace.displayName}`}
            checked={subscriptions.some((item) => item.payload.workspaceId === workspace.id)}
            disabled={user.impersonatedBy !== null}
            onChange={(event) => void onToggle(workspace.id, event.currentTarget.checked)}
          />
        ))}
    </Card>
  );
}

function SecuritySettings() {
  const user = useCurrentUser();
  const [dialog, setDialog] = useState<'setup' | 'disable' | null>(null);
  return (
    <Card className="or-settings-card">
      <H4>Security</H4>
      <Switch
        label="Two-factor authentication"
        checked={user.mfaEnabled}
        disabled={user.impersonatedBy !== null}
        onChange={() => setDialog(user.mfaEnabled ? 'disable' : 'setup')}
      />
      {dialog === 'setup' && <MfaSetupDialog onClose={() => setDialog(null)} />}
      {dialog === 'disable' && <MfaDisableDialog onClose={() => setDialog(null)} />}
    </Card>
  );
}

/** settings/profile: personal, reporting and security settings (spec 1 §2.5). */
export function ProfilePage() {
  return (
    <div className="or-settings-page">
      <H3>Profile</H3>
      <PersonalSettings />
      <ReportingSettings />
      <SecuritySettings />
    </div>
  );
}
