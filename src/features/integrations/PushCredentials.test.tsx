/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { COPIED_MESSAGE } from '../notifications/useCopyToClipboard';
import { renderIntegrations } from './testing/renderIntegrations';

const WS = 5;
const base = `/api/workspaces/${WS}/integrations`;
const SFTP = { username: 'ws5-1a2b3c4d', password: 'pw-secret-value', host: 'openrate.test', port: 2022, path: '/' };
const BUCKET = { name: 'openrate-ws5-1a2b3c4d', key_json: '{"type":"service_account","private_key":"KEY"}' };

let network: ReturnType<typeof stubNetwork>;
let copied: string[];
beforeEach(() => {
  copied = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void copied.push(text) },
  });
});
afterEach(() => network.restore());

async function setup(type: string) {
  network = stubNetwork((request) => {
    const { pathname } = new URL(request.url);
    if (pathname === base) return json({ data: [] });
    if (pathname === `${base}/sftp/account`) return json({ data: SFTP });
    if (pathname === `${base}/gcs/bucket`) return json({ data: BUCKET });
    return json({ error: 'Not found' }, 404);
  });
  return renderIntegrations(WS, 'admin', `/${type}`);
}

const fetched = (path: string) => network.calls.some((call) => call.url.endsWith(path));

describe('issued push credentials', () => {
  it('shows the SFTP account on the Marketing Cloud page only when asked, each value with a copy button', async () => {
    const { store } = await setup('salesforce');
    const section = await screen.findByRole('region', { name: 'SFTP account' });
    expect(fetched('/sftp/account')).toBe(false);
    fireEvent.click(within(section).getByRole('button', { name: 'Show credentials' }));
    expect((await within(section).findByLabelText<HTMLInputElement>('Password')).value).toBe('pw-secret-value');
    expect(within(section).getByLabelText<HTMLInputElement>('Port').value).toBe('2022');
    expect(within(section).getByLabelText<HTMLInputElement>('Path').value).toBe('/');
    expect(within(section).getByLabelText<HTMLInputElement>('Username').value).toBe('ws5-1a2b3c4d');

    fireEvent.click(within(section).getByRole('button', { name: 'Copy Password' }));
    await waitFor(() => expect(copied).toEqual(['pw-secret-value']));
    await waitFor(() =>
      expect(store.getState().notifications.items.map((item) => item.message)).toContain(COPIED_MESSAGE),
    );
  });

  it('shows the GCS bucket and its key on the BigQuery page', async () => {
    await setup('google_bigquery');
    const section = await screen.findByRole('region', { name: 'Google Cloud Storage bucket' });
    fireEvent.click(within(section).getByRole('button', { name: 'Show credentials' }));
    expect((await within(section).findByLabelText<HTMLInputElement>('Bucket')).value).toBe(BUCKET.name);
    fireEvent.click(within(section).getByRole('button', { name: 'Copy Service account key (JSON)' }));
    await waitFor(() => expect(copied).toEqual([BUCKET.key_json]));
    expect(fetched('/sftp/account')).toBe(false);
  });

  it('leads from the Braze card, set up by the provider, to its delivery credentials', async () => {
    network = stubNetwork(() => json({ data: [] }));
    await renderIntegrations(WS, 'admin', '');
    const braze = await screen.findByRole('region', { name: 'Braze' });
    expect(within(screen.getByRole('region', { name: 'Iterable' })).queryByText('Delivery credentials')).toBeNull();
    fireEvent.click(within(braze).getByRole('button', { name: 'Delivery credentials' }));
    expect(await screen.findByRole('region', { name: 'Google Cloud Storage bucket' })).toBeTruthy();
  });

  it('offers no push credentials where data does not arrive as files', async () => {
    await setup('klaviyo');
    await screen.findByLabelText('Private API key');
    expect(screen.queryByRole('button', { name: 'Show credentials' })).toBeNull();
  });
});
