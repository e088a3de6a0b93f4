import { type Me } from '../src/contracts/me';

type WorkspaceOfMe = Me['workspaces'][number];

/**
 * A signed-in user as `GET /api/me` answers, with one active workspace ('Shop', en_GB). Tests override only
 * what they are about, e.g. `meFixture({ email: 'ada@example.com' }, { role: 'admin' })`.
 */
export function meFixture(overrides: Partial<Me> = {}, workspace: Partial<WorkspaceOfMe> = {}): Me {
  return {
    memberId: 7,
    email: 'mia@example.com',
    name: 'Mia',
    workspaces: [
      {
        id: 3,
        name: 'Shop',
        displayName: 'Shop',
        status: 'active',
        role: 'member',
        agency: false,
        licenseId: null,
        licenseType: null,
        licenseHolder: null,
        logo: null,
        locale: 'en_GB',
        createdAt: '2026-01-01T00:00:00Z',
        features: [],
        activationRequested: false,
        ...workspace,
      },
    ],
    onboardingRequired: false,
    mfaEnabled: false,
    isStaff: false,
    needsName: false,
    needsWorkspace: false,
    needsOnboarding: false,
    firstDayOfWeek: 1,
    showGettingStarted: false,
    impersonatedBy: null,
    ...overrides,
  };
}
