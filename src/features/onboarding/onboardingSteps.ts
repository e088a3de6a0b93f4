import { type Me } from '../../contracts/me';

export type OnboardingStep = 'welcome' | 'name' | 'choice' | 'organisation';

/** The step after `from`: the name only when it is still the e-mail, the workspace only when there is none. */
export function nextOnboardingStep(
  from: OnboardingStep,
  user: Pick<Me, 'needsName' | 'needsWorkspace'>,
): OnboardingStep | 'done' {
  if (from === 'welcome' && user.needsName) return 'name';
  if ((from === 'welcome' || from === 'name') && user.needsWorkspace) return 'choice';
  if (from === 'choice') return 'organisation';
  return 'done';
}
