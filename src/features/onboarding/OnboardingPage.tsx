import { Button, Callout, InputGroup, Radio, RadioGroup } from '@blueprintjs/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { userNameSchema } from '../../contracts/me';
import { workspaceNameSchema } from '../../contracts/workspaces';
import { useAppDispatch } from '../../store/hooks';
import { useGetMeQuery, usePatchMeMutation } from '../auth/authApi';
import { AuthLayout } from '../auth/components/AuthLayout';
import { notificationShown } from '../notifications/notificationsSlice';
import { limitMessage } from '../session/apiErrors';
import { FieldGroup } from '../shell/components/FieldGroup';
import { useCreateWorkspaceMutation } from '../workspaces/workspacesApi';
import { nextOnboardingStep, type OnboardingStep } from './onboardingSteps';

/** Spec 1 §9: the Get started button appears after 1 s. */
export const WELCOME_BUTTON_DELAY_MS = 1_000;

function firstIssue(schema: typeof userNameSchema, value: string): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/**
 * /onboarding: welcome, name, create or join a workspace, the organisation's name.
 * Long because it is one wizard over the state its steps share (name, choice, organisation); to be split per step.
 */
export function OnboardingPage() {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const { data: user, refetch } = useGetMeQuery();
  const [step, setStep] = useState<OnboardingStep>('welcome');
  const [showStart, setShowStart] = useState(false);
  const [name, setName] = useState('');
  const [choice, setChoice] = useState<'create' | 'join'>('create');
  const [organisation, setOrganisation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [patchMe, { isLoading: savingName }] = usePatchMeMutation();
  const [createWorkspace, { isLoading: creating }] = useCreateWorkspaceMutation();

  useEffect(() => {
    const timer = window.setTimeout(() => setShowStart(true), WELCOME_BUTTON_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (!user) return null;
  const go = (from: OnboardingStep) => {
    setError(null);
    const next = nextOnboardingStep(from, user);
    if (next === 'done') navigate('/dashboard', { replace: true });
    else setStep(next);
  };

  const onName = async (event: FormEvent) => {
    event.preventDefault();
    const issue = firstIssue(userNameSchema, name);
    if (issue) {
      setError(issue);
      return;
    }
    try {
      await patchMe({ name: name.trim() }).unwrap();
      if (user.needsWorkspace) go('name');
      else navigate('/dashboard', { replace: true });
    } catch {
      setError('Failed to update your profile information');
    }
  };

  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    const issue = firstIssue(workspaceNameSchema, organisation);
    if (issue) {
      setError(issue);
      return;
    }
    try {
      const { id } = await createWorkspace({ name: organisation.trim() }).unwrap();
      await refetch();
      dispatch(notificationShown('Successfully created workspace', 'success'));
      navigate(`/workspaces/${id}`, { replace: true });
    } catch (failure) {
      setError(limitMessage(failure) ?? 'Failed to create workspace');
    }
  };

  switch (step) {
    case 'welcome':
      return (
        <AuthLayout title="Welcome to Openrate">
          <p>Let’s set up your account. It takes less than a minute.</p>
          {showStart && <Button intent="primary" size="large" fill text="Get started" onClick={() => go('welcome')} />}
        </AuthLayout>
      );
    case 'name':
      return (
        <AuthLayout title="What is your name?">
          <form onSubmit={(event) => void onName(event)}>
            <FieldGroup label="Your name" labelFor="onboarding-name" error={error}>
              <InputGroup id="onboarding-name" size="large" autoFocus value={name} onValueChange={setName} />
            </FieldGroup>
            <Button type="submit" intent="primary" size="large" fill loading={savingName} text="Continue" />
          </form>
        </AuthLayout>
      );
    case 'choice':
      return (
        <AuthLayout title="Your workspace">
          <RadioGroup
            selectedValue={choice}
            onChange={(event) => setChoice(event.currentTarget.value as 'create' | 'join')}
          >
            <Radio value="create" label="Create new workspace" />
            <Radio value="join" label="Join existing team" />
          </RadioGroup>
          {choice === 'join' ? (
            <Callout intent="primary">
              Ask a team member to invite you to their workspace. Invitations go to <strong>{user.email}</strong>.
            </Callout>
          ) : (
            <Button intent="primary" size="large" fill text="Continue" onClick={() => setStep('organisation')} />
          )}
        </AuthLayout>
      );
    case 'organisation':
      return (
        <AuthLayout title="Create new workspace">
          <form onSubmit={(event) => void onCreate(event)}>
            <FieldGroup label="Organization name" labelFor="onboarding-organisation" error={error}>
              <InputGroup
                id="onboarding-organisation"
                size="large"
                autoFocus
                value={organisation}
                onValueChange={setOrganisation}
              />
            </FieldGroup>
            <Button type="submit" intent="primary" size="large" fill loading={creating} text="Create workspace" />
          </form>
        </AuthLayout>
      );
  }
}
