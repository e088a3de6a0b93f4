import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface ShellState {
  /** The settings side menu's collapsed state as the user chose it (remembered). */
  settingsMenuCollapsed: boolean;
  /** Set once the session has ended and the one redirect to /login was made. */
  sessionEnded: boolean;
}

export const initialShellState: ShellState = { settingsMenuCollapsed: false, sessionEnded: false };

const shellSlice = createSlice({
  name: 'shell',
  initialState: initialShellState,
  reducers: {
    settingsMenuToggled(state) {
      state.settingsMenuCollapsed = !state.settingsMenuCollapsed;
    },
    settingsMenuCollapsedSet(state, action: PayloadAction<boolean>) {
      state.settingsMenuCollapsed = action.payload;
    },
    sessionEnded(state) {
      state.sessionEnded = true;
    },
    sessionStarted(state) {
      state.sessionEnded = false;
    },
  },
  selectors: {
    selectSettingsMenuCollapsed: (state) => state.settingsMenuCollapsed,
    selectSessionEnded: (state) => state.sessionEnded,
  },
});

export const { settingsMenuToggled, settingsMenuCollapsedSet, sessionEnded, sessionStarted } = shellSlice.actions;
export const { selectSettingsMenuCollapsed, selectSessionEnded } = shellSlice.selectors;
export const shellReducer = shellSlice.reducer;
export { shellSlice };
