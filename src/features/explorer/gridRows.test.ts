import { type GridTree, BLOCK_SIZE, blocksOf, levelSize, locateRow, pathKey } from './gridRows';

// Top level: 5 countries; DE (row 1) expanded with 3 campaigns, of which row 2 ('Beta') has 2 weekdays; NL (row 3) 250.
const tree: GridTree = {
  counts: new Map([
    [pathKey([]), 5],
    [pathKey(['DE']), 3],
    [pathKey(['DE', 'Beta']), 2],
    [pathKey(['NL']), 250],
  ]),
  expanded: [
    { path: ['NL'], index: 3 },
    { path: ['DE'], index: 1 },
    { path: ['DE', 'Beta'], index: 2 },
  ],
};

describe('the flat rows of an expanded grid', () => {
  it('counts every shown row', () => {
    expect(levelSize(tree)).toBe(5 + 3 + 2 + 250);
    expect(levelSize({ counts: new Map(), expanded: [] })).toBe(0);
  });

  it('places children right under their group, in order', () => {
    const refs = Array.from({ length: 12 }, (_, i) => locateRow(tree, i));
    expect(refs.map((ref) => (ref ? `${ref.depth}:${ref.path.join('/')}#${ref.index}` : '-'))).toEqual([
      '0:#0',
      '0:#1',
      '1:DE#0',
      '1:DE#1',
      '1:DE#2',
      '2:DE/Beta#0',
      '2:DE/Beta#1',
      '0:#2',
      '0:#3',
      '1:NL#0',
      '1:NL#1',
      '1:NL#2',
    ]);
    expect(locateRow(tree, 9 + 250)).toEqual({ path: [], index: 4, depth: 0 });
    expect(locateRow(tree, 260)).toBeUndefined();
  });

  it('asks for the blocks of the rows shown', () => {
    expect(blocksOf(tree, 8, 9 + BLOCK_SIZE + 1)).toEqual([
      { path: [], block: 0 },
      { path: ['NL'], block: 0 },
      { path: ['NL'], block: 1 },
    ]);
  });
});
