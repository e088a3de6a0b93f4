import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Colour mode as stored locally (spec 1 §3): 'os' follows the operating system. */
export type DarkMode = 'light' | 'dark' | 'os';
export type WeekStart = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface PrefsState {
  darkMode: DarkMode;
  /** 0 = Sunday … 6 = Saturday; default Monday. */
  firstDayOfWeek: WeekStart;
  /** Whether the operating system currently asks for a dark theme (read live from a media query). */
  systemPrefersDark: boolean;
}

export const initialPrefsState: PrefsState = {
  darkMode: 'light',
  firstDayOfWeek: 1,
  systemPrefersDark: false,
};

const prefsSlice = createSlice({
  name: 'prefs',
  initialState: initialPrefsState,
  reducers: {
    darkModeChanged(state, action: PayloadAction<DarkMode>) {
      state.darkMode = action.payload;
    },
    firstDayOfWeekChanged(state, action: PayloadAction<number>) {
      const day = action.payload;
      if (Number.isInteger(day) && day >= 0 && day <= 6) state.firstDayOfWeek = day as WeekStart;
    },
    systemColorSchemeChanged(state, action: PayloadAction<boolean>) {
      state.systemPrefersDark = action.payload;
    },
  },
  selectors: {
    selectDarkMode: (state) => state.darkMode,
    selectFirstDayOfWeek: (state) => state.firstDayOfWeek,
    /** The theme actually shown: the chosen mode, or the system's when the choice is 'os'. */
    selectIsDarkTheme: (state) => state.darkMode === 'dark' || (state.darkMode === 'os' && state.systemPrefersDark),
  },
});

export const { darkModeChanged, firstDayOfWeekChanged, systemColorSchemeChanged } = prefsSlice.actions;
export const { selectDarkMode, selectFirstDayOfWeek, selectIsDarkTheme } = prefsSlice.selectors;
export const prefsReducer = prefsSlice.reducer;
export { prefsSlice };
