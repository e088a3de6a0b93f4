import { type IconName, type IconPaths, type IconPathsLoader, Icons, IconSize } from '@blueprintjs/icons';
import caretDown from '@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down';
import chat from '@blueprintjs/icons/lib/esm/generated/16px/paths/chat';
import cog from '@blueprintjs/icons/lib/esm/generated/16px/paths/cog';
import cross from '@blueprintjs/icons/lib/esm/generated/16px/paths/cross';
import dashboard from '@blueprintjs/icons/lib/esm/generated/16px/paths/dashboard';
import help from '@blueprintjs/icons/lib/esm/generated/16px/paths/help';
import home from '@blueprintjs/icons/lib/esm/generated/16px/paths/home';
import locate from '@blueprintjs/icons/lib/esm/generated/16px/paths/locate';
import logIn from '@blueprintjs/icons/lib/esm/generated/16px/paths/log-in';
import notifications from '@blueprintjs/icons/lib/esm/generated/16px/paths/notifications';
import people from '@blueprintjs/icons/lib/esm/generated/16px/paths/people';
import plus from '@blueprintjs/icons/lib/esm/generated/16px/paths/plus';

/**
 * The 16 px icons of the sign-in page and of the workspace shell (sidebar, tab strip, workspace switcher,
 * feedback): in the first load (about 3 KiB gzipped), so they are drawn with the first paint rather than
 * popping in after a request.
 */
export const firstPaintIcons: Partial<Record<IconName, IconPaths>> = {
  'log-in': logIn,
  dashboard,
  notifications,
  locate,
  people,
  help,
  cog,
  chat,
  home,
  cross,
  plus,
  'caret-down': caretDown,
};

/**
 * Loads one icon's paths from the files the build writes, one per icon and size (scripts/iconPaths.ts), instead
 * of Blueprint's default of all ~2,000 icons of a size in one chunk. `hash` names the build's icon set.
 */
export function fetchIconPaths(hash: string, fetchFn: typeof fetch = fetch): IconPathsLoader {
  return async (name, size) => {
    const response = await fetchFn(`/icons/${size}px/${name}.${hash}.json`);
    if (!response.ok) throw new Error(`Icon ${name} (${size} px): HTTP ${response.status}`);
    return (await response.json()) as IconPaths;
  };
}

/**
 * Every icon the app draws by name loads on its own, when first shown; the first screen's icons are registered
 * from the bundle. Resolves once those are in place (no network involved), so the first render has them.
 */
export async function setupIcons(loader: IconPathsLoader): Promise<void> {
  Icons.setLoaderOptions({ loader });
  const bundled = Object.keys(firstPaintIcons) as IconName[];
  await Icons.load(bundled, IconSize.STANDARD, { loader: async (name) => firstPaintIcons[name] ?? [] });
}
