import { type Member } from '../../contracts/members';
import { filterMembers, memberActions } from '../members/memberRules';
import { nextOnboardingStep } from '../onboarding/onboardingSteps';
import { validateSignup } from '../onboarding/signupForm';
import { canDeleteWorkspace, formatBytes, logoProblem } from './generalRules';

const member = (id: number, overrides: Partial<Member> = {}): Member => ({
  id,
  name: `Person ${id}`,
  email: `p${id}@example.com`,
  role: 'member',
  mfaEnabled: false,
  lastSeen: null,
  ...overrides,
});

describe('general settings rules', () => {
  it('checks the logo size (base 1024) and type before uploading', () => {
    expect(formatBytes(2 * 1024 * 1024)).toBe('2 MB');
    expect(logoProblem({ size: 2 * 1024 * 1024 + 1, type: 'image/png' })).toBe(
      'This file is too big, please try a file smaller than 2 MB.',
    );
    expect(logoProblem({ size: 10, type: 'application/pdf' })).toBe('Unable to process this file, try another.');
    expect(logoProblem({ size: 10, type: 'image/svg+xml' })).toBeNull();
  });

  it('offers deletion only to an admin of a non-active workspace', () => {
    expect(canDeleteWorkspace({ role: 'admin', status: 'new' })).toBe(true);
    expect(canDeleteWorkspace({ role: 'admin', status: 'active' })).toBe(false);
    expect(canDeleteWorkspace({ role: 'member', status: 'new' })).toBe(false);
  });
});

describe('members rules', () => {
  it('searches name and e-mail', () => {
    const list = [member(1, { name: 'Ada' }), member(2, { email: 'bob@acme.example' })];
    expect(filterMembers(list, 'ACME').map((m) => m.id)).toEqual([2]);
    expect(filterMembers(list, ' ')).toHaveLength(2);
  });

  it('never lets admins change or remove themselves; MFA removal only when on', () => {
    expect(memberActions(member(1), { admin: true, selfId: 1 })).toEqual({
      rename: true,
      changeRole: false,
      remove: false,
      removeMfa: false,
    });
    expect(memberActions(member(2, { mfaEnabled: true }), { admin: true, selfId: 1 }).removeMfa).toBe(true);
    expect(Object.values(memberActions(member(2), { admin: false, selfId: 1 })).some(Boolean)).toBe(false);
  });
});

describe('onboarding', () => {
  it('asks for the name only when it is the e-mail, and a workspace only when there is none', () => {
    expect(nextOnboardingStep('welcome', { needsName: true, needsWorkspace: true })).toBe('name');
    expect(nextOnboardingStep('welcome', { needsName: false, needsWorkspace: true })).toBe('choice');
    expect(nextOnboardingStep('name', { needsName: true, needsWorkspace: false })).toBe('done');
    expect(nextOnboardingStep('choice', { needsName: false, needsWorkspace: true })).toBe('organisation');
  });

  it('validates the older signup form with its messages', () => {
    const result = validateSignup({ name: '', company: 'x'.repeat(31), esp: [], newsletter_opt_in: true });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Your name should contain at least 1 character',
        company: "We currently don't support more than 30 characters.",
        esp: 'To proceed, choose at least one automation tool',
      },
    });
    expect(validateSignup({ name: 'A', company: 'B', esp: ['My own tool'], newsletter_opt_in: false }).ok).toBe(true);
  });
});
