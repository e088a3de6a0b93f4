import { startAppListening } from '../../store/listeners';
import { initialShellState, settingsMenuToggled, type ShellState } from '../shell/shellSlice';
import {
  activationRequested,
  currentWorkspaceChanged,
  initialWorkspacesState,
  workspacesLoaded,
  type WorkspacesState,
} from './workspacesSlice';

/** The current workspace id is kept under two keys (spec 1 §3): the app's own and the legacy one. */
export const CURRENT_WORKSPACE_KEYS = ['currentWorkspaceId', 'workspace_id'] as const;
export const ACTIVATION_REQUESTED_KEY = 'activationRequested';
export const SETTINGS_MENU_COLLAPSED_KEY = 'settingsMenuCollapsed';

function readId(value: string | null): number | null {
  const id = Number(value ?? NaN);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function loadWorkspacesState(storage: Pick<Storage, 'getItem'>): WorkspacesState {
  const currentWorkspaceId =
    CURRENT_WORKSPACE_KEYS.map((key) => readId(storage.getItem(key))).find((id) => id !== null) ?? null;
  let requested: number[] = [];
  try {
    const parsed: unknown = JSON.parse(storage.getItem(ACTIVATION_REQUESTED_KEY) ?? '[]');
    if (Array.isArray(parsed)) requested = parsed.filter((id): id is number => Number.isInteger(id));
  } catch {
    // An unreadable value means nothing was requested.
  }
  return { ...initialWorkspacesState, currentWorkspaceId, activationRequested: requested };
}

export function loadShellState(storage: Pick<Storage, 'getItem'>): ShellState {
  return { ...initialShellState, settingsMenuCollapsed: storage.getItem(SETTINGS_MENU_COLLAPSED_KEY) === 'true' };
}

/** Writes the remembered workspace and shell choices back to storage; returns the function that stops it. */
export function persistWorkspaces(storage: Pick<Storage, 'setItem' | 'removeItem'>): () => void {
  const stops = [
    startAppListening({
      matcher: (action) => currentWorkspaceChanged.match(action) || workspacesLoaded.match(action),
      effect: (_action, api) => {
        const id = api.getState().workspaces.currentWorkspaceId;
        for (const key of CURRENT_WORKSPACE_KEYS) {
          if (id === null) storage.removeItem(key);
          else storage.setItem(key, String(id));
        }
      },
    }),
    startAppListening({
      actionCreator: activationRequested,
      effect: (_action, api) =>
        storage.setItem(ACTIVATION_REQUESTED_KEY, JSON.stringify(api.getState().workspaces.activationRequested)),
    }),
    startAppListening({
      // Auto-collapsing on a small screen is not the user's choice, so only the toggle is remembered.
      actionCreator: settingsMenuToggled,
      effect: (_action, api) =>
        storage.setItem(SETTINGS_MENU_COLLAPSED_KEY, String(api.getState().shell.settingsMenuCollapsed)),
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
