import { createHash } from 'node:crypto';
import { getIconPaths } from '@blueprintjs/icons/lib/cjs/allPaths';
import { type IconName, IconNames } from '@blueprintjs/icons/lib/cjs/iconNames';
import type { Compiler } from 'webpack';

/** Blueprint's two icon grids: 16 px (the standard size) and 20 px (large). */
const SIZES = [16, 20] as const;

const iconNames = Object.values(IconNames) as IconName[];

/** Every icon's SVG paths as the JSON the browser fetches, keyed by the file name without its hash. */
function iconFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const size of SIZES) {
    for (const name of iconNames) files.set(`icons/${size}px/${name}`, JSON.stringify(getIconPaths(name, size)));
  }
  return files;
}

/**
 * One hash for the whole icon set, in every file name: the server caches hashed files for a year, and a new
 * Blueprint release (new paths) gets new names. Computed once per process.
 */
let hash: string | undefined;
export function iconPathsHash(): string {
  if (hash === undefined) {
    const digest = createHash('sha256');
    for (const [name, json] of iconFiles()) digest.update(name).update(json);
    hash = digest.digest('hex').slice(0, 16);
  }
  return hash;
}

/**
 * Writes one small JSON file per Blueprint icon and size (icons/16px/<name>.<hash>.json), which the app's icon
 * loader (src/app/icons.ts) fetches when an icon first renders. Blueprint's own loaders put all 2,000 icons of a
 * size in one chunk (~96 KiB gzipped); a webpack context import per icon would put a 4,000-entry chunk map into
 * the first load instead.
 */
export class IconPathsPlugin {
  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('IconPathsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'IconPathsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const [name, json] of iconFiles()) {
            compilation.emitAsset(`${name}.${iconPathsHash()}.json`, new sources.RawSource(json), {
              immutable: true,
            });
          }
        },
      );
    });
  }
}
