import {
  initialShellState,
  sessionEnded,
  sessionStarted,
  settingsMenuCollapsedSet,
  settingsMenuToggled,
  shellReducer,
} from '../shell/shellSlice';
import { loadShellState, loadWorkspacesState } from './localPersistence';
import {
  activationRequested,
  currentWorkspaceChanged,
  initialWorkspacesState,
  workspacesLoaded,
  workspacesReducer,
} from './workspacesSlice';

const storage = (values: Record<string, string>) => ({ getItem: (key: string) => values[key] ?? null });

describe('current workspace', () => {
  it('stays after sign-in while it is still one of the user’s, else the first one is used', () => {
    const stored = workspacesReducer(initialWorkspacesState, currentWorkspaceChanged(3));
    expect(workspacesReducer(stored, workspacesLoaded([{ id: 1 }, { id: 3 }])).currentWorkspaceId).toBe(3);
    expect(workspacesReducer(stored, workspacesLoaded([{ id: 1 }, { id: 2 }])).currentWorkspaceId).toBe(1);
    expect(workspacesReducer(stored, workspacesLoaded([])).currentWorkspaceId).toBeNull();
  });

  it('remembers demo activation requests per workspace, once each', () => {
    let state = workspacesReducer(initialWorkspacesState, activationRequested(4));
    state = workspacesReducer(state, activationRequested(4));
    expect(state.activationRequested).toEqual([4]);
  });

  it('reads the stored workspace from either key and ignores garbage', () => {
    expect(loadWorkspacesState(storage({ currentWorkspaceId: '5' })).currentWorkspaceId).toBe(5);
    expect(loadWorkspacesState(storage({ workspace_id: '6' })).currentWorkspaceId).toBe(6);
    expect(loadWorkspacesState(storage({ currentWorkspaceId: 'abc', activationRequested: '{' }))).toEqual(
      initialWorkspacesState,
    );
    expect(loadWorkspacesState(storage({ activationRequested: '[2,"x",3]' })).activationRequested).toEqual([2, 3]);
  });
});

describe('shell', () => {
  it('toggles and remembers the settings menu, and tracks the session ending', () => {
    let state = shellReducer(initialShellState, settingsMenuToggled());
    expect(state.settingsMenuCollapsed).toBe(true);
    state = shellReducer(state, settingsMenuCollapsedSet(false));
    expect(state.settingsMenuCollapsed).toBe(false);
    state = shellReducer(state, sessionEnded());
    expect(state.sessionEnded).toBe(true);
    expect(shellReducer(state, sessionStarted()).sessionEnded).toBe(false);
    expect(loadShellState(storage({ settingsMenuCollapsed: 'true' })).settingsMenuCollapsed).toBe(true);
  });
});
