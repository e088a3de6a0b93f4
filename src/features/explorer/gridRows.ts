/** The values of the expanded groups above a level; [] is the top level. */
export type GroupPath = (string | null)[];

/** Rows per server request: the grid asks for the blocks it shows, never for every row. */
export const BLOCK_SIZE = 100;

export const pathKey = (path: GroupPath): string => JSON.stringify(path);

/** An expanded group: its path (parent path plus its value) and its row index in the parent level. */
export interface ExpandedGroup {
  path: GroupPath;
  index: number;
}

/** The grid's tree as far as it is known: row counts per level and the expanded groups. */
export interface GridTree {
  counts: ReadonlyMap<string, number>;
  expanded: readonly ExpandedGroup[];
}

/** One flat grid row: the level it belongs to, its index there and its depth (for indentation). */
export interface RowRef {
  path: GroupPath;
  index: number;
  depth: number;
}

const isChildOf = (child: GroupPath, parent: GroupPath) =>
  child.length === parent.length + 1 && parent.every((value, i) => child[i] === value);

function childrenOf(tree: GridTree, path: GroupPath): ExpandedGroup[] {
  return tree.expanded.filter((group) => isChildOf(group.path, path)).sort((a, b) => a.index - b.index);
}

/** Rows a level shows, its expanded groups' rows included; a level still counting shows none. */
export function levelSize(tree: GridTree, path: GroupPath = []): number {
  const own = tree.counts.get(pathKey(path)) ?? 0;
  return childrenOf(tree, path).reduce((total, child) => total + levelSize(tree, child.path), own);
}

/** The level row drawn at flat position `flat`, walking the expanded groups in order. */
export function locateRow(tree: GridTree, flat: number, path: GroupPath = [], depth = 0): RowRef | undefined {
  let position = 0;
  let row = 0;
  for (const child of childrenOf(tree, path)) {
    const direct = child.index - row + 1;
    if (flat < position + direct) return { path, index: row + flat - position, depth };
    position += direct;
    row = child.index + 1;
    const size = levelSize(tree, child.path);
    if (flat < position + size) return locateRow(tree, flat - position, child.path, depth + 1);
    position += size;
  }
  const rest = (tree.counts.get(pathKey(path)) ?? 0) - row;
  return flat - position < rest ? { path, index: row + flat - position, depth } : undefined;
}

/** The blocks (level and block number) that hold the flat rows first..last. */
export function blocksOf(tree: GridTree, first: number, last: number): { path: GroupPath; block: number }[] {
  const seen = new Map<string, { path: GroupPath; block: number }>();
  for (let flat = Math.max(0, first); flat <= last; flat++) {
    const ref = locateRow(tree, flat);
    if (!ref) break;
    const block = Math.floor(ref.index / BLOCK_SIZE);
    seen.set(`${pathKey(ref.path)}#${block}`, { path: ref.path, block });
  }
  return [...seen.values()];
}
