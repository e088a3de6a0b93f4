import { Classes } from '@blueprintjs/core';
import { useEffect } from 'react';
import { selectIsDarkTheme, systemColorSchemeChanged } from '../features/prefs/prefsSlice';
import { useAppDispatch, useAppSelector } from '../store/hooks';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * Applies Blueprint's dark theme to the whole document (portals included) and keeps the
 * operating system's preference in the store, live, for the 'System' colour mode.
 */
export function ThemeSync() {
  const dispatch = useAppDispatch();
  const isDark = useAppSelector(selectIsDarkTheme);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const query = window.matchMedia(DARK_QUERY);
    dispatch(systemColorSchemeChanged(query.matches));
    const onChange = (event: MediaQueryListEvent) => dispatch(systemColorSchemeChanged(event.matches));
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [dispatch]);

  useEffect(() => {
    document.body.classList.toggle(Classes.DARK, isDark);
    document.documentElement.style.colorScheme = isDark ? 'dark' : 'light';
  }, [isDark]);

  return null;
}
