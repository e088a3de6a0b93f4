import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { type Workspace } from '../../contracts/workspaces';

export interface WorkspacesState {
  /** The workspace the user last worked in, kept across visits. */
  currentWorkspaceId: number | null;
  /** Workspaces whose demo activation this browser has requested (spec 1 §3, stored locally). */
  activationRequested: number[];
}

export const initialWorkspacesState: WorkspacesState = { currentWorkspaceId: null, activationRequested: [] };

const workspacesSlice = createSlice({
  name: 'workspaces',
  initialState: initialWorkspacesState,
  reducers: {
    currentWorkspaceChanged(state, action: PayloadAction<number>) {
      state.currentWorkspaceId = action.payload;
    },
    /**
     * After sign-in the stored workspace stays if it is still one of the user's, else the first one is
     * used, or none when the user has no workspace (spec 1 §4).
     */
    workspacesLoaded(state, action: PayloadAction<Pick<Workspace, 'id'>[]>) {
      const ids = action.payload.map((workspace) => workspace.id);
      if (state.currentWorkspaceId === null || !ids.includes(state.currentWorkspaceId)) {
        state.currentWorkspaceId = ids[0] ?? null;
      }
    },
    activationRequested(state, action: PayloadAction<number>) {
      if (!state.activationRequested.includes(action.payload)) state.activationRequested.push(action.payload);
    },
  },
  selectors: {
    selectCurrentWorkspaceId: (state) => state.currentWorkspaceId,
    selectActivationRequested: (state, workspaceId: number) => state.activationRequested.includes(workspaceId),
  },
});

export const { currentWorkspaceChanged, workspacesLoaded, activationRequested } = workspacesSlice.actions;
export const { selectCurrentWorkspaceId, selectActivationRequested } = workspacesSlice.selectors;
export const workspacesReducer = workspacesSlice.reducer;
export { workspacesSlice };
