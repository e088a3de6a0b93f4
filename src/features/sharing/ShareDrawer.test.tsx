/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type Member } from '../../contracts/members';
import { type AccessLevel, type Permission, type PermissionBody } from '../../contracts/reports';
import { ShareDrawerBody } from './ShareDrawer';

const WORKSPACE = 3;
const REPORT = 42;
const YOU = 7;

const member = (id: number, name: string): Member => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.com`,
  role: 'member',
  mfaEnabled: false,
  lastSeen: null,
});
const members = [member(YOU, 'Mia'), member(8, 'Anna'), member(10, 'Bert')];

const report = (accessLevel: AccessLevel) => ({
  id: REPORT,
  workspace_id: WORKSPACE,
  type: 'dashboard',
  title: 'Weekly results',
  dataset: null,
  config: { widgets: [] },
  version: 1,
  owner: { id: YOU, name: 'Mia' },
  created_at: '2026-11-01T00:00:00.000Z',
  created_by: { id: YOU, name: 'Mia' },
  modified_at: '2026-11-01T00:00:00.000Z',
  modified_by: { id: YOU, name: 'Mia' },
  last_opened_at: null,
  access_level: accessLevel,
  share_level: 'user',
});

/**
 * A small permissions server: it keeps the entries and applies PUT and DELETE as the real one does, or
 * refuses every change with `refuse`.
 */
function fakeServer({ accessLevel = 'full_access', refuse }: { accessLevel?: AccessLevel; refuse?: string } = {}) {
  let nextId = 10;
  let entries: Permission[] = [];
  const add = (subjectType: Permission['subjectType'], subjectId: number | null, level: AccessLevel) => {
    const name = subjectType === 'user' ? members.find((m) => m.id === subjectId)!.name : subjectType;
    entries.push({
      id: nextId++,
      subjectId,
      subjectType,
      subjectName: name,
      objectId: REPORT,
      objectType: 'dashboard',
      accessLevel: level,
      createdAt: '2026-11-01T00:00:00.000Z',
      modifiedAt: '2026-11-01T00:00:00.000Z',
    });
  };
  add('user', YOU, accessLevel);
  add('user', 8, 'read_write');
  const changes: { method: string; path: string; body: PermissionBody | null }[] = [];
  const network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET') {
      if (pathname === `/api/workspaces/${WORKSPACE}/reports/dashboard/${REPORT}`) {
        return json({ data: report(accessLevel) });
      }
      if (pathname === `/api/workspaces/${WORKSPACE}/permissions`) return json({ data: entries });
      if (pathname === `/api/workspaces/${WORKSPACE}/members`) return json({ data: members });
      return json({ error: 'Not found' }, 404);
    }
    const body = request.method === 'PUT' ? ((await request.json()) as PermissionBody) : null;
    changes.push({ method: request.method, path: pathname, body });
    if (refuse) return json({ error: refuse }, 400);
    const byId = /\/permissions\/(\d+)$/.exec(pathname);
    if (request.method === 'DELETE' && byId) {
      entries = entries.filter((entry) => entry.id !== Number(byId[1]));
    } else if (body) {
      const same = entries.find(
        (entry) => entry.subjectType === body.subjectType && entry.subjectId === (body.subjectId ?? null),
      );
      if (body.accessLevel === 'none') entries = entries.filter((entry) => entry !== same);
      else if (same) same.accessLevel = body.accessLevel;
      else add(body.subjectType, body.subjectId ?? null, body.accessLevel);
    }
    return json({ data: entries });
  });
  return { network, changes };
}

const renderDrawer = () =>
  renderWithProviders(
    <ShareDrawerBody workspaceId={WORKSPACE} objectType="dashboard" objectId={String(REPORT)} currentUserId={YOU} />,
  );

const listed = () =>
  within(screen.getByRole('region', { name: 'People with access' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('the share drawer (spec 2 §6)', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  it('lists you first and the workspace last, and shares with a chosen member', async () => {
    const server = fakeServer();
    restore = server.network.restore;
    renderDrawer();
    expect(await screen.findByText('Only selected people can access this report')).toBeTruthy();
    expect(listed()).toEqual(['Mia (You)Full access', 'AnnaCan edit', 'Everyone in the workspaceNo access']);
    // Your own level is not a picker; the others' are.
    expect(screen.queryByRole('button', { name: 'Access of Mia (You)' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Access of Anna' })).toBeTruthy();

    const share = await screen.findByRole('button', { name: 'Share' });
    expect(share.hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /Bert/ }));
    expect(share.hasAttribute('disabled')).toBe(false);
    fireEvent.click(share);

    await waitFor(() => expect(listed()).toContain('BertCan view'));
    expect(server.changes).toEqual([
      {
        method: 'PUT',
        path: `/api/workspaces/${WORKSPACE}/permissions`,
        body: { accessLevel: 'read', subjectType: 'user', subjectId: 10, objectId: REPORT, objectType: 'dashboard' },
      },
    ]);
    expect(screen.getByText('There are no other people in this workspace to share this view with.')).toBeTruthy();
  });

  it('removes a member through the level picker (a delete of the entry)', async () => {
    const server = fakeServer();
    restore = server.network.restore;
    renderDrawer();
    fireEvent.click(await screen.findByRole('button', { name: 'Access of Anna' }));
    expect(screen.getByText('Can make changes, but not share')).toBeTruthy();
    fireEvent.click(screen.getByText('Remove'));
    await waitFor(() => expect(listed()).toEqual(['Mia (You)Full access', 'Everyone in the workspaceNo access']));
    expect(server.changes.map((change) => `${change.method} ${change.path}`)).toEqual([
      `DELETE /api/workspaces/${WORKSPACE}/permissions/11`,
    ]);
    expect(screen.getByText('Only you can access this report')).toBeTruthy();
  });

  it('turns the public link on (read) with its address, and off again', async () => {
    const server = fakeServer();
    restore = server.network.restore;
    renderDrawer();
    const toggle = await screen.findByRole('switch', { name: 'Public link' });
    expect(screen.queryByRole('textbox', { name: 'Public link address' })).toBeNull();
    fireEvent.click(toggle);
    const address = await screen.findByRole('textbox', { name: 'Public link address' });
    expect((address as HTMLInputElement).value).toBe(`${window.location.origin}/reports/${REPORT}`);
    expect(screen.getByText('Anyone on the internet with the link can access this report')).toBeTruthy();
    expect(server.changes[0].body).toEqual({
      accessLevel: 'read',
      subjectType: 'public',
      subjectId: null,
      objectId: REPORT,
      objectType: 'dashboard',
    });

    fireEvent.click(screen.getByRole('switch', { name: 'Public link' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Public link address' })).toBeNull());
    expect(server.changes[1]).toMatchObject({ method: 'DELETE', path: `/api/workspaces/${WORKSPACE}/permissions/12` });
  });

  it('shows a refused share and keeps the choice for another try', async () => {
    const server = fakeServer({ refuse: 'Unknown user' });
    restore = server.network.restore;
    renderDrawer();
    fireEvent.click(await screen.findByRole('checkbox', { name: /Bert/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Unknown user');
    expect((screen.getByRole('checkbox', { name: /Bert/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Share' }).hasAttribute('disabled')).toBe(false);
    expect(listed()).toEqual(['Mia (You)Full access', 'AnnaCan edit', 'Everyone in the workspaceNo access']);
  });

  it('is read-only without share access', async () => {
    const server = fakeServer({ accessLevel: 'read_write' });
    restore = server.network.restore;
    renderDrawer();
    expect(await screen.findByText("It looks like you don't have the necessary permissions")).toBeTruthy();
    expect(listed()).toEqual(['Mia (You)Can edit', 'AnnaCan edit', 'Everyone in the workspaceNo access']);
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Access of Anna' })).toBeNull();
    expect(screen.getByRole('switch', { name: 'Public link' }).hasAttribute('disabled')).toBe(true);
    expect(server.network.calls.some((call) => call.url.endsWith('/members'))).toBe(false);
  });

  it('says so when the report cannot be seen at all', async () => {
    const network = stubNetwork(() => json({ error: 'Not found' }, 404));
    restore = network.restore;
    renderDrawer();
    expect(await screen.findByText("It looks like you don't have the necessary permissions")).toBeTruthy();
  });

  it('answers View not found for a drawer URL that names no report', () => {
    renderWithProviders(
      <ShareDrawerBody workspaceId={WORKSPACE} objectType="workspace" objectId="x" currentUserId={YOU} />,
    );
    expect(screen.getByText('View not found')).toBeTruthy();
  });
});
