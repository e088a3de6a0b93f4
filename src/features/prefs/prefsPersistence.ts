import { startAppListening } from '../../store/listeners';
import {
  darkModeChanged,
  firstDayOfWeekChanged,
  initialPrefsState,
  type DarkMode,
  type PrefsState,
} from './prefsSlice';

/** localStorage keys of spec 1 §3 (local preferences). */
export const DARK_MODE_KEY = 'darkMode';
export const FIRST_DAY_OF_WEEK_KEY = 'first_day_of_week';

const DARK_MODES: readonly DarkMode[] = ['light', 'dark', 'os'];

/** Reads the stored preferences; anything unreadable falls back to the default. */
export function loadPrefs(storage: Pick<Storage, 'getItem'>): PrefsState {
  const storedMode = storage.getItem(DARK_MODE_KEY);
  const storedDay = Number(storage.getItem(FIRST_DAY_OF_WEEK_KEY) ?? NaN);
  return {
    ...initialPrefsState,
    darkMode: DARK_MODES.includes(storedMode as DarkMode) ? (storedMode as DarkMode) : initialPrefsState.darkMode,
    firstDayOfWeek:
      Number.isInteger(storedDay) && storedDay >= 0 && storedDay <= 6
        ? (storedDay as PrefsState['firstDayOfWeek'])
        : initialPrefsState.firstDayOfWeek,
  };
}

/** Writes preference changes back to storage; returns the function that stops it. */
export function persistPrefs(storage: Pick<Storage, 'setItem'>): () => void {
  const stopDarkMode = startAppListening({
    actionCreator: darkModeChanged,
    effect: (_action, api) => storage.setItem(DARK_MODE_KEY, api.getState().prefs.darkMode),
  });
  const stopWeek = startAppListening({
    actionCreator: firstDayOfWeekChanged,
    effect: (_action, api) => storage.setItem(FIRST_DAY_OF_WEEK_KEY, String(api.getState().prefs.firstDayOfWeek)),
  });
  return () => {
    stopDarkMode();
    stopWeek();
  };
}
