/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type Member } from '../../contracts/members';
import { type WorkspaceSummary } from '../../contracts/workspaces';
import { Notifications } from '../notifications/Notifications';
import { AdminWorkspacesPage } from './AdminWorkspacesPage';

const STAFF_REFUSED = 'Product-staff accounts cannot be impersonated.';

const workspace = (id: number, name: string): WorkspaceSummary => ({
  id,
  name,
  status: 'active',
  locale: 'en_GB',
  licenseId: null,
  licenseHolder: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  memberCount: 2,
});
const member = (id: number, email: string): Member => ({
  id,
  name: email.split('@')[0],
  email,
  role: 'member',
  mfaEnabled: false,
  lastSeen: null,
});

let network: ReturnType<typeof stubNetwork>;
/** Whom the page asked the server to impersonate. */
let impersonated: unknown[] = [];
afterEach(() => {
  network.restore();
  impersonated = [];
});

/** The admin API as the server answers staff: two workspaces, Acme's members, staff accounts refused. */
function stubAdminApi() {
  network = stubNetwork(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/admin/workspaces') return json({ data: [workspace(1, 'Acme'), workspace(2, 'Globex')] });
    if (url.pathname === '/api/admin/workspaces/1/members') {
      return json({ data: [member(11, 'ann@acme.test'), member(12, 'help@openrate.app')] });
    }
    if (url.pathname === '/api/admin/impersonate') {
      const body = (await request.json()) as { userId: number };
      impersonated.push(body);
      return body.userId === 12 ? json({ error: STAFF_REFUSED }, 400) : json({ error: 'Not found' }, 404);
    }
    return json({ error: 'Not found' }, 404);
  });
}

test("picking a workspace lists its members, and 'Impersonate' asks the server to act as that member", async () => {
  stubAdminApi();
  renderWithProviders(
    <>
      <AdminWorkspacesPage />
      <Notifications />
    </>,
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Acme' }));
  const members = await screen.findByRole('region', { name: 'Members of Acme' });
  expect(
    within(members)
      .getAllByRole('row')
      .map((row) => row.textContent),
  ).toEqual(['NameEmailRole', 'annann@acme.testmemberImpersonate', 'helphelp@openrate.appmemberImpersonate']);

  // The server refuses staff accounts: its reason is shown, and no session is started.
  fireEvent.click(within(members).getByRole('button', { name: 'Impersonate help@openrate.app' }));
  expect(await screen.findByText(STAFF_REFUSED)).toBeTruthy();
  expect(impersonated).toEqual([{ userId: 12 }]);
});

test('no members are listed until a workspace is picked', async () => {
  stubAdminApi();
  renderWithProviders(<AdminWorkspacesPage />);
  expect(await screen.findByRole('button', { name: 'Globex' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /^Impersonate/ })).toBeNull();
  expect(network.calls.map((call) => new URL(call.url).pathname)).toEqual(['/api/admin/workspaces']);
});
