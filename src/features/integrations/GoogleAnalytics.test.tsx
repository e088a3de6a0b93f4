/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, within } from '@testing-library/react';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type GaAvailableView, type Integration, INTEGRATION_ERRORS } from '../../contracts/integrations';
import { renderIntegrations } from './testing/renderIntegrations';

const WS = 4;
const base = `/api/workspaces/${WS}/integrations`;
const view = (id: string, name: string): GaAvailableView => ({
  id,
  name,
  account_name: 'Acme GA',
  propertyName: name,
  viewName: name,
});
const PROPERTIES = [view('250001', 'Shop NL'), view('250002', 'Shop UK')];

let network: ReturnType<typeof stubNetwork>;
afterEach(() => network.restore());

/** A GA server: `accounts` granted to the service account, `enable` answering `enableError` when set. */
async function setup(options: { accounts?: number; properties?: GaAvailableView[]; enableError?: string } = {}) {
  const { accounts = 1, properties = PROPERTIES, enableError } = options;
  let integration: Integration | null = null;
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname === base) return json({ data: integration ? [integration] : [] });
    if (request.method === 'POST' && pathname === `${base}/google-analytics`) {
      if (enableError) return json({ error: enableError }, 400);
      integration = { id: 9, type: 'google_analytics', name: 'Google Analytics', units: [] };
      return json({ data: integration }, 201);
    }
    if (!integration) return json({ error: 'Not found' }, 404);
    const current = integration;
    if (pathname === `${base}/google-analytics/available`) {
      const added = new Set(current.units.map((unit) => unit.id));
      return json({
        data: properties.filter((property) => !added.has(property.id)),
        accounts,
        connection: { type: 'service_account', account: 'openrate@project.iam.gserviceaccount.com' },
      });
    }
    if (request.method === 'POST' && pathname === `${base}/google-analytics/properties`) {
      const body = (await request.json()) as { property_id: string; market: string | null };
      const property = properties.find((candidate) => candidate.id === body.property_id)!;
      const unit = { id: property.id, name: property.name, account_name: property.account_name, market: body.market };
      integration = { ...current, units: [...current.units, unit] };
      return json({ data: integration }, 201);
    }
    if (request.method === 'DELETE' && pathname.startsWith(`${base}/google-analytics/properties/`)) {
      const viewId = pathname.split('/').pop();
      integration = { ...current, units: current.units.filter((unit) => unit.id !== viewId) };
      return json({ data: integration });
    }
    return json({ error: 'Not found' }, 404);
  });
  return renderIntegrations(WS, 'admin', '/google_analytics');
}

describe('Google Analytics integration page', () => {
  it('enables GA, adds a view with the UK market shown with the GB flag, and removes it', async () => {
    await setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    expect(await screen.findByText(INTEGRATION_ERRORS.gaNoneSelected)).toBeTruthy();
    expect(await screen.findByText('openrate@project.iam.gserviceaccount.com')).toBeTruthy();

    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('View'), { target: { value: '250002' } });
    expect(save.hasAttribute('disabled')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Market' }));
    const list = await screen.findByRole('listbox', { name: 'Markets' });
    // Common countries come first, under their own heading, before all the others.
    const names = within(list)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(names.slice(0, 4)).toEqual(['No market', 'NetherlandsNL', 'BelgiumBE', 'GermanyDE']);
    expect(names.indexOf('United KingdomUK')).toBeLessThan(names.indexOf('AustriaAT'));
    fireEvent.change(screen.getByLabelText('Search countries'), { target: { value: 'united k' } });
    fireEvent.click(await within(list).findByText('United Kingdom'));
    const chosen = await screen.findByRole('button', { name: 'Market' });
    expect(within(chosen).getByAltText('United Kingdom flag').getAttribute('src')).toBe('/img/markets/GB.png');

    fireEvent.click(save);
    const table = await screen.findByRole('table', { name: 'Google Analytics views' });
    const row = within(table).getByText('Shop UK').closest('tr')!;
    expect(within(row).getByText('United Kingdom')).toBeTruthy();
    expect(within(row).getByAltText('United Kingdom flag').getAttribute('src')).toBe('/img/markets/GB.png');
    const post = network.calls.find((call) => call.method === 'POST' && call.url.endsWith('/properties'));
    expect(post?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f]{32}$/);

    fireEvent.click(within(row).getByRole('button', { name: 'Remove Shop UK' }));
    expect(await screen.findByText(INTEGRATION_ERRORS.gaNoneSelected)).toBeTruthy();
  });

  it('says when every view has been added', async () => {
    await setup({ properties: [view('250001', 'Shop NL')] });
    fireEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    fireEvent.change(await screen.findByLabelText('View'), { target: { value: '250001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(INTEGRATION_ERRORS.gaAllSelected)).toBeTruthy();
  });

  it.each([
    ['no GA account', { accounts: 0, properties: [] }, INTEGRATION_ERRORS.gaNoAccounts],
    ['accounts without views', { accounts: 2, properties: [] }, INTEGRATION_ERRORS.gaNoAccess],
  ])('says so when the service account was granted %s', async (_label, options, message) => {
    await setup(options);
    fireEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('shows the spec message when GA refuses to connect', async () => {
    await setup({ enableError: INTEGRATION_ERRORS.googleAnalytics });
    fireEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    expect(await screen.findByText(INTEGRATION_ERRORS.googleAnalytics)).toBeTruthy();
  });
});
