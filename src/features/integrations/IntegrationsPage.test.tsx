/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type Integration, INTEGRATION_ERRORS } from '../../contracts/integrations';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { IntegrationDetailPage } from './IntegrationDetailPage';
import { IntegrationsPage } from './IntegrationsPage';

const WS = 3;
let network: ReturnType<typeof stubNetwork>;
afterEach(() => network.restore());

async function setup(role: 'admin' | 'member', route: string, initial: Integration[] = []) {
  let integrations = initial;
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    const base = `/api/workspaces/${WS}/integrations`;
    if (request.method === 'GET' && pathname === base) return json({ data: integrations });
    if (request.method === 'POST' && pathname === `${base}/klaviyo`) {
      integrations = [{ id: 5, type: 'klaviyo', name: 'Klaviyo', units: [] }];
      return json({ data: integrations[0] }, 201);
    }
    if (request.method === 'PUT' && pathname === `${base}/klaviyo/5/connect`) {
      const { api_key: key } = (await request.json()) as { api_key: string };
      if (key !== 'good') return json({ error: INTEGRATION_ERRORS.klaviyo }, 400);
      integrations = [{ id: 5, type: 'klaviyo', name: 'Klaviyo', units: [{ id: 'A', name: 'Acme Shop' }] }];
      return json({ data: integrations[0] });
    }
    if (request.method === 'DELETE' && pathname === `${base}/5`) {
      integrations = [];
      return json({ ok: true });
    }
    return json({ error: 'Not found' }, 404);
  });
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, meFixture({}, { id: WS, role })));
  return renderWithProviders(
    <Routes>
      <Route path="/workspaces/:workspaceId/settings/integrations" element={<IntegrationsPage />} />
      <Route
        path="/workspaces/:workspaceId/settings/integrations/:integrationType"
        element={<IntegrationDetailPage />}
      />
    </Routes>,
    { store, route: `/workspaces/${WS}/settings/integrations${route}` },
  );
}

describe('Integrations', () => {
  it('tells a member to ask an administrator', async () => {
    await setup('member', '');
    expect(
      screen.getByText(
        'Insufficient privileges - Please ask an administrator to make changes to the integrations of this workspace.',
      ),
    ).toBeTruthy();
  });

  it('shows the empty Enabled list and the Available cards, custom ones with the contact message', async () => {
    await setup('admin', '');
    expect(await screen.findByText('No integrations have been enabled yet.')).toBeTruthy();
    const mailpro = screen.getByRole('region', { name: 'Spotler MailPro' });
    expect(within(mailpro).getByRole('button', { name: 'Connect' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Iterable' })).getByText('New')).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Braze' })).getByText(
        'Please contact the provider to setup Braze for your workspace',
      ),
    ).toBeTruthy();
  });

  it('connects Klaviyo: a bad key shows the spec message, a good one makes it Active', async () => {
    await setup('admin', '/klaviyo');
    const key = await screen.findByLabelText('Private API key');
    fireEvent.change(key, { target: { value: 'bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(INTEGRATION_ERRORS.klaviyo)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Private API key'), { target: { value: 'good' } });
    fireEvent.click(screen.getByRole('button', { name: /Connect|Update credentials/ }));
    expect(await screen.findByText('Active')).toBeTruthy();
    expect(screen.getByText('Acme Shop')).toBeTruthy();
  });

  it('removes an integration only after confirmation', async () => {
    await setup('admin', '', [{ id: 5, type: 'klaviyo', name: 'Klaviyo', units: [{ id: 'A', name: 'Acme Shop' }] }]);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(network.calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No integrations have been enabled yet.')).toBeTruthy();
  });

  it('shows a placeholder for an unknown type', async () => {
    await setup('admin', '/nope');
    expect(await screen.findByText('Unknown integration')).toBeTruthy();
  });
});
