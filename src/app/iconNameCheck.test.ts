import { IconNames as blueprintIconNames } from '@blueprintjs/icons';
import { IconNames, IconNamesSet } from './iconNameCheck';

it("accepts every name of Blueprint's icon set", () => {
  const names = Object.values(blueprintIconNames);
  expect(names.length).toBeGreaterThan(500);
  expect(names.filter((name) => !IconNamesSet.has(name))).toEqual([]);
});

it("refuses what is not an icon's name, so a name is never more than one segment of the icon file's URL", () => {
  for (const notAName of ['', '../index', 'log-in/../../api', 'Log-In', 'log_in', 'log-in.json', '-', 'a--b', 'a-']) {
    expect(IconNamesSet.has(notAName)).toBe(false);
  }
  expect(IconNamesSet.has(undefined as unknown as string)).toBe(false);
});

it('fails loudly where the whole list would be read (Icons.loadAll)', () => {
  expect(() => Object.values(IconNames)).toThrow(/Icons.loadAll is not available/);
});
