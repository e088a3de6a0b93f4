import { type Role, type WorkspaceStatus } from '../contracts/common';

/** What the guards need to know of the signed-in user (a subset of GET /api/me). */
export interface GuardUser {
  isStaff: boolean;
  needsOnboarding: boolean;
  workspaces: GuardWorkspace[];
}

export interface GuardWorkspace {
  id: number;
  name: string;
  status: WorkspaceStatus;
  role: Role;
  agency: boolean;
  licenseType: 'agency' | 'other' | null;
}

export interface GuardContext {
  authenticated: boolean;
  /** Undefined while the initial data is still loading. */
  user?: GuardUser;
  currentWorkspaceId: number | null;
  /** The current workspace's feature flags, when known. */
  workspaceFlags?: readonly string[];
}

export type GuardResult =
  | { kind: 'render' }
  | { kind: 'redirect'; to: string }
  | { kind: 'loading' }
  | { kind: 'notFound' }
  | { kind: 'suspended' }
  | { kind: 'cancelled' };

const render: GuardResult = { kind: 'render' };
const redirect = (to: string): GuardResult => ({ kind: 'redirect', to });

/** Sign-in pages that send a signed-in user away (spec 1 §2.1). */
const LOGIN_PAGE = /^\/login(\/email(\/[^/]+)?|\/mfa)?\/?$/;
/** Pages anyone may open, signed in or not. */
const PUBLIC_PAGE =
  /^\/(login\/error|error|logout|impersonate\/exit|registration-error|changes|status|info\/no-workspaces|reports\/[^/]+)\/?$/;
/** Top-level paths and their workspace equivalents (spec 1 §2.2). */
const TOP_LEVEL: Record<string, string> = {
  '/': '',
  '/dashboard': '',
  '/reports': '/reports',
  '/explorer': '/reports',
  '/alerting': '/alerting',
  '/profile': '/settings/profile',
};
const ONBOARDING_PAGE = /^\/(onboarding|welcome)\/?$/;
const WORKSPACE_PATH = /^\/workspaces\/([^/]+)(\/.*)?$/;

const isSignedInPath = (path: string) => path in TOP_LEVEL || ONBOARDING_PAGE.test(path) || WORKSPACE_PATH.test(path);

/** Legacy workspace sub-paths (spec 1 §2.2): reporting/dashboard, dashboard, explorer (and below) and engaged. */
export function legacyWorkspaceRedirect(rest: string): string | null {
  if (/^\/(reporting\/dashboard|dashboard|explorer)(\/.*)?$/.test(rest)) return '/reports';
  if (/^\/engaged\/?$/.test(rest)) return '/engagement';
  return null;
}

/** The workspace a path names, by id or by name, among the user's (spec 1 §2.2: anything else is a 404). */
export function findWorkspace<W extends GuardWorkspace>(workspaces: readonly W[], param: string): W | undefined {
  const decoded = safeDecode(param);
  return (
    workspaces.find((workspace) => String(workspace.id) === decoded) ??
    workspaces.find((workspace) => workspace.name === decoded)
  );
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export type SettingsTab = 'profile' | 'general' | 'members' | 'integrations' | 'data-model' | 'agency' | 'admin';

/** Visibility of the settings side-menu entries (spec 1 §2.6). */
export function settingsTabVisible(
  tab: SettingsTab,
  { user, workspace, flags }: { user: GuardUser; workspace: GuardWorkspace; flags: readonly string[] },
): boolean {
  const admin = workspace.role === 'admin';
  switch (tab) {
    case 'profile':
      return true;
    case 'general':
    case 'members':
    case 'integrations':
      return admin;
    case 'data-model':
      return admin && flags.includes('campaigns_graph');
    case 'agency':
      return workspace.licenseType === 'agency';
    case 'admin':
      // The server sets isStaff only for staff e-mails on the product's own domain, never while impersonating.
      return user.isStaff;
  }
}

/**
 * Decides, for one path, whether to render it, send the browser elsewhere, or show a blocking page.
 * Highest priority first: sign-in, onboarding, top-level and legacy redirects, workspace access, admin-only pages.
 */
export function guardPath(pathname: string, context: GuardContext): GuardResult {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (LOGIN_PAGE.test(path)) return context.authenticated ? redirect('/') : render;
  if (PUBLIC_PAGE.test(path)) return render;
  if (!isSignedInPath(path)) return render;
  if (!context.authenticated) return redirect('/login');
  const { user } = context;
  if (!user) return { kind: 'loading' };

  if (ONBOARDING_PAGE.test(path)) {
    return path === '/onboarding' && !user.needsOnboarding ? redirect('/dashboard') : render;
  }
  if (user.needsOnboarding) return redirect('/onboarding');

  if (path in TOP_LEVEL) {
    const current =
      user.workspaces.find((workspace) => workspace.id === context.currentWorkspaceId) ?? user.workspaces[0];
    if (!current) return redirect('/info/no-workspaces');
    return redirect(`/workspaces/${current.id}${TOP_LEVEL[path]}`);
  }

  const [, param, rest = ''] = WORKSPACE_PATH.exec(path) ?? [];
  const workspace = findWorkspace(user.workspaces, param);
  if (!workspace) return { kind: 'notFound' };
  if (String(workspace.id) !== param) return redirect(`/workspaces/${workspace.id}${rest}`);
  const legacy = legacyWorkspaceRedirect(rest);
  if (legacy) return redirect(`/workspaces/${workspace.id}${legacy}`);
  if (workspace.status === 'suspended') return { kind: 'suspended' };
  if (workspace.status === 'cancelled') return { kind: 'cancelled' };
  if (rest === '/settings') return redirect(`/workspaces/${workspace.id}/settings/general`);

  if (rest.startsWith('/settings/data-model')) {
    if (workspace.role !== 'admin') return redirect('/');
    if (context.workspaceFlags === undefined) return { kind: 'loading' };
    if (!context.workspaceFlags.includes('campaigns_graph')) return redirect('/');
  }
  if (rest.startsWith('/settings/admin/workspaces')) {
    if (!settingsTabVisible('admin', { user, workspace, flags: [] })) return redirect('/');
  }
  return render;
}

/** Pages that render without the session or the initial data. */
export function isPublicPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (LOGIN_PAGE.test(path)) return false;
  return PUBLIC_PAGE.test(path) || !isSignedInPath(path);
}
