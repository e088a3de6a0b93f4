import { type IconName, type IconPaths, type IconPathsLoader, Icons, IconSize } from '@blueprintjs/icons';
import logIn from '@blueprintjs/icons/lib/esm/generated/16px/paths/log-in';

/**
 * The 16 px icon of the sign-in page: in the first load, so it is drawn with the first paint rather than popping in
 * after a request. The workspace shell's come with its chunk (src/app/shellIcons.ts).
 */
export const firstPaintIcons: Partial<Record<IconName, IconPaths>> = { 'log-in': logIn };

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

/** Registers icons whose paths a chunk carries, so that they draw on its first render; resolves at once. */
export async function registerIcons(icons: Partial<Record<IconName, IconPaths>>): Promise<void> {
  const names = Object.keys(icons) as IconName[];
  await Icons.load(names, IconSize.STANDARD, { loader: async (name) => icons[name] ?? [] });
}

/**
 * Every icon the app draws by name loads on its own, when first shown; the first screen's icons are registered
 * from the bundle. Resolves once those are in place (no network involved), so the first render has them.
 */
export async function setupIcons(loader: IconPathsLoader): Promise<void> {
  Icons.setLoaderOptions({ loader });
  await registerIcons(firstPaintIcons);
}
