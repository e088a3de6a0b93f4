/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type Integration, INTEGRATION_ERRORS } from '../../contracts/integrations';
import { renderIntegrations } from './testing/renderIntegrations';

const WS = 3;
let network: ReturnType<typeof stubNetwork>;
afterEach(() => network.restore());

/** `listHeld`: the list's answers wait for it once an integration is enabled (a slow refresh). */
async function setup(role: 'admin' | 'member', route: string, initial: Integration[] = [], listHeld?: Promise<void>) {
  let integrations = initial;
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    const base = `/api/workspaces/${WS}/integrations`;
    if (request.method === 'GET' && pathname === base) {
      if (listHeld && integrations.length > 0) await listHeld;
      return json({ data: integrations });
    }
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
    if (pathname === `${base}/copernica/8/databases`)
      return json({ data: [{ id: '1', name: 'Subscribers', has_children: true }] });
    if (pathname === `${base}/copernica/8/databases/1/views`) {
      return json({ data: [{ id: '11', name: 'Active', has_children: true }] });
    }
    if (pathname === `${base}/copernica/8/views/11/views`) {
      return json({ data: [{ id: '111', name: 'Netherlands', has_children: false }] });
    }
    if (pathname === `${base}/copernica/8/tracked-views`) {
      if (request.method === 'GET') return json({ data: [] });
      return json({ data: ((await request.json()) as { views: unknown[] }).views });
    }
    if (request.method === 'POST' && pathname === `${base}/mailplus`) {
      const body = (await request.json()) as { consumer_key: string; consumer_secret: string };
      if (body.consumer_secret !== 'good') return json({ error: INTEGRATION_ERRORS.mailplus }, 400);
      integrations = [{ id: 6, type: 'mailplus', name: 'Mail+', units: [{ id: 'c1', name: 'Welcome journey' }] }];
      return json({ data: integrations[0] }, 201);
    }
    if (request.method === 'DELETE' && pathname === `${base}/5`) {
      integrations = [];
      return json({ ok: true });
    }
    return json({ error: 'Not found' }, 404);
  });
  return renderIntegrations(WS, role, route);
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
    const mailplus = screen.getByRole('region', { name: 'Mail+' });
    expect(within(mailplus).getByText('New')).toBeTruthy();
    expect(within(mailplus).getByRole('button', { name: 'Connect' }).hasAttribute('disabled')).toBe(false);
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
    // Every enable and connect carries a key of its own, so a retried request is answered, not repeated.
    const writes = network.calls.filter((call) => call.method !== 'GET');
    const keys = writes.map((call) => call.headers.get('Idempotency-Key'));
    expect(writes.map((call) => call.method)).toEqual(['POST', 'PUT', 'PUT']);
    expect(keys.every((key) => key !== null && /^[0-9a-f]{32}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('connects Klaviyo on a retry before the list shows the integration the refused key enabled', async () => {
    let releaseList: () => void = () => undefined;
    await setup('admin', '/klaviyo', [], new Promise<void>((resolve) => (releaseList = resolve)));
    fireEvent.change(await screen.findByLabelText('Private API key'), { target: { value: 'bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(INTEGRATION_ERRORS.klaviyo)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Private API key'), { target: { value: 'good' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(network.calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    releaseList();
    expect(await screen.findByText('Active')).toBeTruthy();
    // Enabled once: the retry connected the integration the first attempt made.
    expect(network.calls.filter((call) => call.method !== 'GET').map((call) => call.method)).toEqual([
      'POST',
      'PUT',
      'PUT',
    ]);
  });

  it('connects Mail+: both fields are required with the spec messages, a refused secret names Mail+', async () => {
    await setup('admin', '/mailplus');
    fireEvent.click(await screen.findByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Please provide a consumer key')).toBeTruthy();
    expect(screen.getByText('Please provide a consumer secret')).toBeTruthy();
    expect(network.calls.filter((call) => call.method === 'POST')).toEqual([]);

    fireEvent.change(screen.getByLabelText('Consumer key'), { target: { value: 'key' } });
    fireEvent.change(screen.getByLabelText('Consumer secret'), { target: { value: 'bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(INTEGRATION_ERRORS.mailplus)).toBeTruthy();
    expect(screen.queryByText('Please provide a consumer key')).toBeNull();

    fireEvent.change(screen.getByLabelText('Consumer secret'), { target: { value: 'good' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Welcome journey')).toBeTruthy();
    expect(screen.getByText('Active')).toBeTruthy();
  });

  it('removes an integration only after confirmation', async () => {
    await setup('admin', '', [{ id: 5, type: 'klaviyo', name: 'Klaviyo', units: [{ id: 'A', name: 'Acme Shop' }] }]);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(network.calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No integrations have been enabled yet.')).toBeTruthy();
  });

  it('picks Copernica views in the tree, renames one and saves the selection', async () => {
    const copernica: Integration = {
      id: 8,
      type: 'copernica',
      name: 'Copernica',
      units: [{ id: '4711', name: 'Acme' }],
    };
    const { store } = await setup('admin', '/copernica', [copernica]);
    fireEvent.click(await screen.findByRole('button', { name: 'Expand Subscribers' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Expand Active' }));
    fireEvent.click(await screen.findByLabelText('Netherlands'));
    fireEvent.click(screen.getByLabelText('Active'));
    fireEvent.change(screen.getByLabelText('Name of tracked view 111'), { target: { value: 'NL subscribers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(store.getState().notifications.items.map((item) => item.message)).toContain(
        'Copernica tracked-view imports run nightly, so changes show the next day',
      ),
    );
    const put = network.calls.find((call) => call.method === 'PUT');
    expect(put?.url).toContain('/copernica/8/tracked-views');
    expect(screen.getByLabelText<HTMLInputElement>('Name of tracked view 111').value).toBe('NL subscribers');
    expect(screen.getByLabelText<HTMLInputElement>('Name of tracked view 11').value).toBe('Active');
  });

  it('shows a placeholder for an unknown type', async () => {
    await setup('admin', '/nope');
    expect(await screen.findByText('Unknown integration')).toBeTruthy();
  });
});
