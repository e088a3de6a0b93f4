/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type Me } from '../../contracts/me';
import { type Invitation, type Member, MFA_OTHER_WORKSPACES, STAFF_NOT_INVITABLE } from '../../contracts/members';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { MembersPage } from './MembersPage';

const WS = 3;
const ME = 7;

const me: Me = meFixture({ memberId: ME, email: 'ada@example.com', name: 'Ada' }, { id: WS, role: 'admin' });

const members: Member[] = [
  { id: ME, name: 'Ada', email: 'ada@example.com', role: 'admin', mfaEnabled: false, lastSeen: null },
  { id: 9, name: 'Sam', email: 'sam@example.com', role: 'member', mfaEnabled: true, lastSeen: null },
];
const invitation = (id: number, email: string, expired = false): Invitation => ({
  id,
  email,
  role: 'member',
  invitedAt: '2026-11-01T00:00:00.000Z',
  expiresAt: '2026-11-08T00:00:00.000Z',
  expired,
});

let network: ReturnType<typeof stubNetwork>;
afterEach(() => network.restore());

async function setup() {
  let invitations = [invitation(20, 'new@example.com'), invitation(21, 'late@example.com', true)];
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname === `/api/workspaces/${WS}/members`) {
      return json({ data: members, invitations });
    }
    if (request.method === 'DELETE' && pathname === `/api/workspaces/${WS}/members/9/mfa`) {
      return json({ error: MFA_OTHER_WORKSPACES }, 403);
    }
    if (request.method === 'DELETE' && pathname === `/api/workspaces/${WS}/invitations/20`) {
      invitations = invitations.filter((item) => item.id !== 20);
      return json({ ok: true });
    }
    if (request.method === 'POST' && pathname === `/api/workspaces/${WS}/members`) {
      return json({ error: STAFF_NOT_INVITABLE }, 400);
    }
    return json({ error: 'Not found' }, 404);
  });
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, me));
  renderWithProviders(
    <Routes>
      <Route path="/workspaces/:workspaceId/settings/members" element={<MembersPage />} />
    </Routes>,
    { store, route: `/workspaces/${WS}/settings/members` },
  );
  await screen.findByTestId('invitation-new@example.com');
  return store;
}

const messages = (store: ReturnType<typeof setupStore>) =>
  store.getState().notifications.items.map((item) => item.message);

describe('MembersPage', () => {
  it('lists pending invitations by address only, marked invited or expired', async () => {
    await setup();
    const pending = screen.getByTestId('invitation-new@example.com');
    expect(within(pending).getByText('Invited')).toBeTruthy();
    expect(pending.textContent).not.toMatch(/Enabled|Disabled|Never/);
    expect(within(screen.getByTestId('invitation-late@example.com')).getByText('Invitation expired')).toBeTruthy();
    expect(within(screen.getByTestId('member-sam@example.com')).getByText('Enabled')).toBeTruthy();
  });

  it('withdraws an invitation from its row menu', async () => {
    const store = await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for invitation of new@example.com' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Withdraw invitation' }));
    await waitFor(() => expect(screen.queryByTestId('invitation-new@example.com')).toBeNull());
    expect(messages(store)).toContain('Invitation for new@example.com withdrawn');
  });

  it("shows the server's reason when removing a member's MFA is refused", async () => {
    const store = await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for sam@example.com' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Remove MFA' }));
    await waitFor(() => expect(messages(store)).toContain(MFA_OTHER_WORKSPACES));
  });

  it("shows the server's reason when an invite is refused", async () => {
    const store = await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'support@openrate.app' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(messages(store)).toContain(STAFF_NOT_INVITABLE));
  });
});
