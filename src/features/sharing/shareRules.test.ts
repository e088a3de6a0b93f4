import { type Member } from '../../contracts/members';
import { type AccessLevel, type Permission, type SubjectType } from '../../contracts/reports';
import {
  entryChange,
  levelChoicesFor,
  levelLabel,
  matchingPeople,
  memberGrant,
  peopleToShareWith,
  publicLinkChange,
  publicLinkUrl,
  SHARE_LEVEL_DESCRIPTIONS,
  shareDisabled,
  shareEntries,
  shareLevelOf,
  shareTargetOf,
} from './shareRules';

const report = { type: 'dashboard' as const, id: 42 };

function permission(
  id: number,
  subjectType: SubjectType,
  subjectId: number | null,
  subjectName: string,
  accessLevel: AccessLevel,
): Permission {
  return {
    id,
    subjectId,
    subjectType,
    subjectName,
    objectId: report.id,
    objectType: report.type,
    accessLevel,
    createdAt: '2026-11-01T00:00:00.000Z',
    modifiedAt: '2026-11-01T00:00:00.000Z',
  };
}

const member = (id: number, name: string, email = `${name.toLowerCase()}@example.com`): Member => ({
  id,
  name,
  email,
  role: 'member',
  mfaEnabled: false,
  lastSeen: null,
});

const YOU = 7;
const everyone = permission(5, 'workspace', null, 'Everyone in the workspace', 'read');
const zoe = permission(3, 'user', 9, 'Zoe', 'read');
const anna = permission(4, 'user', 8, 'Anna', 'read_write');
const me = permission(1, 'user', YOU, 'Mia', 'full_access');
const link = permission(6, 'public', null, 'Public link', 'read');

describe('the sharing list (spec 2 §6)', () => {
  it('puts the current user first with (You), others by name, and the workspace last', () => {
    const rows = shareEntries([everyone, zoe, link, anna, me], YOU, true);
    expect(rows.map((row) => row.name)).toEqual(['Mia (You)', 'Anna', 'Zoe', 'Everyone in the workspace']);
    expect(rows.map((row) => row.level)).toEqual(['full_access', 'read_write', 'read', 'read']);
  });

  it('lists the workspace with no access when it has no entry, so it can be granted', () => {
    const rows = shareEntries([me], YOU, true);
    expect(rows.at(-1)).toMatchObject({ name: 'Everyone in the workspace', level: 'none', permission: null });
    expect(levelLabel(rows.at(-1)!.level)).toBe('No access');
  });

  it('never lets the viewer change their own level, and nothing without share permission', () => {
    expect(shareEntries([me, anna, everyone], YOU, true).map((row) => row.editable)).toEqual([false, true, true]);
    expect(shareEntries([me, anna, everyone], YOU, false).map((row) => row.editable)).toEqual([false, false, false]);
  });

  it('offers the three levels with their labels, then remove (members) or no access (workspace)', () => {
    const [, annaRow, workspaceRow] = shareEntries([me, anna, everyone], YOU, true);
    expect(levelChoicesFor(annaRow).map((choice) => `${choice.label}: ${choice.description}`)).toEqual([
      'Full access: Can make changes and share',
      'Can edit: Can make changes, but not share',
      'Can view: Cannot edit or share',
      'Remove: Take away their access',
    ]);
    expect(levelChoicesFor(workspaceRow).map((choice) => [choice.label, choice.level])).toEqual([
      ['Full access', 'full_access'],
      ['Can edit', 'read_write'],
      ['Can view', 'read'],
      ['No access', 'none'],
    ]);
  });
});

describe('share level sentences (spec 2 §6 Share levels)', () => {
  it.each([
    ['Only you can access this report', [me]],
    ['Only selected people can access this report', [me, anna]],
    ['Anyone within this workspace can access this report', [me, everyone]],
    ['Anyone on the internet with the link can access this report', [me, everyone, link]],
  ])('%s', (sentence, permissions) => {
    expect(SHARE_LEVEL_DESCRIPTIONS[shareLevelOf(permissions)]).toBe(sentence);
  });
});

describe('the people picker', () => {
  const members = [member(YOU, 'Mia'), member(8, 'Anna'), member(10, 'bert'), member(11, 'Carla', 'cb@shop.nl')];

  it('offers the members not yet listed, by name, never the viewer', () => {
    expect(peopleToShareWith(members, [me, anna, everyone], YOU).map((m) => m.name)).toEqual(['bert', 'Carla']);
  });

  it('offers nobody once everyone is listed (the empty message shows then)', () => {
    const all = [me, anna, permission(12, 'user', 10, 'bert', 'read'), permission(13, 'user', 11, 'Carla', 'read')];
    expect(peopleToShareWith(members, all, YOU)).toEqual([]);
  });

  it('searches names and e-mails', () => {
    const people = peopleToShareWith(members, [me], YOU);
    expect(matchingPeople(people, ' SHOP ').map((m) => m.name)).toEqual(['Carla']);
    expect(matchingPeople(people, 'an').map((m) => m.name)).toEqual(['Anna']);
    expect(matchingPeople(people, '')).toHaveLength(3);
  });

  it('disables Share with nobody chosen or while sharing (spec 2 §5)', () => {
    expect(shareDisabled([], false)).toBe(true);
    expect(shareDisabled([8], true)).toBe(true);
    expect(shareDisabled([8], false)).toBe(false);
  });

  it('grants a chosen member the chosen level', () => {
    expect(memberGrant(10, 'read', report)).toEqual({
      body: { accessLevel: 'read', subjectType: 'user', subjectId: 10, objectId: 42, objectType: 'dashboard' },
    });
  });
});

describe('changing an entry (spec 2 §4 Sharing)', () => {
  const [, annaRow, workspaceRow] = shareEntries([me, anna], YOU, true);

  it('updates an existing entry by its id', () => {
    expect(entryChange(annaRow, 'read', report)).toEqual({
      permissionId: 4,
      body: { accessLevel: 'read', subjectType: 'user', subjectId: 8, objectId: 42, objectType: 'dashboard' },
    });
  });

  it('removes a member with level none on their entry (the call deletes it)', () => {
    expect(entryChange(annaRow, 'none', report)).toMatchObject({ permissionId: 4, body: { accessLevel: 'none' } });
  });

  it('creates the workspace entry by subject, and does nothing for an unchanged level', () => {
    expect(entryChange(workspaceRow, 'read', report)).toEqual({
      permissionId: undefined,
      body: { accessLevel: 'read', subjectType: 'workspace', subjectId: null, objectId: 42, objectType: 'dashboard' },
    });
    expect(entryChange(workspaceRow, 'none', report)).toBeNull();
    expect(entryChange(annaRow, 'read_write', report)).toBeNull();
  });
});

describe('the public link', () => {
  it('sets read when switched on and none (by its id) when switched off', () => {
    expect(publicLinkChange([me], true, report)).toEqual({
      permissionId: undefined,
      body: { accessLevel: 'read', subjectType: 'public', subjectId: null, objectId: 42, objectType: 'dashboard' },
    });
    expect(publicLinkChange([me, link], false, report)).toMatchObject({
      permissionId: 6,
      body: { accessLevel: 'none' },
    });
    expect(publicLinkChange([me, link], true, report)).toBeNull();
    expect(publicLinkChange([me], false, report)).toBeNull();
  });

  it('points at the signed-out report page', () => {
    expect(publicLinkUrl('https://app.openrate.test', 42)).toBe('https://app.openrate.test/reports/42');
  });
});

describe('the drawer URL parameters', () => {
  it('name a report by type and id', () => {
    expect(shareTargetOf('dashboard', '42')).toEqual(report);
    expect(shareTargetOf('explorer_view', '7')).toEqual({ type: 'explorer_view', id: 7 });
  });

  it.each([
    ['workspace', '42'],
    [null, '42'],
    ['dashboard', null],
    ['dashboard', '0'],
    ['dashboard', '4x'],
    ['dashboard', '99999999999'],
  ])('refuse %s %s', (type, id) => {
    expect(shareTargetOf(type, id)).toBeNull();
  });
});
