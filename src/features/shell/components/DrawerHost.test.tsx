/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../../test/stubNetwork';
import { type Me } from '../../../contracts/me';
import { type Workspace } from '../../../contracts/workspaces';
import { DrawerHost } from './DrawerHost';

const newUser = { memberId: 7, name: 'Mia', showGettingStarted: true } as unknown as Me;
const workspace = { id: 3, name: 'Shop', role: 'member', status: 'active' } as unknown as Workspace;

let network: ReturnType<typeof stubNetwork>;
const patches: unknown[] = [];
beforeEach(() => {
  patches.length = 0;
  network = stubNetwork(async (request) => {
    if (request.url.endsWith('/api/me') && request.method === 'PATCH') {
      patches.push(await request.json());
      // The dismissal is still being saved while the user looks at the page.
      return new Promise<Response>(() => undefined);
    }
    return json({ error: 'Not found' }, 404);
  });
});
afterEach(() => network.restore());

const gettingStarted = () => screen.queryByRole('heading', { name: 'Getting started' });

test('getting started opened by the URL (a reload) stays closed once closed, while the dismissal is saving', async () => {
  renderWithProviders(<DrawerHost user={newUser} workspace={workspace} />, {
    route: '/workspaces/3/reports?drawer.type=getting-started',
  });
  const heading = await screen.findByRole('heading', { name: 'Getting started' });
  const drawer = heading.closest('.bp6-drawer') as HTMLElement;
  fireEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(patches).toEqual([{ showGettingStarted: false }]));
  await waitFor(() => expect(gettingStarted()).toBeNull());
  // Before the fix the auto-open effect saw the flag still set and opened the drawer again at once.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(gettingStarted()).toBeNull();
});

test('getting started opens by itself once for a user who has not dismissed it', async () => {
  renderWithProviders(<DrawerHost user={newUser} workspace={workspace} />, { route: '/workspaces/3/reports' });
  expect(await screen.findByRole('heading', { name: 'Getting started' })).toBeTruthy();
});
