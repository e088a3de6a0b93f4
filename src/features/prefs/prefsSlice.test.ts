import { loadPrefs } from './prefsPersistence';
import {
  darkModeChanged,
  firstDayOfWeekChanged,
  initialPrefsState,
  prefsReducer,
  selectIsDarkTheme,
  systemColorSchemeChanged,
  type PrefsState,
} from './prefsSlice';

const reduce = (...actions: Parameters<typeof prefsReducer>[1][]) => actions.reduce(prefsReducer, initialPrefsState);
const isDark = (prefs: PrefsState) => selectIsDarkTheme({ prefs });

describe('prefs', () => {
  it('starts light with Monday as the first day of the week', () => {
    expect(prefsReducer(undefined, { type: 'init' })).toEqual({
      darkMode: 'light',
      firstDayOfWeek: 1,
      systemPrefersDark: false,
    });
    expect(isDark(initialPrefsState)).toBe(false);
  });

  it.each([
    ['light', false, false],
    ['light', true, false],
    ['dark', false, true],
    ['os', false, false],
    ['os', true, true],
  ] as const)('colour mode %s with the system dark=%s shows dark=%s', (mode, systemDark, expected) => {
    expect(isDark(reduce(darkModeChanged(mode), systemColorSchemeChanged(systemDark)))).toBe(expected);
  });

  it('follows the system live while the mode is System', () => {
    const os = reduce(darkModeChanged('os'));
    expect(isDark(os)).toBe(false);
    expect(isDark(prefsReducer(os, systemColorSchemeChanged(true)))).toBe(true);
  });

  it('accepts days 0 to 6 and ignores anything else', () => {
    expect(reduce(firstDayOfWeekChanged(0)).firstDayOfWeek).toBe(0);
    expect(reduce(firstDayOfWeekChanged(6)).firstDayOfWeek).toBe(6);
    expect(reduce(firstDayOfWeekChanged(7)).firstDayOfWeek).toBe(1);
    expect(reduce(firstDayOfWeekChanged(1.5)).firstDayOfWeek).toBe(1);
  });

  it('reads stored preferences and falls back to defaults for unreadable values', () => {
    const storage = (values: Record<string, string>) => ({ getItem: (key: string) => values[key] ?? null });
    expect(loadPrefs(storage({ darkMode: 'dark', first_day_of_week: '0' }))).toMatchObject({
      darkMode: 'dark',
      firstDayOfWeek: 0,
    });
    expect(loadPrefs(storage({ darkMode: 'purple', first_day_of_week: '9' }))).toMatchObject({
      darkMode: 'light',
      firstDayOfWeek: 1,
    });
    expect(loadPrefs(storage({}))).toMatchObject({ darkMode: 'light', firstDayOfWeek: 1 });
  });
});
