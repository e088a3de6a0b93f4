import {
  guardPath,
  isPublicPath,
  legacyWorkspaceRedirect,
  settingsTabVisible,
  type GuardUser,
  type GuardWorkspace,
} from './guards';

const workspace = (id: number, overrides: Partial<GuardWorkspace> = {}): GuardWorkspace => ({
  id,
  name: `Workspace ${id}`,
  status: 'active',
  role: 'admin',
  agency: false,
  licenseType: 'other',
  ...overrides,
});

const admin: GuardUser = {
  isStaff: false,
  needsOnboarding: false,
  workspaces: [workspace(1), workspace(2, { role: 'member', name: 'Second' }), workspace(3, { status: 'suspended' })],
};
const member: GuardUser = { ...admin, workspaces: [workspace(2, { role: 'member' })] };
const cancelled: GuardUser = { ...admin, workspaces: [workspace(4, { status: 'cancelled' })] };
const newcomer: GuardUser = { isStaff: false, needsOnboarding: true, workspaces: [] };
const noWorkspace: GuardUser = { isStaff: false, needsOnboarding: false, workspaces: [] };
const staff: GuardUser = { ...admin, isStaff: true };

type Case = [path: string, user: GuardUser | 'signed-out' | 'loading', expected: string];

const describeResult = (result: ReturnType<typeof guardPath>) =>
  result.kind === 'redirect' ? `→ ${result.to}` : result.kind;

describe('route guards (paths × users)', () => {
  it.each<Case>([
    // Sign-in pages send signed-in users away; public pages render for everyone.
    ['/login', 'signed-out', 'render'],
    ['/login', admin, '→ /'],
    ['/login/email', admin, '→ /'],
    ['/login/email/abc', admin, '→ /'],
    ['/login/mfa', 'signed-out', 'render'],
    ['/login/error', admin, 'render'],
    ['/changes', 'signed-out', 'render'],
    ['/reports/42', 'signed-out', 'render'],
    ['/info/no-workspaces', 'signed-out', 'render'],
    ['/no/such/page', 'signed-out', 'render'],
    // Signed-in pages need a session, then the initial data.
    ['/', 'signed-out', '→ /login'],
    ['/workspaces/1/reports', 'signed-out', '→ /login'],
    ['/onboarding', 'signed-out', '→ /login'],
    ['/', 'loading', 'loading'],
    // Top-level paths go to the current workspace (2 is remembered), or to the no-workspace page.
    ['/', admin, '→ /workspaces/2'],
    ['/dashboard', admin, '→ /workspaces/2'],
    ['/reports', admin, '→ /workspaces/2/reports'],
    ['/explorer', admin, '→ /workspaces/2/reports'],
    ['/alerting', admin, '→ /workspaces/2/alerting'],
    ['/profile', admin, '→ /workspaces/2/settings/profile'],
    ['/', member, '→ /workspaces/2'],
    ['/dashboard', noWorkspace, '→ /info/no-workspaces'],
    // Onboarding: required users are sent there; others are sent away from it.
    ['/', newcomer, '→ /onboarding'],
    ['/workspaces/1', newcomer, '→ /onboarding'],
    ['/onboarding', newcomer, 'render'],
    ['/welcome', newcomer, 'render'],
    ['/onboarding', admin, '→ /dashboard'],
    ['/welcome', admin, 'render'],
    // Workspace access: unknown ids and names are 404s; names resolve to ids; blocked statuses.
    ['/workspaces/1', admin, 'render'],
    ['/workspaces/99/reports', admin, 'notFound'],
    ['/workspaces/1/reports', member, 'notFound'],
    ['/workspaces/Second/alerting', admin, '→ /workspaces/2/alerting'],
    ['/workspaces/3/reports', admin, 'suspended'],
    ['/workspaces/4', cancelled, 'cancelled'],
    // Legacy paths.
    ['/workspaces/1/reporting/dashboard', admin, '→ /workspaces/1/reports'],
    ['/workspaces/1/dashboard', admin, '→ /workspaces/1/reports'],
    ['/workspaces/1/dashboard/7', admin, '→ /workspaces/1/reports'],
    ['/workspaces/1/explorer', admin, '→ /workspaces/1/reports'],
    ['/workspaces/1/explorer/x/y', admin, '→ /workspaces/1/reports'],
    ['/workspaces/1/engaged', admin, '→ /workspaces/1/engagement'],
    // Settings: the index is general; data model needs admin and the flag; admin/workspaces needs staff.
    ['/workspaces/1/settings', admin, '→ /workspaces/1/settings/general'],
    ['/workspaces/1/settings/', admin, '→ /workspaces/1/settings/general'],
    ['/workspaces/1/settings/profile', admin, 'render'],
    ['/workspaces/2/settings/members', admin, 'render'],
    ['/workspaces/1/settings/data-model', admin, 'render'],
    ['/workspaces/2/settings/data-model', admin, '→ /'],
    ['/workspaces/1/settings/admin/workspaces', admin, '→ /'],
    ['/workspaces/1/settings/admin/workspaces', staff, 'render'],
  ])('%s as %p: %s', (path, user, expected) => {
    const result = guardPath(path, {
      authenticated: user !== 'signed-out',
      user: typeof user === 'object' ? user : undefined,
      currentWorkspaceId: 2,
      workspaceFlags: ['campaigns_graph'],
    });
    expect(describeResult(result)).toBe(expected);
  });

  it('keeps the data-model page waiting for the flags, and sends admins away without campaigns_graph', () => {
    const context = { authenticated: true, user: admin, currentWorkspaceId: 1 };
    expect(guardPath('/workspaces/1/settings/data-model', context).kind).toBe('loading');
    expect(guardPath('/workspaces/1/settings/data-model', { ...context, workspaceFlags: [] })).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('uses the first workspace when the remembered one is gone', () => {
    expect(guardPath('/', { authenticated: true, user: admin, currentWorkspaceId: 77 })).toEqual({
      kind: 'redirect',
      to: '/workspaces/1',
    });
  });

  it.each([
    ['/login', false],
    ['/workspaces/1', false],
    ['/', false],
    ['/changes', true],
    ['/status', true],
    ['/anything/else', true],
  ])('%s is public: %p', (path, expected) => expect(isPublicPath(path)).toBe(expected));

  it.each([
    ['/engaged/x', null],
    ['/reports', null],
    ['/explorer', '/reports'],
  ])('legacy %s → %p', (rest, expected) => expect(legacyWorkspaceRedirect(rest)).toBe(expected));
});

describe('settings menu visibility (spec 1 §2.6)', () => {
  const visible = (user: GuardUser, target: GuardWorkspace, flags: string[] = []) =>
    (['profile', 'general', 'members', 'integrations', 'data-model', 'agency', 'admin'] as const).filter((tab) =>
      settingsTabVisible(tab, { user, workspace: target, flags }),
    );

  it('shows a member only the profile', () => {
    expect(visible(member, workspace(2, { role: 'member' }))).toEqual(['profile']);
  });

  it('shows an admin the workspace tabs, the data model only with campaigns_graph', () => {
    expect(visible(admin, workspace(1))).toEqual(['profile', 'general', 'members', 'integrations']);
    expect(visible(admin, workspace(1), ['campaigns_graph'])).toContain('data-model');
  });

  it('shows agency to every member of an agency-licence workspace and admin/workspaces to staff', () => {
    expect(visible(member, workspace(5, { role: 'member', licenseType: 'agency' }))).toEqual(['profile', 'agency']);
    expect(visible(staff, workspace(1))).toContain('admin');
  });
});
